"""The judge's reading of the shared scenario vocabulary: trigger conditions, intervening conditions and zones.

Written from the scenario format's own definitions (schemas/scenario.schema.json) and the modelling decisions the
rulesets' pages state (reference_engine/<ruleset>/docs.md, docs/options.md), in the judge's own code: the reference
engines have their own reading (reference_engine/common/vocabulary.py) that this module never imports, so a
misreading in one is caught by the other instead of being shared. Used by the judges of rulesets whose zone model
is this simple one (a judge may keep a model of its own).

The decisions it encodes:

* A trigger condition names an event type, and optionally a signal ``name`` and a ``subject``: ``self`` (the
  ability's own object), ``other`` (an object that is not it; an event without a subject is about no object, so it
  matches neither ``self`` nor ``other``), ``any`` (the default) or an object id.
* An ability triggers only while its object is in one of the ability's ``active_in`` zones (default: in play),
  judged on the zones just after the event, except that an object leaving its zone in the event (``leave``,
  ``move``, and the leaving events a ruleset adds: ``ZoneTracker``'s ``leaving``) is judged just before it: it looks
  back in time to see itself leave.
* An intervening condition tests one object's zone (``in_zone``, ``not_in_zone``), judged just after the event; any
  other test is not part of these rulesets' vocabulary and is refused (ValueError), never guessed.
"""

from __future__ import annotations

from typing import Any, Iterator

IN_PLAY = "field"

# An event of one of these types takes its subject out of the zone it was in (a ruleset may add its own).
LEAVING_EVENTS = frozenset({"leave", "move"})

_ZONE_TESTS = {"in_zone": True, "not_in_zone": False}
_NO_NAME = object()  # a trigger condition naming no signal: any name fits


def movement_event(from_zone: str, to_zone: str) -> str:
    """The event type a zone change is recorded as: into play ``enter``, out of play ``leave``, else ``move``."""
    return "enter" if to_zone == IN_PLAY else "leave" if from_zone == IN_PLAY else "move"


def _subject_fits(wanted: str, event_subject: str | None, source: str) -> bool:
    if wanted == "any":
        return True
    if event_subject is None:
        return False
    if wanted == "self":
        return event_subject == source
    if wanted == "other":
        return event_subject != source
    return event_subject == wanted


def pattern_matches(pattern: dict[str, Any], event: dict[str, Any], source: str) -> bool:
    """Whether trace ``event`` satisfies trigger condition ``pattern`` of an ability of object ``source``."""
    return (event["type"] == pattern["event"]
            and ("name" not in pattern or event.get("name") == pattern["name"])
            and _subject_fits(pattern.get("subject", "any"), event.get("subject"), source))


def condition_holds(condition: dict[str, Any] | None, zones: dict[str, str], source: str) -> bool:
    """Whether intervening ``condition`` holds on ``zones`` (object id -> zone) for an ability of ``source``; an
    absent condition holds. Raises ValueError for a test these rulesets do not define."""
    if condition is None:
        return True
    test = condition["test"]
    if test not in _ZONE_TESTS:
        raise ValueError(f"intervening condition test {test!r} is not part of this vocabulary "
                         f"(known: {', '.join(_ZONE_TESTS)})")
    target = condition.get("object", "self")
    target = source if target == "self" else target
    return (zones.get(target) == condition["zone"]) == _ZONE_TESTS[test]


def active_zones(ability: dict[str, Any]) -> list[str]:
    """The zones an ability's object must be in for it to trigger (default: in play)."""
    return list(ability.get("active_in") or [IN_PLAY])


class ZoneTracker:
    """Every object's zone, kept up to date by replaying a trace's zone-changing events (their ``to`` field);
    ``leaving``: the event types that take their subject out of its zone (default :data:`LEAVING_EVENTS`)."""

    def __init__(self, scenario: dict[str, Any], leaving: frozenset[str] = LEAVING_EVENTS):
        self.leaving = leaving  # the event types that take their subject out of its zone (it looks back)
        self.zones: dict[str, str] = {obj["id"]: obj["zone"] for obj in scenario["objects"]}
        # (object id, ability) in scenario order, grouped by the event type of their trigger condition: an event is
        # tested only against the abilities waiting for its type (the rest cannot match, see pattern_matches).
        # Each with its active_zones, read once, and its condition's signal name and subject (_NO_NAME: any name)
        # and intervening condition, read once too.
        self._by_type: dict[str, list[tuple[str, dict[str, Any], list[str], Any, str, Any]]] = {}
        for obj in scenario["objects"]:
            for ability in obj.get("abilities", ()):
                pattern = ability["trigger"]
                self._by_type.setdefault(pattern["event"], []).append(
                    (obj["id"], ability, active_zones(ability), pattern.get("name", _NO_NAME),
                     pattern.get("subject", "any"), ability.get("intervening_if")))

    def apply(self, event: dict[str, Any]) -> dict[str, str]:
        """Move the event's subject into its ``to`` zone. Returns ``{subject: zone it was in}`` when the event moved
        an object, else ``{}``: all that looking back in time needs."""
        subject, destination = event.get("subject"), event.get("to")
        if not destination or subject not in self.zones:
            return {}
        previous = self.zones[subject]
        self.zones[subject] = destination
        return {subject: previous}

    def satisfied_abilities(self, event: dict[str, Any], scenario: dict[str, Any],
                            before: dict[str, str]) -> Iterator[tuple[str, dict[str, Any]]]:
        """(object id, ability) of every ability, in scenario order, whose trigger condition ``event`` satisfies and
        whose object is where it must be (see the module docstring), given ``before`` (what :meth:`apply` returned
        for this event) and the zones now. ``scenario`` is the one the tracker was built from."""
        candidates = self._by_type.get(event["type"])
        if not candidates:
            return
        leaving = event["type"] in self.leaving
        name, subject, zones_now = event.get("name"), event.get("subject"), self.zones
        for source, ability, zones, wanted_name, wanted_subject, condition in candidates:
            # pattern_matches, inlined (the type matched already): its signal name, then its subject
            if wanted_name is not _NO_NAME and name != wanted_name:
                continue
            if wanted_subject != "any" and not _subject_fits(wanted_subject, subject, source):
                continue
            if leaving and subject == source:
                where = before.get(source, zones_now.get(source))
            else:
                where = zones_now.get(source)
            if where in zones and (condition is None or condition_holds(condition, zones_now, source)):
                yield source, ability


__all__ = ["IN_PLAY", "LEAVING_EVENTS", "ZoneTracker", "active_zones", "condition_holds", "movement_event",
           "pattern_matches"]
