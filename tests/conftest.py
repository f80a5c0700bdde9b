"""Shared test helpers: fixtures on disk, and small tools to break a trace by hand."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED_RULES = ROOT.parent / "shared" / "rules"

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")

SLOW_SAMPLE = 4  # sampled_nightly: one slow case in this many runs in .ci/run, all of them nightly
QUICK_SECONDS = 180  # issue 19 item 8: the README's test command passes in at most this on a quiet 2-core machine
_STARTED = time.monotonic()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """The README's test command (``pytest -n 2``, the whole suite from ``testpaths``, no ``-m``) leaves out the long
    checks marked ``slow`` (every faulty engine on many seeds, stream digests, recorded minimal sizes); ``.ci/run``
    runs them after it with ``-m "slow and not nightly"`` (those also marked ``nightly``, too long for its 15
    minutes, run in the nightly workflow's tests job). Naming files or tests on the command line, or giving ``-m``, selects as
    usual, so ``pytest tests/test_stream_digest.py`` runs all of that file."""
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS and not config.option.markexpr:
        config.option.markexpr = "not slow"  # xdist hands the options to its workers


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """A parametrized test marked ``first_quick`` keeps its first parametrization in the quick suite and has the
    others marked ``slow`` (one fast check of each kind stays quick; the repeats run in the slow set). Runs before
    ``-m`` deselects, in every xdist worker alike (each collects the same items in the same order)."""
    seen: set[str] = set()
    for item in items:
        if item.get_closest_marker("first_quick") is None or not hasattr(item, "callspec"):
            continue
        function = item.nodeid.partition("[")[0]
        if function in seen:
            item.add_marker(pytest.mark.slow)
        seen.add(function)
    # ``sampled_nightly``: of a parametrized test's slow cases, one in SLOW_SAMPLE stays in .ci/run and the others
    # run nightly only, so that .ci/run stays within its 15 minutes while every case still runs each night.
    slow_seen: dict[str, int] = {}
    for item in items:
        if item.get_closest_marker("sampled_nightly") is None or item.get_closest_marker("slow") is None \
                or item.get_closest_marker("nightly") is not None or not hasattr(item, "callspec"):
            continue
        function = item.nodeid.partition("[")[0]
        slow_seen[function] = slow_seen.get(function, 0) + 1
        if slow_seen[function] % SLOW_SAMPLE != 1:
            item.add_marker(pytest.mark.nightly)


def pytest_terminal_summary(terminalreporter, config):
    """The run's wall time, against the bound the README's test command keeps (issue 19 item 8)."""
    seconds = time.monotonic() - _STARTED
    selection = f" (-m {config.option.markexpr!r})" if config.option.markexpr else ""
    bound = (f"; the README's test command must pass in at most {QUICK_SECONDS} s on a quiet 2-core machine"
             if config.args_source == pytest.Config.ArgsSource.TESTPATHS else "")
    terminalreporter.write_line(f"wall time: {seconds:.0f} s{selection}{bound}")


def load_fixture_document(ruleset: str, fixture_id: str) -> dict:
    return json.loads((ROOT / "fixtures" / ruleset / f"{fixture_id}.json").read_text("utf-8"))


@pytest.fixture
def momon_fixture():
    """Load a Momon Wonder fixture by id as (prepared scenario, deep copy of its expected trace)."""
    from conformance.documents.scenarios import prepare_scenario

    def load(fixture_id: str):
        document = load_fixture_document("momon-wonder", fixture_id)
        _, scenario = prepare_scenario(document["scenario"], fixture_id)
        return scenario, copy.deepcopy(document["expected_trace"])

    return load
