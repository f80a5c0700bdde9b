"""Issue 14, items 2-6 on the real rules: contradictions with minimal rule-key cores, ambiguities matched to the
documented options, edition and option diffs, the coverage matrix and the rule-text lint."""

from __future__ import annotations

import copy

import pytest

from conformance.commands.cli import main
from conformance.editors import drafts
from conformance.editors.analysis import (
    Side, ambiguities_of, contradiction_of, diff, edited_invariants, explore_rules, load_invariants, minimal_core,
    rejected_outcomes,
)
from conformance.editors.enumeration import enumerate_traces, signature
from conformance.editors.matrix import lint_text, matrix, paragraphs, sentence_table
from conformance.documents.fixture_files import bundled_fixtures
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.traceview import TraceView
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import get_ruleset

MOMON = get_ruleset("momon-wonder")


def fixture(ruleset: str, fixture_id: str) -> dict:
    return copy.deepcopy(next(f for f in bundled_fixtures(ruleset) if f.id == fixture_id).scenario)


def reference_outcome(document: dict) -> tuple[str, ...]:
    _, scenario = prepare_scenario(document, "test")
    trace = reference_engine_for(scenario["ruleset"]).run(copy.deepcopy(scenario), ScenarioChooser(scenario))
    return signature(trace, observable=True)


def assert_minimal(core, invariants, scenario):
    """Remove any one key of the core and some explored outcome (traces no player can tell apart) satisfies the
    rest; with all of it, none does."""
    walk = enumerate_traces(scenario, invariants, player_choices="scenario", prune=False)
    outcomes = rejected_outcomes(walk)
    assert all(set(outcome.violations) & set(core) for outcome in outcomes)
    for key in core:
        rest = set(core) - {key}
        assert any(not (set(outcome.violations) & rest) for outcome in outcomes), key


# -- Item 6: Momon 11.2.4, strict first in, first out against the sanctioned-play remedy -----------------------------

def test_strict_fifo_contradicts_the_sanctioned_play_remedy_and_the_published_reading_does_not():
    document = fixture("momon-wonder", "mw-remedy-front-sanctioned")
    _, scenario = prepare_scenario(document, "test")
    strict = edited_invariants(MOMON, "1.0.0", [drafts.STRICT_FIFO])
    found = contradiction_of(scenario, strict)
    assert found is not None and set(found.core) == {"mw.queue-fifo", "mw.remedy-front"}
    assert_minimal(found.core, strict, scenario)
    assert {key for _, _, key, _ in found.reasons} == set(found.core)  # each candidate explained by a core key
    assert "CONTRADICTION" in found.render() and "rejected by mw.remedy-front" in found.render()
    assert contradiction_of(scenario, edited_invariants(MOMON, "1.0.0")) is None  # the exception kept: consistent
    casual = prepare_scenario({**document, "options": {"sanctioned_play": False}}, "test")[1]
    assert contradiction_of(casual, strict) is None  # casual play: no front placement, no contradiction


def test_the_strict_fifo_draft_is_a_real_check():
    """It accepts the reference traces of casual play and rejects front placement and out-of-order departures."""
    for f in bundled_fixtures("momon-wonder"):
        _, scenario = prepare_scenario(f.scenario, f.id)
        if scenario["options"]["sanctioned_play"]:
            continue
        trace = reference_engine_for("momon-wonder").run(copy.deepcopy(scenario), ScenarioChooser(scenario))
        assert drafts.STRICT_FIFO.check(TraceView(scenario, trace, scenario["options"])) == [], f.id
    _, scenario = prepare_scenario(fixture("momon-wonder", "mw-remedy-front-sanctioned"), "test")
    trace = reference_engine_for("momon-wonder").run(copy.deepcopy(scenario), ScenarioChooser(scenario))
    assert drafts.STRICT_FIFO.check(TraceView(scenario, trace, scenario["options"]))


