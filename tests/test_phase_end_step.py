"""Issue 32 item 3: delayed abilities waiting for the end step ("At the beginning of the next end step, ...", the
signal ``end_step`` of the real-bug scenarios) played on phase's own end step, reached by every player passing
priority (reference_engine/mtg/phase/signals.py). Checked twice: a direct probe of phase-python alone (no adapter)
shows what phase does, and the adapter's trace of a scenario shows the same. Skipped as a whole when the extra is
not installed."""

from __future__ import annotations

import copy
import json
import pathlib
import sys

import pytest

phase = pytest.importorskip("phase", reason="phase-python is not installed (pip install '.[phase]')")

from conformance.adapters.registry import load_engine  # noqa: E402
from conformance.documents.scenarios import prepare_scenario  # noqa: E402
from conformance.running.checking import play  # noqa: E402
from phase_support import entries, gain, judged, trace_events  # noqa: E402
from reference_engine.mtg.phase.render import Names, card_text  # noqa: E402

ROOT = pathlib.Path(__file__).parent.parent
REPORTS = ROOT / "tests" / "data" / "bug-reports"
sys.path.insert(0, str(ROOT / "docs" / "engines" / "phase-triage"))
from _phase import Table  # noqa: E402

NEXT_END = "When this creature enters, at the beginning of the next end step, "


@pytest.fixture(scope="module")
def engine():
    return load_engine("phase", "mtg")


def report(name):
    return prepare_scenario(json.loads((REPORTS / f"{name}.json").read_text("utf-8")), name)[1]


def to_end_step(table):
    """Every player passes priority, the stack empty, until phase's turn is in its end step; returns the events."""
    events = []
    while table.game.state()["state"]["phase"] != "End":
        wait = table.game.waiting_for()
        assert wait["type"] == "Priority" and not table.game.stack(), wait
        events += table.apply(wait["data"]["player"], {"type": "PassPriority"})
    return events


def created(text, elf_dies=False):
    """A direct game: seat 0's Creator (``text``) enters beside an Elf and resolves; the Elf dies if ``elf_dies``;
    the players pass to the end step. Returns the table."""
    table = Table({"Creator": (text, "Goblin"), "Elfie": ("", "Elf"), "By": ("", "Zombie")},
                  [["Creator", "Elfie"], ["By"]])
    table.move("Elfie")
    table.move("Creator", simulate=True)
    table.play()
    assert len(table.game.state()["state"]["delayed_triggers"]) == 1
    if elf_dies:
        table.move("Elfie", "Graveyard", simulate=True)
    to_end_step(table)
    return table


# --- direct probes: phase-python alone ---------------------------------------------------------------------------

def test_probe_the_next_end_step_is_a_delayed_trigger_phase_fires_once_there():
    table = created(NEXT_END + "you gain 3 life.")
    (item,) = table.game.stack()
    assert item["kind"]["data"]["trigger_event"] == {"type": "PhaseChanged", "data": {"phase": "End"}}
    assert item["kind"]["data"]["ability"].get("trigger_definition_ref") is None  # no printed trigger: delayed
    assert table.game.state()["state"]["delayed_triggers"] == []  # 603.7b: once
    life = table.game.state()["state"]["players"][0]["life"]
    table.play()
    assert table.game.state()["state"]["players"][0]["life"] == life + 3


@pytest.mark.parametrize("elf_dies, triggers", [(False, True), (True, False)])
def test_probe_an_intervening_if_of_the_next_end_step(elf_dies, triggers):
    """603.4: "if an Elf is on the battlefield" checked as the end step begins: with the Elf dead, nothing goes on
    the stack."""
    table = created(NEXT_END + "if an Elf is on the battlefield, you gain 3 life.", elf_dies)
    assert bool(table.game.stack()) is triggers


# --- through the adapter ------------------------------------------------------------------------------------------

def test_an_exiled_card_returns_at_the_next_end_step_once(engine):
    doc = report("br-phase-478-flickerwisp-end-step-return")
    assert card_text(doc["objects"][0], Names.of(doc)) == (
        "When this creature enters, exile target Elf. At the beginning of the next end step, return all Elf cards "
        "from exile to the battlefield under their owners' control.")
    check = judged(engine, doc)
    (signal,) = trace_events(check, type="signal")
    assert signal["name"] == "end_step"
    trace = check.outcome.trace["entries"]
    at = next(n for n, e in enumerate(trace) if e["kind"] == "trigger" and e["ability"] == "X1")
    assert trace[at]["event"] == signal["id"]
    assert trace[at + 1] == {"kind": "delayed_end", "delayed": trace[at]["delayed"], "reason": "triggered"}
    assert trace_events(check, type="enter", subject="C2")


@pytest.mark.parametrize("dies", [True, False])
def test_a_delayed_intervening_if_at_the_end_step(engine, dies):
    doc = report("br-xmage-12365-delayed-intervening-if")
    if not dies:  # the control case: C2 stays, the delayed ability triggers and its controller gains 3 life
        doc = copy.deepcopy(doc)
        doc["script"][0]["actions"] = doc["script"][0]["actions"][:1]
    check = judged(engine, doc)
    delayed = [t for t in entries(check.outcome.trace, "trigger") if t["ability"] == "X1"]
    assert len(delayed) == (0 if dies else 1)
    assert bool(trace_events(check, type="life", player="P1")) is not dies


def test_an_end_step_that_is_not_the_scripts_last_action_is_skipped(engine):
    doc = copy.deepcopy(report("br-phase-478-flickerwisp-end-step-return"))
    doc["script"][-1]["actions"].append({"by": "P1", "effect": [gain("P1")]})
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and "script's last action" in outcome.message, outcome.message


def test_probe_a_card_returned_under_your_control_at_the_next_end_step_enters_as_yours():
    """phase's ChangeZoneAll with ``enters_under: You``: an opponent's dead Elf comes back under seat 0's control."""
    text = ("Whenever a creature an opponent controls dies, at the beginning of the next end step, return all Elf "
            "cards from all graveyards to the battlefield under your control.")
    table = Table({"Betrayer": (text, "Goblin"), "Elfie": ("", "Elf"), "By": ("", "Zombie")},
                  [["Betrayer", "By"], ["Elfie"]])
    table.move("Betrayer")
    table.move("Elfie")
    table.move("Elfie", "Graveyard", simulate=True)
    table.play()
    to_end_step(table)
    assert table.stack() == ["Betrayer"]
    events = table.play()
    assert [e["data"]["to"] for e in events if e["type"] == "ZoneChanged"] == ["Battlefield"]
    assert table.game.object(table.ids["Elfie"])["controller"] == 0


def test_a_card_returned_under_your_control_is_an_entry_and_a_control_event(engine):
    doc = report("br-phase-2886-grave-betrayal")
    assert card_text(doc["objects"][0], Names.of(doc)).endswith(
        "at the beginning of the next end step, return all Elf cards from all graveyards to the battlefield under "
        "your control.")
    check = judged(engine, doc)
    (enter,) = trace_events(check, type="enter", subject="C2")
    (control,) = trace_events(check, type="control", subject="C2")
    assert control["controller"] == "P1" and control["cause"] == enter["cause"]
    assert int(control["id"][1:]) == int(enter["id"][1:]) + 1
