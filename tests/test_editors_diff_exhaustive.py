"""Issue 29, item 3: ``diff --exhaustive`` compares the two sides on every scenario within a bound (the one walk
``lint-rules --exhaustive`` judges), says whether the bound was exhausted or a time limit stopped it, and carries
the bound, the counts and the exhausted flag in its JSON report (``coverage``, schemas/editor-report.schema.json).

Momon Wonder at depth 1 or 2 (11 or 73 distinct scenarios) keeps each run to about a second."""

from __future__ import annotations

import json

from conformance.commands.cli import main
from conformance.documents.json_io import problems
from conformance.editors.bounded import Bound
from conformance.editors.differ import Side, diff_bounded
from reference_engine.kernel.registry import get_ruleset

MOMON = get_ruleset("momon-wonder")
BOUND = "players=2,objects=2,abilities=2,actions=2"
TWO_VALUES = ["diff", "--ruleset", "momon-wonder", "--option", "same_event_order=active-player-first",
              "--option", "same_event_order=object-order", "--exhaustive"]


def _report(path) -> dict:
    doc = json.loads(path.read_text())
    assert problems(doc, "editor-report") == []
    return doc


def test_an_option_difference_is_found_on_every_scenario_of_a_small_bound(tmp_path, capsys):
    assert main([*TWO_VALUES, "--bound", "depth=2", "--json", str(tmp_path / "diff.json")]) == 1
    out = capsys.readouterr().out
    assert "DIFFERENCE" in out and "mw.queue-fifo" in out
    assert f"every scenario within bound {BOUND},depth=2,values=4 (73 scenarios, exhausted)" in out
    assert "73 distinct after symmetry reduction" in out and "1 with differing required traces" in out
    coverage = _report(tmp_path / "diff.json")["coverage"]
    assert coverage["kind"] == "bound" and coverage["exhausted"] is True and coverage["stopped"] is None
    assert coverage["bound"]["depth"] == 2 and coverage["scenarios"]["distinct"] == 73
    assert coverage["scenarios"]["compared"] == 73 and coverage["scenarios"]["differing"] == 1


def test_the_exhaustive_diff_finds_what_each_scenario_compared_shows():
    inv = MOMON.invariants_for("1.0.0")
    a, b = (Side(v, "1.0.0", {"same_event_order": v}, inv) for v in ("active-player-first", "object-order"))
    found, coverage = diff_bounded(MOMON, a, b, Bound.parse("depth=3"), limit=3, reduce_seconds=2)
    assert coverage.exhausted and coverage.visited == coverage.distinct == 306
    assert coverage.compared + coverage.not_situation + coverage.too_large == coverage.visited
    assert 1 <= len(found) <= 3 and coverage.differing >= len(found)
    for difference in found:  # each minimal scenario still differs
        assert a.required(difference.scenario, 2000) != b.required(difference.scenario, 2000)


def test_no_difference_states_the_bound_and_that_it_was_exhausted(tmp_path, capsys):
    args = ["diff", "--ruleset", "momon-wonder", "--option", "package_contents=summoned-object-triggers",
            "--exhaustive", "--bound", "depth=1"]
    assert main([*args, "--json", str(tmp_path / "diff.json"), "--report-markdown", str(tmp_path / "diff.md")]) == 0
    out = capsys.readouterr().out
    within = f"bound {BOUND},depth=1,values=4 (11 scenarios, exhausted)"
    assert f'no difference found between published and draft (package_contents="summoned-object-triggers") ' \
           f"(none found within {within})" in out
    doc = _report(tmp_path / "diff.json")
    assert doc["findings"] == [] and doc["coverage"]["within"] == within and doc["coverage"]["exhausted"] is True
    assert f"None found within {within}" in (tmp_path / "diff.md").read_text().replace("\\_", "_")


def test_a_time_limit_stops_the_exhaustive_diff_and_says_so(tmp_path, capsys):
    args = ["diff", "--ruleset", "momon-wonder", "--option", "sbc_events=false", "--exhaustive", "--bound",
            "depth=3", "--time-limit", "0.001", "--json", str(tmp_path / "diff.json")]
    main(args)
    out = capsys.readouterr().out
    assert "NOT exhausted: stopped by --time-limit after " in out
    coverage = _report(tmp_path / "diff.json")["coverage"]
    assert coverage["exhausted"] is False and coverage["stopped"]["reason"] == "time-limit"
    # "of": the distinct scenarios walked when time ran out (the walk itself stops too, so at most the bound's 306)
    assert coverage["stopped"]["after"] == coverage["scenarios"]["visited"] <= coverage["stopped"]["of"] <= 306
    assert coverage["scenarios"]["visited"] < 306


def test_the_exhaustive_options_of_diff_alone_or_with_scenarios_are_refused(tmp_path, capsys):
    base = ["diff", "--ruleset", "momon-wonder", "--option", "sbc_events=false"]
    assert main([*base, "--bound", "depth=1"]) == 2
    assert "--bound belong(s) to --exhaustive" in capsys.readouterr().err
    assert main([*base, "--json", str(tmp_path / "d.json")]) == 2
    assert main([*base, "--exhaustive", "--bound", "depth=x"]) == 2
    assert "not a whole number" in capsys.readouterr().err
    assert main([*base, "--exhaustive", "--scenario", str(tmp_path / "none.json")]) == 2
    assert "--scenario is for the sampled diff" in capsys.readouterr().err