def test_lint_rules_finds_the_remedy_contradiction_with_a_minimal_scenario():
    document = fixture("momon-wonder", "mw-remedy-front-sanctioned")
    strict = edited_invariants(MOMON, "1.0.0", load_invariants("conformance.editors.drafts:STRICT_FIFO"))
    findings = explore_rules(MOMON, "1.0.0", strict, documents=[document], reduce_seconds=5)
    assert len(findings.contradictions) == 1
    small = findings.contradictions[0].scenario
    assert len(small["objects"]) <= len(document["objects"])
    assert set(findings.contradictions[0].core) == {"mw.queue-fifo", "mw.remedy-front"}


# -- Item 6: an invariant contradicting 11.2.5, added with --with -----------------------------------------------------

def test_an_invariant_against_11_2_5_is_caught_with_a_minimal_rule_set():
    invariants = edited_invariants(MOMON, "1.0.0", load_invariants("conformance.editors.drafts:AHEAD_OF_PENDING"))
    findings = explore_rules(MOMON, "1.0.0", invariants, scenarios=20, max_runs=150, stop_after=1, reduce_seconds=4)
    assert findings.contradictions, "the draft contradicts 11.2.5 and must be caught"
    found = findings.contradictions[0]
    # the draft, and a key saying where a new group goes against earlier waiting work: 11.2.5's append or 11.2.3's
    # chronological position (a minimal core is one of several; both keys reject the draft's order)
    assert "mw.draft-ahead-of-pending" in found.core
    assert {"mw.append-after-pending", "mw.group-position"} & set(found.core)
    assert_minimal(found.core, invariants, found.scenario)
    # without the draft the same scenario is consistent
    assert contradiction_of(found.scenario, edited_invariants(MOMON, "1.0.0")) is None


def test_minimal_core_is_a_minimal_hitting_set():
    class L:
        def __init__(self, keys):
            self.violations = {k: ["x"] for k in keys}
    leaves = [L({"a", "b"}), L({"b", "c"}), L({"a", "c", "d"})]
    core = minimal_core(leaves, ["a", "b", "c", "d"])
    assert all(set(leaf.violations) & set(core) for leaf in leaves)
    assert all(any(not (set(leaf.violations) & (set(core) - {k})) for leaf in leaves) for k in core)
    assert minimal_core([L(set()), L({"a"})], ["a"]) is None


# -- Item 3: ambiguities, and the needs behind today's options -----------------------------------------------------

def two_players(first: str) -> dict:
    objects = [{"id": "F1", "owner": "P1", "zone": "field",
                "abilities": [{"id": "A1", "trigger": {"event": "signal", "name": "s"}, "effect": []}]},
               {"id": "F2", "owner": "P2", "zone": "field",
                "abilities": [{"id": "A2", "trigger": {"event": "signal", "name": "s"}, "effect": []}]}]
    if first == "F2":
        objects.reverse()
    return {"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder", "edition": "1.0.0",
            "players": ["P1", "P2"], "active_player": "P1", "objects": objects,
            "script": [{"step": "one", "actions": [{"by": "P2", "effect": [{"do": "signal", "name": "s"}]}]}]}


def test_dropping_same_event_order_shows_why_the_option_exists():
    """Section 11.3 is not available: without mw.same-event-order the text leaves one event's group order open,
    and the competing traces are exactly the readings option same_event_order names."""
    document = two_players("F2")
    _, scenario = prepare_scenario(document, "test")
    assert ambiguities_of(enumerate_traces(scenario, edited_invariants(MOMON, "1.0.0"), player_choices="scenario")) == []
    dropped = edited_invariants(MOMON, "1.0.0", without=["mw.same-event-order"])
    found = ambiguities_of(enumerate_traces(scenario, dropped, player_choices="scenario"))
    assert [a.kind for a in found] == ["group-order"]
    readings = {reference_outcome({**document, "options": {"same_event_order": v}})
                for v in ("active-player-first", "object-order")}
    assert len(readings) == 2 and set(found[0].traces) == readings
    assert "AMBIGUITY" in found[0].render()


