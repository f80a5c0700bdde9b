"""Issue 34 (wrong acceptances): every field of every trace entry kind that names something (a player, an object, an
ability, a script step or action, or an id of the trace itself) is cross-checked, per ruleset, from the ruleset's
composed trace schema (its ``x-refers-to`` annotations, see reference_engine.kernel.references), never from a list
kept by hand. For each such field a trace naming a missing one is refused by ``validate`` in a fixture and in a
replay file, and by ``check``; so is a ``choice`` entry naming a missing one among its candidates; the reference
engines' own traces are never refused.
"""

from __future__ import annotations

import copy
import json

import pytest

from conformance.commands import cli
from conformance.documents.fixture_files import bundled_fixtures
from conformance.commands.trace_reference import pool
from reference_engine.kernel.choices import unit_choice_kinds
from reference_engine.kernel.references import entry_references
from reference_engine.kernel.registry import composed_schema, get_ruleset, units
from reference_engine.kernel.schemas import bundled
from reference_engine.kernel.traceview import TraceView

RULESETS = sorted(units())
MISSING = {"step": 999, "action": [999, 0]}  # what stands for a missing one; an id otherwise
MISSING_ID = "NOPE404"


def _cases():
    """Every reference field of every ruleset; one in three (the first of each ruleset among them) stays in the quick
    suite, the others run in the slow set (issue 26)."""
    for ruleset in RULESETS:
        fields = [(kind, ref) for kind, refs in sorted(entry_references(ruleset).refers.items()) for ref in refs]
        for n, (kind, ref) in enumerate(fields):
            yield pytest.param(ruleset, kind, ref, id=f"{ruleset}-{kind}.{ref.field}",
                               marks=() if n % 3 == 0 else pytest.mark.slow)


def _base(ruleset: str, kind: str, ref) -> tuple[dict, dict, int]:
    """A (scenario, reference trace, entry index) of the pool whose entry of ``kind`` has the field (else any entry
    of ``kind``), in the smallest trace that has one."""
    found = []
    for _, scenario, trace in pool(ruleset):
        for i, entry in enumerate(trace["entries"]):
            if entry["kind"] == kind:
                found.append((ref.value(entry) is None, len(trace["entries"]), scenario, trace, i))
                break
    if not found and ruleset not in bundled():  # a fourth ruleset need not write every kernel entry kind
        pytest.skip(f"{ruleset}'s reference engine never writes a {kind} entry on the pool")
    assert found, f"the reference engine never writes a {kind} entry on the pool"
    _, _, scenario, trace, i = min(found, key=lambda f: f[:2])
    return scenario, trace, i


def _naming_a_missing_one(trace: dict, i: int, ref) -> tuple[dict, object]:
    trace = copy.deepcopy(trace)
    missing = MISSING.get(ref.what, MISSING_ID)
    entry = trace["entries"][i]
    if len(ref.path) == 2:
        entry[ref.path[0]] = {ref.path[1]: missing}  # a cause holds exactly one key
    else:
        entry[ref.path[0]] = missing
    return trace, missing


def _documents(ruleset: str, scenario: dict, trace: dict) -> dict[str, dict]:
    template = next(iter(bundled_fixtures(ruleset))).document
    judge = get_ruleset(ruleset)
    invariant = judge.invariants_for(scenario["edition"])[0]
    fixture = dict(template, scenario=scenario, expected_trace=trace, rule_keys=[invariant.key])
    replay = {"format": "trigger-conformance/replay/1", "tool_version": "0",
              "engine": {"name": "reference", "version": "0", "spec": "reference"}, "ruleset": ruleset,
              "edition": scenario["edition"], "rule_key": invariant.key,
              "rule_number": invariant.rule_number(scenario["edition"]), "seed": 0, "choice_log": [1],
              "messages": ["m"], "scenario": scenario, "actual_trace": trace, "expected_trace": trace}
    return {"fixture": fixture, "replay": replay}


def test_every_ruleset_declares_references_for_its_entry_kinds():
    """The schema-driven list is not empty, and covers the kinds the issue found accepted unchecked."""
    fields = {(r, k, ref.field) for r in RULESETS for k, refs in entry_references(r).refers.items() for ref in refs}
    for expected in [("redemption", "activation_begin", "ability"), ("redemption", "activation_begin", "source"),
                     ("redemption", "event", "ability"), ("redemption", "activation_end", "id"),
                     ("mtg", "delayed_create", "ability"), ("mtg", "delayed_create", "created_by"),
                     ("mtg", "delayed_end", "delayed"), ("mtg", "trigger", "delayed"), ("mtg", "event", "cause.spell"),
                     ("momon-wonder", "enqueue", "queue"), ("momon-wonder", "package_open", "package")]:
        assert expected in fields


def test_every_identifier_field_of_the_schema_is_either_a_reference_or_a_definition():
    """A new entry kind cannot slip in unchecked: every property of an entry that holds an id (``$ref`` id) is
    annotated ``x-refers-to`` or ``x-defines``, or is a grouping id (an event's ``group``)."""
    for ruleset in RULESETS:
        schema = composed_schema("trace", (ruleset,))
        for branch in schema["$defs"]["entry"]["oneOf"]:
            name = branch["$ref"].rsplit("/", 1)[-1]
            for field, spec in schema["$defs"][name]["properties"].items():
                if spec.get("$ref") == "#/$defs/id" and (name, field) != ("event", "group"):
                    assert "x-refers-to" in spec or "x-defines" in spec, f"{ruleset}: {name}.{field}"


