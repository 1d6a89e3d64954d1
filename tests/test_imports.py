"""The engine's plan, read from its imports: no import cycle, and every wing imports only
what stands below it (docs: README.md, "Layout").

Every ``import`` of ``kozel/`` outside the server and the browser client counts, at a module's
top or inside a function alike (a deferred import is an import all the same); an import under
``if TYPE_CHECKING:`` does not, as it never runs (a round and its scoring policy name each
other's types, as a match and its views do).
"""

from __future__ import annotations

import ast
from pathlib import Path

import kozel

PACKAGE = Path(kozel.__file__).parent
OUTSIDE = ("kozel.server", "kozel.web")
"""The club and its browser client stand on the engine; they are not part of it."""

GENERIC = ("kozel.engine", "kozel.core", "kozel.shuffle")
"""What every game stands on: the game protocol and its pieces, the tiles, the shuffle."""
LAYOUT = ("kozel.layout",)
"""The twelve games played on a layout, with their scoring policies, bots and terminal."""
CLIENTS = ("kozel.patch",)
"""What a client of the club needs beside its socket (examples/bot_client.py): it stands alone."""
HANDS = ("kozel.hands",)
"""The shared base of the games played in hands."""
HAND_GAMES = ("kozel.poker", "kozel.trumps")
ABOVE_THE_REGISTRY = (
    "kozel.games",
    "kozel.cli",
    "kozel.verify",
    "kozel.judgement",
    "kozel.simulate",
    "kozel.benchmark",
)
"""The registry of every game and what needs every game: nothing in a game imports these."""


def _in(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _module_names() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["kozel", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        if not _in(name, OUTSIDE):
            names[name] = path
    return names


def _under_type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def import_graph() -> dict[str, set[str]]:
    """Each engine module and the engine modules it imports when it runs."""
    modules = _module_names()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        is_package = path.name == "__init__.py"
        imported: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".")[: len(name.split(".")) - node.level + is_package]
                    base = ".".join([*here, *([base] if base else [])])
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            else:
                continue
            if _under_type_checking(node, parents):
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name and target != "kozel":
                    imported.add(target)
        graph[name] = imported
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_is_read() -> None:
    graph = import_graph()
    assert "kozel.engine.game" in graph and "kozel.games" in graph
    assert "kozel.poker.game" in graph["kozel.games"]
    assert not any(_in(name, OUTSIDE) for name in graph)
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_in_the_engine() -> None:
    assert cycles(import_graph()) == []


def test_each_wing_imports_only_what_stands_below_it() -> None:
    wrong = []
    for name, imported in import_graph().items():
        if name == "kozel":
            continue
        if _in(name, GENERIC):
            allowed: tuple[str, ...] = GENERIC
        elif _in(name, HANDS):
            allowed = (*GENERIC, *HANDS)
        elif _in(name, HAND_GAMES):
            own = ".".join(name.split(".")[:2])
            allowed = (*GENERIC, *HANDS, own)
        elif _in(name, CLIENTS):
            allowed = ()
        elif _in(name, LAYOUT):
            allowed = (*GENERIC, *LAYOUT)
        elif _in(name, ABOVE_THE_REGISTRY):
            continue
        else:
            wrong.append(f"{name} stands in no wing")
            continue
        wrong += [f"{name} -> {target}" for target in imported if not _in(target, allowed)]
    assert sorted(wrong) == []
