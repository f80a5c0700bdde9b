"""Issue 29: ``lint-rules --exhaustive`` judges every scenario within a bound, symmetry-reduced, and prints the
statistics a model checker prints; shards merge to the single run; a time limit stops it and says how far it got.

The quick tests use Momon Wonder at depth 2 (73 distinct scenarios, well under a second); the default bound of
every ruleset is exhausted in the slow ones.
"""

from __future__ import annotations

import copy
import json

import pytest

from conformance.commands.cli import main
from conformance.documents.json_io import problems
from conformance.editors import exhaustive
from conformance.editors.analysis import edited_invariants
from conformance.editors.bounded import Bound, Walk, bounded_scenarios, canonical
from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.registry import get_ruleset

MOMON = get_ruleset("momon-wonder")
TINY = Bound.parse("depth=2")


def run(bound: Bound = TINY, **kwargs):
    invariants = kwargs.pop("invariants", MOMON.invariants_for("1.0.0"))
    return exhaustive.exhaust(MOMON, "1.0.0", invariants, bound, reduce_seconds=2, **kwargs)


@pytest.fixture(scope="module")
def single():
    return run()[0]


# -- The bound and the shard on the command line ----------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("players", "is not DIMENSION=N"), ("colours=2", "is not DIMENSION=N"), ("players=two", "not a whole number"),
    ("objects=0", "too small"), ("depth=-1", "too small"),
])
def test_a_bad_bound_is_refused_naming_the_fault(text, words, capsys):
    with pytest.raises(ValueError, match=words):
        Bound.parse(text)
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", text]) == 2
    assert words in capsys.readouterr().err


def test_a_bound_keeps_the_defaults_it_does_not_name():
    assert Bound.parse("depth=0,values=2") == Bound(depth=0, values=2)
    assert exhaustive.default_bound("redemption").objects >= 6  # its simplest scenario has six objects
    from conformance.editors.exhaustive_cli import bound_of

    assert bound_of("redemption", "depth=1") == Bound.parse(exhaustive.DEFAULT_BOUNDS["redemption"] + ",depth=1")


def test_the_exhaustive_options_alone_are_refused(capsys):
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--bound", "depth=1"]) == 2
    assert "--bound belong(s) to --exhaustive" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["0/2", "3/2", "a/b", "1", "1/0"])
def test_a_bad_shard_is_refused(text, capsys):
    with pytest.raises(ValueError, match="--shard"):
        exhaustive.parse_shard(text)
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", "depth=0", "--shard",
                 text]) == 2
    assert "--shard" in capsys.readouterr().err


# -- Determinism and symmetry reduction ---------------------------------------------------------------------------

def test_the_walk_is_deterministic(single):
    first = [canonical(d) for d in bounded_scenarios("momon-wonder", "1.0.0", TINY)]
    assert first == [canonical(d) for d in bounded_scenarios("momon-wonder", "1.0.0", TINY)]
    assert exhaustive.comparable(run()[0]) == exhaustive.comparable(single)