@pytest.mark.parametrize("ruleset, kind, ref", list(_cases()))
def test_a_trace_naming_a_missing_one_is_refused_in_a_fixture_and_a_replay(tmp_path, capsys, ruleset, kind, ref):
    scenario, trace, i = _base(ruleset, kind, ref)
    documents = _documents(ruleset, scenario, trace)
    for as_kind, document in documents.items():  # the unchanged documents are valid: the refusal is the change's
        path = tmp_path / f"valid-{as_kind}.json"
        path.write_text(json.dumps(document), "utf-8")
        assert cli.main(["validate", str(path), "--as", as_kind]) == 0, capsys.readouterr().err
    bad, missing = _naming_a_missing_one(trace, i, ref)
    assert TraceView(scenario, bad, scenario.get("options", {})).structure_problems()
    for as_kind, document in _documents(ruleset, scenario, bad).items():
        path = tmp_path / f"{as_kind}.json"
        path.write_text(json.dumps(document), "utf-8")
        capsys.readouterr()
        code = cli.main(["validate", str(path), "--as", as_kind])
        err = capsys.readouterr().err
        assert code == 2 and f"entries[{i}]" in err and str(missing) in err, err
        if as_kind == "fixture":  # and check refuses it too, never a PASS
            assert cli.main(["check", str(path)]) == 2
            assert "PASS" not in capsys.readouterr().out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_reference_engines_traces_are_never_refused(ruleset):
    for name, scenario, trace in pool(ruleset):
        assert TraceView(scenario, trace, scenario.get("options", {})).structure_problems() == [], name


def _choices():
    for ruleset in RULESETS:
        for decision in ["order", "optional", *unit_choice_kinds(ruleset)]:
            for field in ("among", "chosen"):
                if not (decision == "optional" and field == "chosen"):  # a yes or no names nothing
                    yield pytest.param(ruleset, decision, field, id=f"{ruleset}-{decision}-{field}")


@pytest.mark.parametrize("ruleset, decision, field", list(_choices()))
def test_a_choice_naming_a_missing_one_is_refused_in_a_fixture_a_replay_and_by_check(tmp_path, capsys, ruleset,
                                                                                     decision, field):
    """A ``choice`` entry's ``among`` names trigger instances (order, optional) or what its unit's ChoiceKind says
    (MTG's targets: objects or players; occurrences: events), and its ``chosen`` is among them."""
    found = next(((scenario, trace, i) for _, scenario, trace in pool(ruleset)
                  for i, entry in enumerate(trace["entries"])
                  if entry["kind"] == "choice" and entry["decision"] == decision), None)
    if found is None:
        pytest.skip(f"{ruleset}'s reference engine asks no {decision} choice on the pool")
    scenario, trace, i = found
    bad = copy.deepcopy(trace)
    bad["entries"][i][field] = [MISSING_ID] + bad["entries"][i][field][1:]
    for as_kind, document in _documents(ruleset, scenario, bad).items():
        path = tmp_path / f"{as_kind}.json"
        path.write_text(json.dumps(document), "utf-8")
        capsys.readouterr()
        code = cli.main(["validate", str(path), "--as", as_kind])
        err = capsys.readouterr().err
        assert code == 2 and f"entries[{i}]" in err and MISSING_ID in err, err
        if as_kind == "fixture":
            assert cli.main(["check", str(path)]) == 2
            assert "PASS" not in capsys.readouterr().out
    if decision == "order" and field == "chosen":  # among is optional: without it, chosen still names triggers
        del bad["entries"][i]["among"]
        assert any(MISSING_ID in p for p in TraceView(scenario, bad, scenario.get("options", {})).structure_problems())


def _answer_keys():
    for ruleset in RULESETS:
        keys = ["optional"] + [k.key for k in unit_choice_kinds(ruleset).values() if k.by == "ability"]
        for key in dict.fromkeys(keys):
            yield pytest.param(ruleset, key, id=f"{ruleset}-{key}")


@pytest.mark.parametrize("ruleset, key", list(_answer_keys()))
def test_a_scenario_answering_for_a_missing_ability_is_refused(tmp_path, capsys, ruleset, key):
    """The scenario's answers keyed by ability id (``choices.optional``, MTG's ``targets`` and ``occurrence``) name
    abilities it has, as ``trigger_order`` does: a misspelt id would otherwise be an answer silently never used."""
    fixture = copy.deepcopy(next(iter(bundled_fixtures(ruleset))).document)
    fixture["scenario"].setdefault("choices", {})[key] = {MISSING_ID: True if key == "optional" else []}
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(fixture), "utf-8")
    for command in (["validate", str(path), "--as", "fixture"], ["check", str(path)]):
        capsys.readouterr()
        assert cli.main(command) == 2
        assert f"$.choices.{key}.{MISSING_ID}: no ability" in capsys.readouterr().err
