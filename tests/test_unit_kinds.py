"""Issue 27 item 1: the kernel is game-neutral. A unit adds its own trace entry kind and its own choice kind with no
edit of the kernel, and the registry refuses a unit that redefines an existing one (the kernel's, or another unit's
"by description"), naming the unit, the file and the fix.

The unit here is the toy ruleset of tests/toy_ruleset/ (imported from its source, not installed) with an overlay: a
choice kind ``ping_target`` (which minion a ping hits, answered from ``choices.ping_targets``) and an entry kind
``fizzled`` (a trigger instance that ends without resolving: ``x-unresolved``, after its trigger: ``x-earlier``),
named ``hearth-kinds`` so that it never stands for the toy itself. It is registered for the test through a patched
entry-point listing, beside the bundled units."""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from reference_engine.kernel import unit as unit_module
from reference_engine.kernel.choices import ChoiceKind, ScenarioChooser, unit_choice_kinds
from reference_engine.kernel.registry import ENTRY_POINT_GROUP, LoadedUnit, choice_kinds, loaded
from reference_engine.kernel.traceview import TraceView
from reference_engine.kernel.unit import UnitError, units

TOY = Path(__file__).resolve().parent / "toy_ruleset" / "hearth_queue"

KINDS = '''
from reference_engine.kernel.choices import ChoiceKind, kind_table

KINDS = kind_table(ChoiceKind("ping_target", key="ping_targets", context="trigger", candidates="minions",
                              description="which minion a pinging ability hits", label="{player} pings for {id}"))
ORDER = {"order": ChoiceKind("order", key="orders", context="trigger", candidates="triggers", description="mine")}
TARGET = kind_table(ChoiceKind("target", key="ping_targets", context="trigger", candidates="minions",
                               description="which minion a ping hits"))
'''

MANIFEST = '''
import dataclasses
from hearth_queue import UNIT as TOY
from hearth_queue.engines import HearthQueueEngine
from hearth_queue.judge import HEARTH_QUEUE

# The toy under a name of its own (so that nothing cached for it outlives the test), with the overlay's words.
JUDGE = dataclasses.replace(HEARTH_QUEUE, name="hearth-kinds")


class Engine(HearthQueueEngine):
    ruleset = "hearth-kinds"


UNIT = dataclasses.replace(TOY, name="hearth-kinds", judge="overlay:JUDGE", reference_engine="overlay:Engine",
                           faulty_engines=None, schema="overlay:schema", choice_kinds="overlay.kinds:KINDS")
'''

FIZZLED = {
    "description": "Hearth Queue: a trigger instance fizzles: it leaves the queue without resolving.",
    "type": "object", "required": ["kind", "trigger"], "additionalProperties": False,
    "properties": {"kind": {"const": "fizzled"},
                   "trigger": {"$ref": "#/$defs/id", "x-refers-to": "trigger", "x-earlier": True,
                               "x-unresolved": True}},
}


def _fragments() -> tuple[dict, dict]:
    """The toy's fragments with the overlay's words: the choices key and decision, the entry kind."""
    scenario = json.loads((TOY / "schema" / "scenario.json").read_text("utf-8"))
    trace = json.loads((TOY / "schema" / "trace.json").read_text("utf-8"))
    scenario["$defs"]["choices"] = {"properties": {"ping_targets": {
        "description": "Hearth Queue: per ability id, the minions its controller prefers to ping.",
        "type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/id"}}}}}
    trace["$defs"]["entry"]["oneOf"].append({"$ref": "#/$defs/fizzled"})
    trace["$defs"]["fizzled"] = FIZZLED
    trace["$defs"]["choice"] = {"properties": {"decision": {"enum": ["ping_target"]}}}
    return scenario, trace


def _write(folder: Path, files: dict[str, object]) -> None:
    for relative, content in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")


def _clear() -> None:
    """The caches keyed by no ruleset (every installed unit's): the overlay's unit is listed while installed only.
    Those keyed by its name (``hearth-kinds``) stay, asked for by no other test."""
    for cached in (units, unit_choice_kinds):
        cached.cache_clear()


