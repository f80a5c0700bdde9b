"""What the shared scenario vocabulary means: event patterns, intervening conditions and zone tracking.

Used by the reference engines and by the invariants alike, so that "this event satisfies that trigger condition"
has one definition (schemas/scenario.schema.json describes the same vocabulary for engine authors).
"""

from __future__ import annotations

from heapq import merge
from typing import Any, Callable, Iterable, Iterator

IN_PLAY = "field"

# Events in which their subject leaves the zone it was in: whether the subject's own abilities trigger is judged
# by looking back in time, at the game state just before the event.
LEAVING_EVENTS = frozenset({"leave", "defeated", "move"})


def movement_event(from_zone: str, to_zone: str) -> str:
    """The event type of a zone change: ``enter`` into play, ``leave`` out of play, ``move`` elsewhere."""
    if to_zone == IN_PLAY:
        return "enter"
    if from_zone == IN_PLAY:
        return "leave"
    return "move"


def pattern_matches(pattern: dict[str, Any], event: dict[str, Any], source: str) -> bool:
    """Whether ``event`` (a trace event entry) satisfies the trigger condition ``pattern`` of an ability of ``source``.

    ``subject`` is ``self`` (the event is about the source), ``other`` (about another object), ``any`` (the default),
    or an object id; ``name`` restricts signal events to one signal name.
    """
    if pattern["event"] != event["type"]:
        return False
    if "name" in pattern and pattern["name"] != event.get("name"):
        return False
    subject = pattern.get("subject", "any")
    if subject == "any":
        return True
    if subject == "self":
        return event.get("subject") == source
    if subject == "other":
        return event.get("subject") not in (None, source)
    return event.get("subject") == subject


def condition_holds(condition: dict[str, Any] | None, zones: dict[str, str], source: str) -> bool:
    """Evaluate an intervening condition against the current zones (object id -> zone). None always holds."""
    if condition is None:
        return True
    obj = source if condition.get("object", "self") == "self" else condition["object"]
    inside = zones.get(obj) == condition["zone"]
    return inside if condition["test"] == "in_zone" else not inside


def active_zones(ability: dict[str, Any]) -> list[str]:
    return ability.get("active_in", [IN_PLAY])


class AbilityIndex:
    """Triggered abilities indexed by what their trigger pattern asks of an event, so that an event is tested only
    against the abilities it could satisfy instead of against every ability of its type.

    ``pairs`` are (source object id, ability) in the order abilities are reported in (scenario order); ``objects``
    are the scenario's object ids. A pattern is filed under its ``event`` type, its signal ``name`` when it has one,
    and the one object its ``subject`` names (``self``: its source; an object id of the scenario), else under any
    subject; ``event_types(pattern)`` names the event types a pattern is filed under (default: its ``event``; a
    ruleset whose pattern covers several event types, as MTG's ``zone_change``, says which). :meth:`candidates` is only a filter: it returns a superset of the matching abilities (every ability
    whose type, name and named subject agree with the event), in the order of ``pairs``; the caller still applies the
    full pattern (:func:`pattern_matches`, or a ruleset's own, stricter one). Costs O(candidates) per event.
    """

    def __init__(self, pairs: Iterable[tuple[str, dict[str, Any]]], objects: Iterable[str],
                 event_types: Callable[[dict[str, Any]], Iterable[str]] | None = None):
        known = set(objects)
        self._buckets: dict[tuple, list[tuple[int, str, dict[str, Any]]]] = {}
        for n, (source, ability) in enumerate(pairs):
            pattern = ability["trigger"]
            name = ("name", pattern["name"]) if "name" in pattern else None
            subject = pattern.get("subject", "any")
            if subject == "self":
                named = source
            elif subject not in ("any", "other") and subject in known:
                named = subject
            else:
                named = None  # any subject (or a form this index does not know: the pattern decides)
            for kind in (event_types(pattern) if event_types else (pattern["event"],)):
                self._buckets.setdefault((kind, name, named), []).append((n, source, ability))

    def candidates(self, event: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        """(source, ability) pairs that ``event`` (a trace event entry) might satisfy, in ``pairs`` order."""
        kind = event["type"]
        names = (None, ("name", event.get("name")))
        subjects = (None,) if event.get("subject") is None else (None, event["subject"])
        found = [bucket for name in names for subject in subjects
                 if (bucket := self._buckets.get((kind, name, subject)))]
        if not found:
            return iter(())
        if len(found) == 1:
            return ((source, ability) for _, source, ability in found[0])
        return ((source, ability) for _, source, ability in merge(*found))


class ZoneTracker:
    """Zones of every object, moved along by the zone-changing events of a trace (``from``/``to`` fields)."""

    def __init__(self, scenario: dict[str, Any]):
        self.zones: dict[str, str] = {obj["id"]: obj["zone"] for obj in scenario["objects"]}
        # scenario order, which is the order abilities are reported in
        self.abilities = AbilityIndex(((obj["id"], ability) for obj in scenario["objects"]
                                       for ability in obj.get("abilities", ())), self.zones)

    def apply(self, event: dict[str, Any]) -> dict[str, str]:
        """Move the event's subject to the event's ``to`` zone; return where the moved object was just before
        (an empty dict when nothing moved), which is all that looking back in time needs."""
        subject = event.get("subject")
        if not event.get("to") or subject not in self.zones:
            return {}
        before = {subject: self.zones[subject]}
        self.zones[subject] = event["to"]
        return before

    def satisfied_abilities(self, event: dict[str, Any], scenario: dict[str, Any], before: dict[str, str]):
        """(source, ability) pairs whose condition ``event`` satisfies, given ``before`` (what :meth:`apply` returned:
        the zone the event moved its subject from) and the zones after the event.

        An ability whose source is the subject of a leaving event is judged on the zones just before the event
        (it looks back in time); every other ability on the zones just after it. The intervening condition is
        judged just after the event.
        """
        after = self.zones
        for source, ability in self.abilities.candidates(event):
            if not pattern_matches(ability["trigger"], event, source):
                continue
            looks_back = event["type"] in LEAVING_EVENTS and event.get("subject") == source
            zone = before.get(source, after.get(source)) if looks_back else after.get(source)
            if zone not in active_zones(ability):
                continue
            if not condition_holds(ability.get("intervening_if"), after, source):
                continue
            yield source, ability
