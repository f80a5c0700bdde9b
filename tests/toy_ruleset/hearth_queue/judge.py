"""Hearth Queue's judge: three rule keys over the trace (HQ.1 to HQ.3 of rules.txt, paraphrased), its vocabulary and
its situations. Imports the kernel only."""

from __future__ import annotations

import re

from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.ruleset import COMMON_ACTION_FIELDS, COMMON_OBJECT_FIELDS, COMMON_SCENARIO_FIELDS, \
    Ruleset, Vocabulary
from reference_engine.kernel.situations import Situation, SizeGoals, common, event_of_type

# Rule number -> its sentences in rules.txt, each as (sentence_digest, keys encoding it), as read when the keys were
# written (reference_engine.kernel.ruletext).
SENTENCES = {
    "HQ.1": (("4ae91ab02d451f41", ("hq.every-trigger-resolves",)),),
    "HQ.2": (("659f602a999d535e", ("hq.play-order",)),),
    "HQ.3": (("3c2470f5d06511cf", ("hq.newcomers-wait",)),),
}


def _events_with_several(view):
    return [ids for ids in view.triggers_by_event.values() if len(ids) > 1]


@invariant(key="hq.every-trigger-resolves", ruleset="hearth-queue", rules={"toy-1": "HQ.1"},
           summary="every trigger instance resolves, once", exercised=lambda v: len(v.triggers))
def every_trigger_resolves(view):
    return [f"trigger {t} never resolves" for t in view.triggers if t not in view.resolve_end]


@invariant(key="hq.play-order", ruleset="hearth-queue", rules={"toy-1": "HQ.2"},
           summary="the triggers of one event resolve in the order their minions were played",
           exercised=lambda v: len(_events_with_several(v)))
def play_order(view):
    order = view.object_order
    found = []
    for ids in _events_with_several(view):
        played = sorted(ids, key=lambda t: (order[view.triggers[t]["source"]], view.trigger_index[t]))
        resolved = sorted((t for t in ids if t in view.resolve_begin), key=view.resolve_begin.get)
        if resolved != [t for t in played if t in view.resolve_begin]:
            found.append(f"{', '.join(resolved)} resolve in that order, not in play order {', '.join(played)}")
    return found


def _newcomers(view):
    """(newcomer, waiting) pairs: a trigger arising during a resolution, and one already waiting then."""
    for t in view.triggers:
        if not view.events[view.triggers[t]["event"]]["cause"].get("resolution"):
            continue
        arose = view.trigger_index[t]
        for u in view.triggers:
            if view.trigger_index[u] < arose and view.resolve_begin.get(u, arose + 1) > arose:
                yield t, u


@invariant(key="hq.newcomers-wait", ruleset="hearth-queue", rules={"toy-1": "HQ.3"},
           summary="a trigger arising while another resolves waits behind every trigger already queued",
           exercised=lambda v: sum(1 for _ in _newcomers(v)))
def newcomers_wait(view):
    return [f"{t} arose while {u} waited, yet resolves before it" for t, u in _newcomers(view)
            if view.resolve_begin.get(t, 0) < view.resolve_begin.get(u, 0)]


VOCABULARY = Vocabulary(
    actions=frozenset({"signal", "ping"}),
    action_fields={"signal": COMMON_ACTION_FIELDS["signal"], "ping": frozenset({"do", "object"})},
    trigger_events=frozenset({"signal", "ping"}),
    trigger_fields=frozenset({"event", "subject", "name"}),
    ability_fields=frozenset({"id", "text", "trigger", "effect"}),
    object_fields=COMMON_OBJECT_FIELDS | {"controller"},
    scenario_fields=COMMON_SCENARIO_FIELDS,
    condition_tests=frozenset(),
    choice_fields=frozenset(),
    zones=frozenset({"field", "hand"}),
)

# Two players and no optional ability: the common situations that need more players or a decline are left out.
SITUATIONS = common("players-3-4", "active-not-first-seat", "non-active-simultaneous", "optional-declined") + (
    Situation("ping-triggers", "a ping triggers an ability", lambda v: any(
        v.events[e]["type"] == "ping" for e in v.triggers_by_event if e in v.events)),
    Situation("ping", "a minion is pinged", event_of_type("ping")),
)


def paragraphs(text: str) -> dict[str, str]:
    """Rule number -> paragraph of rules.txt: lines starting ``HQ.<n>``."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^(HQ\.\d+) (.*)$", text, re.M)}


HEARTH_QUEUE = Ruleset(
    name="hearth-queue", title="Hearth Queue (a toy): whenever-triggers in play order", editions=("toy-1",),
    options=(), invariants=(every_trigger_resolves, play_order, newcomers_wait), vocabulary=VOCABULARY,
    situations=SITUATIONS, size_goals=SizeGoals(events=5, nesting=1), sentences=SENTENCES,
)