@pytest.fixture
def overlay(tmp_path, monkeypatch):
    """Write the overlay package (``overlay``: manifest, kinds, fragments); returns a function that writes changed
    fragments or kinds, and installs the unit beside the bundled ones when asked."""
    monkeypatch.syspath_prepend(str(TOY.parent))
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "overlay" or m.startswith("overlay.")]:
        monkeypatch.delitem(sys.modules, name)
    scenario, trace = _fragments()
    _write(tmp_path / "overlay", {"__init__.py": MANIFEST, "kinds.py": KINDS, "schema/scenario.json": scenario,
                                  "schema/trace.json": trace})
    real = unit_module.entry_points

    def install() -> None:
        point = EntryPoint("hearth-kinds", "overlay:UNIT", ENTRY_POINT_GROUP)
        monkeypatch.setattr(unit_module, "entry_points", lambda group: [*real(group=group), point])
        _clear()

    yield tmp_path / "overlay", install
    monkeypatch.undo()
    _clear()


def _manifest():
    from overlay import UNIT
    return UNIT


def _fixture_scenario() -> dict:
    fixture = json.loads((TOY / "fixtures" / "hq-newcomer-waits.json").read_text("utf-8"))
    return copy.deepcopy(fixture["scenario"])


def test_a_unit_adds_a_choice_kind_and_an_entry_kind_with_no_kernel_edit(overlay):
    _, install = overlay
    install()
    unit = loaded("hearth-kinds")  # validated: the kinds are words of its own fragments
    assert set(choice_kinds("hearth-kinds")) == {"ping_target"}
    assert unit.choice_kinds["ping_target"].key == "ping_targets"

    # The chooser answers the unit's own question from the scenario's choices key it names.
    scenario = {**_fixture_scenario(), "ruleset": "hearth-kinds", "choices": {"ping_targets": {"M1A1": ["M3", "M2"]}}}
    trigger = {"kind": "trigger", "id": "T1", "ability": "M1A1", "source": "M1", "controller": "P1", "event": "E1"}
    assert ScenarioChooser(scenario).choose("ping_target", "P1", trigger, ["M2", "M3"]) == 1
    assert ScenarioChooser(scenario).choose("ping_target", "P1", {**trigger, "ability": "other"}, ["M2", "M3"]) == 0

    # The editors' branching chooser makes it a player branch point of its own, answer 0 the scenario's.
    from reference_engine.common.permissive import BranchingChooser

    asked = []

    class Oracle:
        def pick(self, kind, label, count, player=None):
            asked.append((kind, label, count, player))
            return 0

    branching = BranchingChooser(Oracle(), ScenarioChooser(scenario))
    assert branching.choose("ping_target", "P1", trigger, ["M2", "M3"]) == 1
    assert asked == [("player-ping_target", "P1 pings for T1", 2, "P1")]

    # The process protocol knows the question by the kind's own field names.
    from conformance.adapters.process.wire import DECISIONS, answer_choice
    assert DECISIONS["ping_target"][:2] == ("choose", ("trigger", "minions"))
    question = {"decision": "ping_target", "player": "P1", "trigger": trigger, "minions": ["M2", "M3"]}
    assert answer_choice(ScenarioChooser(scenario), question) == 1

    # The trace view reads the unit's entry kind from its schema: an instance it ends is unresolved, and one
    # written before its trigger is a structure problem.
    trace = unit.reference_engine().run(scenario, ScenarioChooser(scenario))
    entries = trace["entries"]
    at = next(i for i, e in enumerate(entries) if e["kind"] == "trigger")
    first, last = entries[at]["id"], next(e["id"] for e in reversed(entries) if e["kind"] == "trigger")
    entries.insert(at + 1, {"kind": "fizzled", "trigger": first})
    entries.insert(0, {"kind": "fizzled", "trigger": last})
    view = TraceView(scenario, trace, {})
    assert view.unresolved == {last: 0, first: at + 2} and view.left_at(first) == at + 2
    assert f"entry 0: fizzled of trigger {last} comes before the trigger itself" in view.structure_problems()


