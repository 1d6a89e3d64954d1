"""The whole suite's hooks: the test clubs' seed in the summary, and one line at the end
naming what was skipped and why (tests/suite.py)."""

from __future__ import annotations

import pytest

from tests.suite import club_seed, skip_reasons, skipped_line


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(
        f"KOZEL_TEST_SEED={club_seed()} seeded the test clubs' deals "
        "(the same value repeats this run's games; another tries other deals)"
    )


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """After pytest's own summary (the last line it prints): what was skipped. Only the
    process that reports (not an xdist worker)."""
    if hasattr(config, "workerinput"):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or not hasattr(reporter, "stats"):
        return
    if not any(reporter.stats.get(k) for k in ("passed", "failed", "skipped", "error")):
        return  # nothing ran (collection only, --help)
    reporter.write_line(skipped_line(skip_reasons(reporter.stats.get("skipped", []))))