def test_dropping_remedy_front_shows_why_sanctioned_play_exists():
    document = fixture("momon-wonder", "mw-remedy-front-sanctioned")
    document["objects"][0]["abilities"].append(
        {"id": "A9", "trigger": {"event": "signal", "name": "a"}, "effect": []})  # something already waiting
    _, scenario = prepare_scenario(document, "test")
    dropped = edited_invariants(MOMON, "1.0.0", without=["mw.remedy-front"])
    found = ambiguities_of(enumerate_traces(scenario, dropped, player_choices="scenario"))
    assert "remedy-placement" in [a.kind for a in found]
    readings = {reference_outcome({**document, "options": {"sanctioned_play": v}}) for v in (True, False)}
    ambiguity = next(a for a in found if a.kind == "remedy-placement")
    assert set(ambiguity.traces) == readings


@pytest.mark.slow  # a long check; its kind keeps a fast check in the quick suite (issue 26)
def test_dropping_new_trigger_placement_shows_why_trigger_during_resolution_exists():
    redemption = get_ruleset("redemption")
    dropped = edited_invariants(redemption, "reg-glossary", without=["red.new-trigger-placement"])
    findings = explore_rules(redemption, "reg-glossary", dropped, scenarios=25, max_runs=100, reduce_seconds=4)
    ambiguity = next(a for a in findings.ambiguities if a.kind == "fresh-placement")
    readings = {reference_outcome({**ambiguity.scenario, "options": {**ambiguity.scenario["options"],
                                                                     "trigger_during_resolution": v}})
                for v in ("after-pending", "before-pending")}
    assert set(ambiguity.traces) == readings


# -- Item 4: diffs -------------------------------------------------------------------------------------------------

MTG_603_3B = {
    "format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
    "players": ["P1", "P2"], "active_player": "P1",
    "objects": [
        {"id": "C1", "owner": "P1", "zone": "field"},
        {"id": "C2", "owner": "P1", "zone": "field", "abilities": [
            {"id": "A2", "trigger": {"event": "leave", "subject": "C1", "to": "graveyard"}, "effect": []}]},
        {"id": "C4", "owner": "P1", "zone": "field", "abilities": [
            {"id": "A5", "trigger": {"event": "ability_triggered", "subject": "C2"}, "effect": []}]}],
    "script": [{"step": "one", "actions": [{"by": "P1", "effect": [
        {"do": "move", "object": "C1", "from": "field", "to": "graveyard"}]}]}],
    "choices": {"trigger_order": ["A2", "A5"]},
}


def test_the_603_3b_editions_differ_on_a_minimal_scenario():
    mtg = get_ruleset("mtg")
    sides = [Side(f"edition {e}", e, {}, mtg.invariants_for(e)) for e in ("2026-02-27", "2021-02-24")]
    found = diff(mtg, *sides, documents=[MTG_603_3B], reduce_seconds=4)
    assert len(found) == 1
    left, right = found[0].left[1], found[0].right[1]
    assert len(left) == len(right) == 1 and left != right  # each edition requires one order, not the same one
    (new,), (old,) = left, right
    # 2026: the ability that triggered on another ability's triggering goes on the stack in the second pass,
    # so it resolves first; 2021: one pass in the order the player chose.
    # (the scenario reduction may merge C2 into C1, so the lines are found by ability, not by source)
    def resolved(trace, ability):
        return next(n for n, line in enumerate(trace) if line.startswith("resolve_begin") and f"/{ability} [" in line)
    assert resolved(new, "A5") < resolved(new, "A2")
    assert resolved(old, "A2") < resolved(old, "A5")
    assert "edition 2026-02-27" in found[0].render() and "|" in found[0].render()


def test_an_option_diff():
    sides = [Side(f"same_event_order={v}", "1.0.0", {"same_event_order": v}, MOMON.invariants_for("1.0.0"))
             for v in ("active-player-first", "object-order")]
    found = diff(MOMON, *sides, documents=[two_players("F2")], reduce_seconds=2)
    assert len(found) == 1 and found[0].left[1] != found[0].right[1]
    assert diff(MOMON, *sides, documents=[two_players("F1")], reduce_seconds=2) == []  # both readings agree


