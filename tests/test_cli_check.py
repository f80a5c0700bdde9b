"""Issue 13: ``trigger-conformance check FILE`` plays one scenario or fixture file and prints every rule's verdict,
the trace, and for a fixture the first observable difference; fixtures compare what the rules observe, not
incidental fields."""

from __future__ import annotations

import json
import os
import sys

from pathlib import Path

import pytest

from conformance.commands import cli
from conformance.running.fixtures import check_fixture, observable_difference
from conformance.documents.fixture_files import bundled_fixtures

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "momon-wonder" / "mw-append-after-pending.json"


@pytest.fixture(autouse=True)
def _engines_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))


def test_check_a_fixture_on_the_reference_engine(capsys):
    assert cli.main(["check", str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert "fixture mw-append-after-pending, momon-wonder 1.0.0" in out
    assert "PASS  mw.queue-fifo" in out and "N/A   mw.summon-package" in out  # every rule, applied or not
    assert "resolve_begin T1" in out  # the trace
    assert "observable outcome" in out and "as expected" in out
    assert out.rstrip().endswith("fixture mw-append-after-pending: PASS")


def test_check_a_fixture_on_a_faulty_engine_names_the_rule_and_the_first_observable_difference(capsys):
    assert cli.main(["check", str(FIXTURE), "--engine", "mutant:mw-lifo"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  mw.queue-fifo" in out and "the queue is first in, first out" in out
    assert "first difference at the 1st trigger to resolve (" in out and "its ability: \"A1\" vs \"A2\" (at " \
        "$.resolved[0][0])" in out
    assert out.rstrip().endswith("fixture mw-append-after-pending: FAIL")


def test_check_a_fixture_on_a_nondeterministic_engine_says_so(monkeypatch, capsys):
    """Issue 23 item 6: a fixture that fails is played again; an engine that answers differently is called
    nondeterministic (errored), as `run` calls it, not failed."""
    monkeypatch.setenv("REVERSE_FIRST", "1")  # tests/engines/nondeterministic.py reverses its first order
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    path = ROOT / "fixtures" / "momon-wonder" / "mw-one-summon-several-monsters.json"
    engine = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'nondeterministic.py'}"
    code = cli.main(["check", str(path), "--engine-cmd", engine])
    out = capsys.readouterr().out
    assert code == 1
    assert "NONDETERMINISTIC: the engine answers this scenario differently" in out
    assert out.rstrip().endswith("fixture mw-one-summon-several-monsters: ERROR (nondeterministic)")


def test_check_a_scenario_file(tmp_path, capsys):
    scenario = json.loads(FIXTURE.read_text())["scenario"]
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    assert cli.main(["check", str(path), "--engine", "mutant:mw-lifo"]) == 1
    out = capsys.readouterr().out
    assert "scenario, momon-wonder 1.0.0" in out and "FAIL  mw.queue-fifo" in out and "observable" not in out
    assert cli.main(["check", str(path)]) == 0
    path.write_text('{"ruleset": "momon-wonder"}')
    assert cli.main(["check", str(path)]) == 2  # a malformed file: exit 2 with the path at fault
    assert "at $" in capsys.readouterr().err


def test_fixtures_compare_what_the_rules_observe_not_incidental_fields():
    # In Momon Wonder no rule reads a choice's optional "among" (Redemption's TA.5 does): an engine that leaves it out
    # passes every fixture, where an exact trace match failed them all.
    from plugin_engines import DropsAmong

    ruleset = "momon-wonder"

    engine = DropsAmong()
    engine.inner = __import__("conformance.adapters.registry", fromlist=["load_engine"]).load_engine(
        "reference", ruleset)
    fixtures = bundled_fixtures(ruleset)
    assert fixtures
    for fixture in fixtures:
        result = check_fixture(engine, fixture, engine_invariants(ruleset, fixture))
        assert result.status == "passed", (fixture.id, result.messages)


def engine_invariants(ruleset, fixture):
    from reference_engine.kernel.registry import get_ruleset

    return get_ruleset(ruleset).invariants_for(fixture.scenario["edition"])


def test_an_observable_difference_is_found_and_named():
    fixture = next(f for f in bundled_fixtures("momon-wonder") if f.id == "mw-append-after-pending")
    trace = json.loads(json.dumps(fixture.expected_trace))
    assert observable_difference(fixture.scenario, fixture.expected_trace, trace) is None
    # Renamed ids are incidental...
    text = json.dumps(trace).replace('"T1"', '"X9"')
    assert observable_difference(fixture.scenario, fixture.expected_trace, json.loads(text)) is None
    # ...the order of resolutions is not.
    entries = trace["entries"]
    first = next(i for i, e in enumerate(entries) if e["kind"] == "resolve_begin")
    second = next(i for i, e in enumerate(entries) if e["kind"] == "resolve_begin" and i > first)
    entries[first]["trigger"], entries[second]["trigger"] = entries[second]["trigger"], entries[first]["trigger"]
    where = observable_difference(fixture.scenario, fixture.expected_trace, trace)
    assert where.startswith("the 1st trigger to resolve") and "(at $.resolved" in where


def test_check_with_an_engine_of_another_ruleset_is_a_usage_error(capsys):
    from pathlib import Path

    from conformance.commands import cli

    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "mtg" / "mtg-101-4-each-player-sacrifices.json"
    assert cli.main(["check", str(fixture), "--engine", "mutant:mw-lifo"]) == 2
    assert "does not implement mtg" in capsys.readouterr().err
