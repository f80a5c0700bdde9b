"""Reading phase's reports: its zone names, the events that change nothing a trace records, where a run of
state-based actions begins and players' departures in an event list, whether a trace event may trigger an ability,
and the effects inside phase's parsed abilities (delayed and "When you do" sub-abilities)."""

from __future__ import annotations

from typing import Any

ZONES = {"Battlefield": "field", "Graveyard": "graveyard", "Exile": "exile", "Hand": "hand", "Library": "deck"}
PHASE_ZONE = {v: k for k, v in ZONES.items()}
ZONES[None] = "uncreated"  # a token phase creates comes from no zone (ZoneChanged from null): tokens.py
# Phase events that change nothing a trace records: the adapter reads them, or they only report bookkeeping.
BOOKKEEPING = frozenset({"PriorityPassed", "EffectResolved", "StackResolved", "CreatureDestroyed", "DebugActionUsed",
                         "PhaseChanged", "StackPushed", "TriggersOrdered", "OptionalEffectDecided",
                         # a target chosen: the trace's choice entry and stack_push say it
                         "BecomesTarget", "CrimeCommitted",
                         # a scripted entry played as a land: the action's ZoneChanged is its enter event
                         "LandPlayed",
                         # a token created: its ZoneChanged from no zone is its enter event (tokens.py)
                         "TokenCreated"})


def delayed_effect(execute: dict[str, Any] | None, n: int) -> dict[str, Any] | None:
    """The effect of the ``n``-th delayed ability a phase ability's chain creates (None if it creates fewer)."""
    while execute:
        if execute["effect"].get("type") == "CreateDelayedTrigger":
            if n == 0:
                return execute["effect"]["effect"]["effect"]
            n -= 1
        execute = execute.get("sub_ability")
    return None


def when_you_do(execute: dict[str, Any] | None) -> dict[str, Any] | None:
    """The effect of the "When you do" sub-ability in a phase ability's chain (None if it has none)."""
    while execute:
        if (execute.get("condition") or {}).get("type") == "WhenYouDo":
            return execute["effect"]
        execute = execute.get("sub_ability")
    return None



def may_trigger(trigger: dict[str, Any], event: dict[str, Any], source: str) -> bool:
    """Whether trace ``event`` may be one that ``trigger`` (in the rendered subset) triggers on, leaving out what
    would narrow it further (its intervening "if", where its source is): true whenever in doubt."""
    kind, subject = trigger.get("event"), trigger.get("subject", "any")
    if kind in ("damage", "life", "player_leaves"):
        return event["type"] == kind
    if kind == "signal":  # rendered about no object, any player's (signals.py)
        return event["type"] == "signal" and event.get("name") == trigger.get("name")
    if kind not in ("enter", "leave") or event["type"] != kind:
        return event["type"] == kind or kind not in ("enter", "leave")
    if kind == "leave" and trigger.get("to") == "graveyard" and event.get("to") != "graveyard":
        return False
    who = event.get("subject")
    return subject == "any" or subject == "self" and who == source or subject == "other" and who != source \
        or subject == who


def destroyed_by_rules(events: list[dict[str, Any]]) -> set[int]:
    return {e["data"]["object_id"] for e in events
            if e["type"] == "CreatureDestroyed" and (e.get("data") or {}).get("source_id") is None}


def is_sba_move(event: dict[str, Any], events: list[dict[str, Any]]) -> bool:
    data = event.get("data") or {}
    return event["type"] == "ZoneChanged" and data.get("object_id") in destroyed_by_rules(events) \
        and data.get("from") == "Battlefield" and data.get("to") == "Graveyard"


# StackPushed: phase reports an ability put on the stack after the resolution and its state-based actions
NEUTRAL = frozenset({"PriorityPassed", "DebugActionUsed", "PhaseChanged", "StackPushed"})


def departures(events: list[dict[str, Any]]) -> dict[int, int]:
    """Index -> seat for every event of a player leaving the game, as phase reports it (800.4a): ``PlayerLost`` (when
    the player lost, not conceded), the objects they own exiled one by one, ``PlayerEliminated``, in a row."""
    found: dict[int, int] = {}
    for k, e in enumerate(events):
        if e["type"] != "PlayerEliminated":
            continue
        seat = e["data"]["player_id"]
        found[k] = seat
        j = k - 1
        while j >= 0 and (events[j]["type"] == "ZoneChanged" and events[j]["data"].get("to") == "Exile"
                          and (events[j]["data"].get("record") or {}).get("owner") == seat
                          or events[j]["type"] == "PlayerLost" and events[j]["data"].get("player_id") == seat):
            found[j] = seat
            j -= 1
    return found


def sba_tail(events: list[dict[str, Any]]) -> int:
    """Where the final run of state-based-action events begins (``len(events)`` if the list does not end with one):
    creatures destroyed with no source, and players leaving the game (704.5a)."""
    destroyed = destroyed_by_rules(events)
    leaving = departures(events)
    cut = len(events)
    for k in range(len(events) - 1, -1, -1):
        e = events[k]
        data = e.get("data") or {}
        if e["type"] in NEUTRAL:
            continue
        if k in leaving:
            cut = k
            continue
        if e["type"] == "CreatureDestroyed" and data.get("source_id") is None or is_sba_move(e, events) \
                and data.get("object_id") in destroyed:
            cut = k
            continue
        break
    while cut < len(events) and events[cut]["type"] in NEUTRAL:
        cut += 1
    return cut


def first_sba(events: list[dict[str, Any]]) -> int:
    """Index of the first event of a state-based action in ``events`` (``len(events)`` if none)."""
    return next((k for k, e in enumerate(events) if is_sba_move(e, events)
                 or e["type"] == "CreatureDestroyed" and (e.get("data") or {}).get("source_id") is None), len(events))

