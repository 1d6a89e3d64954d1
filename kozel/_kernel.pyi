"""Type stubs of the compiled playout kernel (kozel/_kernel.c)."""

KernelPlay = tuple[int, int, int]
KernelMove = tuple[int, tuple[KernelPlay, ...]]
StateTuple = tuple[
    int,
    int,
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    tuple[int, ...],
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
]
ScoringTuple = tuple[
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    float,
    int,
    int,
]
ModelTuple = tuple[
    int, int, int, tuple[int, ...], int, int, int, int, int, tuple[float, ...] | None, int
]
DecisionTuple = tuple[
    int,
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    int,
    KernelMove,
    tuple[int, ...],
    int,
]

def evaluate(
    state: StateTuple,
    scoring: ScoringTuple,
    moves: list[KernelMove],
    playouts: int,
    policy: int,
    seed: int,
    model: ModelTuple | None = None,
) -> list[list[float]]: ...
def trace(
    state: StateTuple, seed: int, scoring: ScoringTuple | None = None
) -> tuple[list[tuple[int, int, KernelMove, int]], int, int, tuple[int, ...], list[float]]: ...
def model_trace(
    state: StateTuple, model: ModelTuple, seed: int
) -> list[tuple[int, int, KernelMove, tuple[int, ...], list[int]]]: ...
def explain(
    state: StateTuple,
    model: ModelTuple,
    decisions: list[DecisionTuple],
    worlds: list[tuple[int, ...]],
    noise: float,
) -> list[list[float]]: ...
def random_rounds(
    state: StateTuple,
    count: int,
    seed: int,
    hand_size: int = 7,
    reserve: int = 0,
    ignore: int = -1,
) -> int: ...
def exact(
    state: StateTuple,
    scoring: ScoringTuple,
    moves: list[KernelMove],
    weight: float,
    node_limit: int,
) -> tuple[list[float] | None, int]: ...
def tree_search(
    states: list[StateTuple],
    scoring: ScoringTuple,
    moves: list[KernelMove],
    playouts: int,
    seed: int,
    model: ModelTuple,
    weight: float,
    exploration: float,
    patience: int = 0,
) -> tuple[list[list[float]], int]: ...
def features(
    state: StateTuple, model: ModelTuple, moves: list[KernelMove]
) -> list[list[float] | None]: ...