def _renamed(document: dict) -> dict:
    """``document`` with its players, objects and abilities renamed and its objects in the other order."""
    text = json.dumps(document)
    names = {p: f"Zed{n}" for n, p in enumerate(document["players"])}
    names.update({o["id"]: f"thing{n}" for n, o in enumerate(document["objects"])})
    names.update({a["id"]: f"power{n}" for n, o in enumerate(document["objects"]) for a in o.get("abilities", ())})
    for old, new in sorted(names.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(f'"{old}"', f'"{new}"')
    renamed = json.loads(text)
    renamed["objects"].reverse()
    renamed["players"].reverse()
    return renamed


def test_two_scenarios_that_differ_by_renaming_count_once():
    documents = list(bounded_scenarios("momon-wonder", "1.0.0", TINY))
    two = next(d for d in documents if len(d["objects"]) == 2 and len(d["players"]) == 2)
    other = _renamed(two)
    assert other != two and canonical(other) == canonical(two)
    keys = [canonical(d) for d in documents]
    assert len(keys) == len(set(keys))  # no two distinct scenarios are renamings of each other
    assert canonical(other) in keys
    walk = Walk()
    assert sum(1 for _ in bounded_scenarios("momon-wonder", "1.0.0", TINY, walk)) == walk.scenarios
    assert walk.duplicates > 0  # the builder does make renamings, and they were counted once
    changed = copy.deepcopy(two)
    changed["objects"][0]["zone"] = "hand" if changed["objects"][0].get("zone") != "hand" else "field"
    assert canonical(changed) != canonical(two)  # what is not a renaming still tells scenarios apart


# -- The statistics -----------------------------------------------------------------------------------------------

def test_the_statistics_are_present_and_consistent(single):
    assert problems(single, "exhaustive-stats") == []
    walk, counts = single["walk"], single["scenarios"]
    assert walk["builds"] == walk["distinct"] + walk["renamings"] + sum(walk["outside"].values())
    assert sum(counts.values()) == walk["distinct"] and counts["judged"] > 0 and single["exhausted"]
    assert single["traces"] >= counts["judged"] and single["outcomes"] >= single["legal_outcomes"] > 0
    assert set(single["rule_keys"]) == {inv.key for inv in MOMON.invariants_for("1.0.0")}
    assert set(single["branch_points"]) == set(MOMON.branch_points)
    assert all(v["decided"] <= v["rejected"] <= counts["judged"] for v in single["rule_keys"].values())
    assert all(v["changed"] <= v["met"] <= counts["judged"] for v in single["branch_points"].values())
    assert any(v["decided"] for v in single["rule_keys"].values())
    assert any(v["changed"] for v in single["branch_points"].values())
    text = "\n".join(exhaustive.lines(single))
    vacuous = [k for k, v in single["rule_keys"].items() if not v["rejected"]]
    assert vacuous and f"vacuous within the bound (never ruled out a trace): {', '.join(vacuous)}" in text
    assert f"{walk['builds']} scenarios generated, {walk['distinct']} distinct after symmetry reduction" in text


def test_the_command_prints_the_statistics_and_writes_them(tmp_path, capsys):
    out_json, report = tmp_path / "stats.json", tmp_path / "report.md"
    code = main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", "depth=2", "--json",
                 str(out_json), "--report-markdown", str(report)])
    out = capsys.readouterr().out
    assert code == 0  # open readings an option names are reported, not failures
    stats = json.loads(out_json.read_text())
    assert problems(stats, "exhaustive-stats") == []
    assert f"none found within bound players=2,objects=2,abilities=2,actions=2,depth=2,values=4 " \
           f"({stats['scenarios']['judged']} scenarios, exhausted)" in out
    assert "traces explored" in out and "distinct outcomes" in out and "vacuous within the bound" in out
    assert "scenarios generated" in report.read_text()  # the Markdown report shows the statistics too


# -- Findings ------------------------------------------------------------------------------------------------------

def test_an_open_reading_an_option_names_is_found(single):
    found = {(f["kind"], f["key"]) for f in single["findings"]}
    assert ("open-reading", "same_event_order") in found  # the order of one event's trigger group


def test_a_point_whose_option_is_an_open_reading_says_so_beside_its_count(single):
    """group-order's count is of the walk at same_event_order's default, where it has one answer (0 changed); its
    other readings are that option's values, found open once: the statistics say both, not a bare 0."""
    found = {f["branch_point"]: f["key"] for f in single["findings"] if f["kind"] == "open-reading"}
    assert found["group-order"] == "same_event_order"
    line = next(x for x in exhaustive.lines(single) if x.startswith("branch points, "))
    assert "group-order 0/2 (and option same_event_order's values: an open reading)" in line
    assert not problems(single, "exhaustive-stats")


def test_a_dropped_key_leaves_an_ambiguity_that_fails_the_lint(capsys):
    code = main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", "depth=2", "--without",
                 "mw.same-event-order"])
    out = capsys.readouterr().out
    assert code == 1 and "AMBIGUITY: The rules leave open the group-order" in out
    assert "1 new ambiguity(ies)" in out


@invariant(key="mw.draft-nothing-resolves", ruleset="momon-wonder", rules={"1.0.0": "11.2.4"},
           summary="TEST DRAFT: no triggered ability ever resolves.",
           exercised=lambda view: len(view.by_kind["resolve_begin"]))
def NOTHING_RESOLVES(view):  # noqa: N802 - an invariant named as a constant, as the drafts are
    return [f"entry {i} resolves a trigger" for i in view.by_kind["resolve_begin"]]


