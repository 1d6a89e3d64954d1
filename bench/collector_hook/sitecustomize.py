"""Logs how long each of the cyclic garbage collector's collections stops the process: one line
``<wall time> <generation> <milliseconds>`` each, to the file ``KOZEL_COLLECTOR_LOG`` names.

``bench/server_load.py`` puts this directory on its servers' ``PYTHONPATH`` (Python imports a
``sitecustomize`` module when it starts), so that any version of the club, the reference of a
comparison too, reports its collections the same way; without the variable it does nothing.
A collection stops every table of its process: the longest ones are the tail of a move's
latency at 1,000 tables (docs/benchmarks.md).
"""

import gc
import os
import time

_PATH = os.environ.get("KOZEL_COLLECTOR_LOG")
if _PATH:
    _log = open(_PATH, "a", buffering=1)  # noqa: SIM115 - open for the process's lifetime
    _started = [0.0]

    def _timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            _started[0] = time.perf_counter()
        else:
            took = 1000 * (time.perf_counter() - _started[0])
            _log.write(f"{time.time():.3f} {info['generation']} {took:.2f}\n")

    gc.callbacks.append(_timed)