def test_diff_cli(capsys):
    assert main(["diff", "--ruleset", "mtg", "--edition", "2026-02-27"]) == 2
    assert main(["diff", "--ruleset", "mtg", "--edition", "2026-02-27", "--edition", "2026-02-27"]) == 2
    # the sweep stops at the first difference: a generous count keeps this independent of the stream's layout
    assert main(["diff", "--ruleset", "mtg", "--edition", "2026-02-27", "--edition", "2021-02-24",
                 "--scenarios", "300", "--max-runs", "60"]) == 1
    out = capsys.readouterr().out
    assert "DIFFERENCE" in out and "edition 2026-02-27 only" in out and "edition 2021-02-24 only" in out


# -- Items 2 and 5 from the command line --------------------------------------------------------------------------

def test_lint_rules_cli_with_and_without(tmp_path, capsys):
    import json

    assert main(["lint-rules", "--ruleset", "momon-wonder", "--without", "mw.nope"]) == 2
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--with", "conformance.editors.drafts:nothing"]) == 2
    situation = tmp_path / "situation.json"
    situation.write_text(json.dumps(two_players("F2")))
    assert main(["lint-rules", "--ruleset", "momon-wonder", "--scenario", str(situation)]) == 0
    assert "no contradiction, no" in capsys.readouterr().out  # an open reading an option names is no failure
    code = main(["lint-rules", "--ruleset", "momon-wonder", "--without", "mw.same-event-order",
                 "--scenario", str(situation)])
    out = capsys.readouterr().out
    assert code == 1 and "AMBIGUITY" in out and "group-order" in out
    remedy = tmp_path / "remedy.json"
    remedy.write_text(json.dumps(fixture("momon-wonder", "mw-remedy-front-sanctioned")))
    code = main(["lint-rules", "--ruleset", "momon-wonder", "--with", "conformance.editors.drafts:STRICT_FIFO",
                 "--scenario", str(remedy)])
    out = capsys.readouterr().out
    assert code == 1 and "CONTRADICTION" in out and "mw.remedy-front" in out