def test_a_planted_contradiction_is_found_with_its_core():
    invariants = edited_invariants(MOMON, "1.0.0", [NOTHING_RESOLVES])
    stats, found, findings = run(invariants=invariants)
    contradictions = [f for f in found if f.kind == "contradiction"]
    assert contradictions and "mw.draft-nothing-resolves" in contradictions[0].key.split(",")
    assert findings.contradictions[0].scenario["objects"]  # with its minimal scenario
    assert stats["rule_keys"]["mw.draft-nothing-resolves"]["decided"] > 0
    assert exhaustive.verdict(stats)[0]


# -- Shards, merging, the time limit ------------------------------------------------------------------------------

def test_two_shards_merge_to_the_single_run(single, tmp_path, capsys):
    parts = []
    for i in (1, 2):
        path = tmp_path / f"part{i}.json"
        main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", "depth=2", "--shard", f"{i}/2",
              "--json", str(path)])
        parts.append(json.loads(path.read_text()))
    assert 0 < parts[0]["scenarios"]["judged"] < single["scenarios"]["judged"]
    merged_path = tmp_path / "merged.json"
    capsys.readouterr()
    assert main(["merge-stats", str(tmp_path / "part2.json"), str(tmp_path / "part1.json"), "--json",
                 str(merged_path)]) == 0
    out = capsys.readouterr().out
    merged = json.loads(merged_path.read_text())
    assert merged["shard"] == {"parts": [1, 2], "of": 2} and merged["exhausted"]
    assert exhaustive.comparable(merged) == exhaustive.comparable(single)
    assert f"({single['scenarios']['judged']} scenarios, exhausted)" in out
    assert not exhaustive.merge([parts[0]])["exhausted"]  # one part of two is not the whole bound
    # said as such, not as a time limit (a fresh user's finding)
    assert "NOT exhausted: shard part(s) 2 of 2 missing" in exhaustive.within(exhaustive.merge([parts[0]]))
    with pytest.raises(ValueError, match="do not exist"):
        exhaustive.merge([{**parts[0], "shard": {"parts": [7], "of": 2}}])
    with pytest.raises(ValueError, match="walked the bound differently"):
        exhaustive.merge([parts[0], {**parts[1], "walk": {**parts[1]["walk"], "distinct": 5}}])


def test_merging_what_does_not_belong_together_is_refused(single, tmp_path, capsys):
    with pytest.raises(ValueError, match="given twice"):
        exhaustive.merge([single, single])
    other = {**single, "bound": {**single["bound"], "depth": 3}}
    with pytest.raises(ValueError, match="differ in bound"):
        exhaustive.merge([single, {**other, "shard": {"parts": [2], "of": 1}}])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**single, "traces": -1}))
    assert main(["merge-stats", str(bad)]) == 2
    assert "traces" in capsys.readouterr().err


def test_the_time_limit_stops_and_says_how_far_it_got(capsys):
    stats = run(Bound.parse("depth=3"), time_limit=1e-6)[0]
    assert not stats["exhausted"] and stats["stopped"]["reason"] == "time-limit"
    assert stats["scenarios"]["judged"] == stats["stopped"]["at_scenario"] < 306
    assert any("stopped by --time-limit" in line for line in exhaustive.lines(stats))
    main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--time-limit", "0.000001"])
    assert "NOT exhausted: stopped by --time-limit" in capsys.readouterr().out


def test_the_time_limit_stops_a_walk_whose_builds_fall_outside_the_bound(capsys):
    """A fresh user's finding: at depth 12 almost every build is beyond the other dimensions, so no scenario came
    out of the walk to check the clock against, and --time-limit 3 ran on for minutes. The walk itself stops now."""
    walk = Walk()
    assert list(bounded_scenarios("momon-wonder", "1.0.0", Bound.parse("depth=12"), walk, deadline=0.0)) == []
    assert walk.stopped and walk.builds == 0
    stats = run(Bound.parse("depth=12"), time_limit=0.5)[0]
    assert not stats["exhausted"] and stats["stopped"]["reason"] == "time-limit"
    assert main(["diff", "--ruleset", "momon-wonder", "--option", "sbc_events=false", "--exhaustive", "--bound",
                 "depth=12", "--time-limit", "0.5"]) == 0
    assert "NOT exhausted: stopped by --time-limit" in capsys.readouterr().out