@pytest.mark.parametrize("kinds, message", [
    ("ORDER", "its choice kind 'order' in overlay.kinds:ORDER ({file}) redefines the kernel's (Chooser.order): the "
              "kernel's questions mean one thing in every game; name a choice kind of its own"),
    ("TARGET", "its choice kind 'target' in overlay.kinds:TARGET ({file}) redefines the 'mtg' unit's, declared "
               "otherwise (as ChoiceKind(name='target', key='targets', "),
    ("TARGET", "a question means one thing in every game; name a choice kind of its own, or declare it exactly as "
               "'mtg' does"),
])
def test_a_unit_redefining_a_choice_kind_is_refused_naming_the_unit_the_file_and_the_fix(overlay, kinds, message):
    folder, _ = overlay
    trace = json.loads((folder / "schema" / "trace.json").read_text("utf-8"))
    trace["$defs"]["choice"]["properties"]["decision"]["enum"] += ["order", "target"]
    _write(folder, {"schema/trace.json": trace})
    with pytest.raises(UnitError) as caught:
        LoadedUnit(dataclasses.replace(_manifest(), choice_kinds=f"overlay.kinds:{kinds}"))
    assert str(caught.value).startswith("ruleset unit 'hearth-kinds' is inconsistent: ")
    assert message.format(file=folder / "kinds.py") in str(caught.value)


def test_a_choice_kind_must_be_a_word_of_the_units_fragments(overlay):
    folder, _ = overlay
    scenario, trace = _fragments()
    del scenario["$defs"]["choices"]
    del trace["$defs"]["choice"]
    _write(folder, {"schema/scenario.json": scenario, "schema/trace.json": trace})
    with pytest.raises(UnitError) as caught:
        LoadedUnit(_manifest())
    assert "its choice kind 'ping_target' in overlay.kinds:KINDS" in str(caught.value)
    assert "reads choices.ping_targets, which its scenario schema fragment does not define: add it under " \
        "/$defs/choices/properties" in str(caught.value)
    assert "is no `decision` of its trace schema fragment: add it to /$defs/choice/properties/decision/enum" \
        in str(caught.value)


@pytest.mark.parametrize("change, message", [
    ({"trigger": {"description": "Hearth Queue: the ability joins the queue."}},
     "redefines the kernel's entry kind /$defs/trigger by description (/$defs/trigger/description): an entry kind "
     "means one thing in every game; add an entry kind of its own (a /$defs definition and a $ref in "
     "/$defs/entry/oneOf) for what differs"),
    ({"joined": {**FIZZLED, "properties": {**FIZZLED["properties"], "kind": {"const": "trigger"}}}},
     "defines entry kind 'trigger' at /$defs/joined, which the kernel defines at /$defs/trigger: an entry kind means "
     "one thing in every game; name an entry kind of its own, or add fields to /$defs/trigger"),
    ({"removed": {**FIZZLED, "description": "Hearth Queue: its own removal.",
                  "properties": {**FIZZLED["properties"], "kind": {"const": "removed"}}}},
     "redefines the 'momon-wonder' unit's entry kind /$defs/removed by description"),
])
def test_a_unit_redefining_an_entry_kind_is_refused_naming_the_unit_the_file_and_the_fix(overlay, change, message):
    folder, _ = overlay
    _, trace = _fragments()
    trace["$defs"].update(change)
    _write(folder, {"schema/trace.json": trace})
    with pytest.raises(UnitError) as caught:
        LoadedUnit(_manifest())
    assert str(caught.value).startswith("ruleset unit 'hearth-kinds' is inconsistent: ")
    assert f"its trace schema fragment overlay:schema/trace.json ({folder / 'schema' / 'trace.json'}) {message}" \
        in str(caught.value)


def test_the_kernel_declares_no_game_s_choice_or_entry_kind():
    from reference_engine.kernel.branching import PLAYER_POINTS
    from reference_engine.kernel.choices import KERNEL_CHOICES
    from reference_engine.kernel.engine import Chooser
    from reference_engine.kernel.schemas import kernel_schema

    assert KERNEL_CHOICES == ("order", "optional") and set(PLAYER_POINTS) == {"player-order", "player-optional"}
    assert not {"target", "occurrence"} & set(vars(Chooser))
    kinds = {d["properties"]["kind"]["const"] for d in kernel_schema("trace")["$defs"].values()
             if "const" in d.get("properties", {}).get("kind", {})}
    assert kinds == {"step_begin", "step_advance", "action_begin", "action_end", "event", "trigger", "resolve_begin",
                     "resolve_end", "choice"}
    assert ChoiceKind("x", "y", "c", "d", "e").answer({}, {"ability": "A"}, ["a", "b"]) == 0