def test_rules_matrix_with_a_report(tmp_path, capsys):
    report = tmp_path / "report.json"
    assert main(["run", "--ruleset", "redemption", "--max-examples", "10", "--report-json", str(report)]) == 0
    assert main(["rules", "--ruleset", "redemption", "--matrix", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert out.count("| `red.") == len(get_ruleset("redemption").invariants)
    assert "(passed)" in out or "(unexercised)" in out
    rows = matrix(get_ruleset("redemption"))
    assert all(row["exercised"] is None for row in rows)
    assert any(row["fixtures"] for row in rows)


def test_the_rule_text_lint_flags_a_changed_sentence_and_a_missing_key():
    from conftest import SHARED_RULES

    if not SHARED_RULES.is_dir():
        pytest.skip("the rule texts are not beside this checkout")
    text = (SHARED_RULES / "momon-wonder-11.2.txt").read_text("utf-8")
    assert lint_text(MOMON, text) == []
    assert set(paragraphs("momon-wonder", text)) == set(MOMON.sentences)
    for name, file in (("mtg", "mtg-cr-603.txt"), ("redemption", "redemption-triggered-ability.txt")):
        ruleset = get_ruleset(name)
        real = (SHARED_RULES / file).read_text("utf-8")
        table: dict = {}
        exec(sentence_table(ruleset, real), table)  # the table printed for the text is the one recorded
        assert table["SENTENCES"] == dict(ruleset.sentences)
        assert lint_text(ruleset, real) == lint_text(ruleset, None)  # the text adds no problem of its own
    para = paragraphs("momon-wonder", text)["11.2.4"]
    edited = text.replace(para, para.replace("first", "last", 1))
    stale = lint_text(MOMON, edited)
    assert [p.split(":")[0] for p in stale if "STALE" in p] == ["mw.queue-fifo"]  # that sentence's key only
    assert [p for p in stale if "STALE" not in p] == \
        [p for p in stale if p.startswith("11.2.4: NEW wording of sentence 1")]
    extra = text + "\n11.2.7 A new rule an editor added.\n"
    assert any(p.startswith("11.2.7") for p in lint_text(MOMON, extra))
    from dataclasses import replace

    fewer = replace(MOMON, invariants=tuple(i for i in MOMON.invariants if i.rule_numbers.get("1.0.0") != "11.2.6"))
    assert any(p.startswith("11.2.6") for p in lint_text(fewer, text))


# -- Minimal scenarios, and every ruleset -----------------------------------------------------------------------

def assert_one_minimal(document: dict, fails) -> None:
    """No single removal (a step, an action, an ability, an object, a player, a choice) keeps the finding."""
    from conformance.shrinking.reduction import candidates, well_formed

    tried = 0
    for candidate in candidates(document):
        if well_formed(candidate):
            tried += 1
            assert not fails(candidate), candidate
    assert tried > 0


def test_the_contradictions_scenarios_are_minimal():
    from conformance.editors.analysis import _no_legal_trace

    strict = edited_invariants(MOMON, "1.0.0", [drafts.STRICT_FIFO])
    findings = explore_rules(MOMON, "1.0.0", strict, documents=[fixture("momon-wonder", "mw-remedy-front-sanctioned")],
                             reduce_seconds=10)
    assert_one_minimal(findings.contradictions[0].scenario, _no_legal_trace(strict, 300))
    ahead = edited_invariants(MOMON, "1.0.0", [drafts.AHEAD_OF_PENDING])
    findings = explore_rules(MOMON, "1.0.0", ahead, scenarios=20, max_runs=150, stop_after=1, reduce_seconds=10)
    assert_one_minimal(findings.contradictions[0].scenario, _no_legal_trace(ahead, 150))


@pytest.mark.parametrize("name,option", [("momon-wonder", "sbc_events"), ("mtg", "departed_delayed"),
                                         ("redemption", "mandatory_after_phase")])
def test_an_option_diff_on_every_ruleset(name, option):
    from test_editors_options import SCENARIOS

    ruleset = get_ruleset(name)
    document = SCENARIOS[(name, option)]()
    edition = document["edition"]
    values = list(next(o for o in ruleset.options if o.name == option).values)
    sides = [Side(f"{option}={v}", edition, {option: v}, ruleset.invariants_for(edition)) for v in values]
    found = diff(ruleset, *sides, documents=[document], reduce_seconds=4)
    assert len(found) == 1
    readings = [reference_outcome({**found[0].scenario, "options": {**found[0].scenario.get("options", {}),
                                                                    option: v}}) for v in values]
    # each side allows its reading (and, when the reduction leaves an order to a player, that choice's other
    # orders), and the two sides differ
    assert readings[0] in found[0].left[1] and readings[1] in found[0].right[1]
    assert found[0].left[1] != found[0].right[1]
    assert f"{option}={values[0]}" in found[0].render()


def test_the_docs_show_the_editors_findings():
    from conftest import ROOT
    from test_editors_options import KNOWN_GAPS

    section = (ROOT / "docs" / "editors.md").read_text("utf-8")
    for name in ("momon-wonder", "mtg", "redemption"):
        for option in get_ruleset(name).options:
            assert f"`{option.name}`" in section, option.name  # every option, matched to what finds it
    for option in KNOWN_GAPS:
        assert f"`{option}=" in section  # every known gap, filed
    for shown in ("603.3b", "STRICT_FIFO", "AHEAD_OF_PENDING", "mw.queue-fifo", "mw.remedy-front",
                  "mw.append-after-pending", "--rules-text", "STALE", "bench_enumeration.py"):
        assert shown in section, shown