def test_the_nightly_exhaustive_job_parses_and_merges_its_shards():
    import yaml

    from conformance.commands.cli import build_parser
    from conformance.editors.exhaustive_cli import bound_of
    from conftest import ROOT

    jobs = yaml.safe_load((ROOT / ".github" / "workflows" / "nightly.yml").read_text())["jobs"]
    matrix = jobs["exhaustive"]["strategy"]["matrix"]
    assert matrix["shard"] == [1, 2, 3, 4] and {i["ruleset"] for i in matrix["include"]} == set(matrix["ruleset"])
    step = next(s for s in jobs["exhaustive"]["steps"] if s.get("name", "").startswith("Exhaust part"))
    for item in matrix["include"]:
        line = step["run"].replace("${{ matrix.ruleset }}", item["ruleset"]).replace("${{ matrix.shard }}", "2")
        args = build_parser().parse_args(line.replace("${{ matrix.bound }}", item["bound"]).split()[1:])
        assert args.exhaustive and args.shard == "2/4" and args.json
        assert bound_of(item["ruleset"], args.bound)  # a bound the command accepts
    assert "merge-stats" in str(jobs["exhaustive-merge"]["steps"])


# -- The default bounds ---------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(exhaustive.DEFAULT_BOUNDS))
def test_the_default_bound_of_each_ruleset_is_exhausted(name, capsys):
    main(["lint-rules", "--ruleset", name, "--exhaustive"])
    out = capsys.readouterr().out
    assert "scenarios, exhausted)" in out and "0 too large" in out


def test_an_interrupted_walk_keeps_and_writes_what_it_judged(tmp_path, capsys, monkeypatch):
    """A fresh user's finding: Ctrl-C during lint-rules --exhaustive lost everything. Now the statistics so far are
    printed and written, marked interrupted, and the command exits as interrupted (130)."""
    judge_one, calls = exhaustive._judge_one, []

    def interrupting(*args, **kwargs):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return judge_one(*args, **kwargs)

    monkeypatch.setattr(exhaustive, "_judge_one", interrupting)
    stats_file = tmp_path / "stats.json"
    code = main(["lint-rules", "--ruleset", "momon-wonder", "--exhaustive", "--bound", "depth=2", "--json",
                 str(stats_file)])
    out = capsys.readouterr().out
    assert code == 130 and "NOT exhausted: interrupted" in out
    stats = json.loads(stats_file.read_text())
    assert not problems(stats, "exhaustive-stats")
    assert stats["stopped"]["reason"] == "interrupted" and stats["stopped"]["at_scenario"] == 4
    assert stats["scenarios"]["judged"] == 4 and not stats["exhausted"]


def test_an_interrupted_sampled_search_keeps_and_writes_what_it_found(tmp_path, capsys, monkeypatch):
    """The same for lint-rules without --exhaustive: Ctrl-C after some scenarios prints and writes the findings so
    far (here the open readings the first scenarios showed), says the search was interrupted, and exits 130."""
    from conformance.editors import analysis

    judge_walk, calls = analysis.judge_walk, []

    def interrupting(*args, **kwargs):
        calls.append(1)
        if len(calls) == 30:
            raise KeyboardInterrupt
        return judge_walk(*args, **kwargs)

    monkeypatch.setattr(analysis, "judge_walk", interrupting)
    written = tmp_path / "lint.json"
    code = main(["lint-rules", "--ruleset", "momon-wonder", "--report-json", str(written)])
    out = capsys.readouterr().out
    assert code == 130 and "29 small scenarios enumerated" in out and "INTERRUPTED" in out
    document = json.loads(written.read_text())
    assert not problems(document, "editor-report")
    assert "AMBIGUITY" in out and any(f["kind"] == "ambiguity" for f in document["findings"])


def test_an_interrupted_sampled_diff_keeps_and_writes_what_it_found(tmp_path, capsys, monkeypatch):
    """And for diff: Ctrl-C during the sweep prints and writes the differences found so far, says the sweep was
    interrupted, and exits 130."""
    from conformance.editors import targeting

    note, calls = targeting.Sample.note_reached, []

    def interrupting(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return note(self, *args, **kwargs)

    monkeypatch.setattr(targeting.Sample, "note_reached", interrupting)
    written = tmp_path / "diff.json"
    code = main(["diff", "--ruleset", "momon-wonder", "--option", "same_event_order=active-player-first",
                 "--option", "same_event_order=object-order", "--limit", "10", "--report-json", str(written)])
    out = capsys.readouterr().out
    assert code == 130 and "4 enumerated under both sides" in out and "INTERRUPTED" in out
    document = json.loads(written.read_text())
    assert not problems(document, "editor-report") and document["findings"]
