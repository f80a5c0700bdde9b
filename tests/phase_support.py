"""Shared by the phase.rs adapter's tests (tests/test_phase_*.py): scenario documents and what their tests read of a
checked scenario."""

from __future__ import annotations

from conformance.running.checking import check_scenario
from reference_engine.kernel.registry import get_ruleset

OPTIONS = {"pass_two_membership": "triggering-only", "departed_delayed": "cease"}


def scenario(objects, script, players=("P1", "P2"), active="P1", order=None, optional=None):
    doc = {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
           "players": list(players), "active_player": active, "objects": objects,
           "script": [{"step": "main", "actions": [{"by": active, "effect": [a]} for a in script]}],
           "choices": {"trigger_order": order or []}, "options": dict(OPTIONS)}
    if optional:
        doc["choices"]["optional"] = optional
    return doc


def gain(owner, n=1):
    return {"do": "life", "player": owner, "amount": n}


def etb(aid, owner, subject="self", n=1, **more):
    return {"id": aid, "trigger": {"event": "enter", "subject": subject}, "effect": [gain(owner, n)], **more}


def entries(trace, kind):
    return [e for e in trace["entries"] if e["kind"] == kind]



def judged(engine, doc):
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert not check.violations, check.violations
    return check


def trace_events(check, **fields):
    return [e for e in entries(check.outcome.trace, "event") if all(e.get(k) == v for k, v in fields.items())]


def enters(aid, owner, effect, **more):
    return {"id": aid, "trigger": {"event": "enter", "subject": "self"}, "effect": effect, **more}


MOVE_IN = [{"do": "move", "object": "C1", "from": "hand", "to": "field"}]

def aimer(aid, owner, effect, trigger=None, **more):
    return {"id": aid, "trigger": trigger or {"event": "enter", "subject": "self"}, "effect": effect, **more}
