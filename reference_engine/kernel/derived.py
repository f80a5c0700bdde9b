"""Situations derived from a ruleset's vocabulary, not listed by hand (issue 30).

The words come from the ruleset's scenario schema (the kernel part composed with the unit's fragment, see
:mod:`reference_engine.kernel.schemas`), in six categories:

* ``event``: an event kind (``$defs/event_type``); reached when an event of that kind happens while an ability
  watches for it (the rule must decide whether it triggers), or an ability watching for it triggers;
* ``zone``: a zone (``$defs/zone``); reached when an event moves an object out of or into it;
* ``filter``: a trigger-condition word other than ``event`` (``$defs/trigger_condition``); reached when an event of
  the kind an ability with that filter watches for happens, or that ability triggers;
* ``condition``: a game-state test (``$defs/condition`` ``test``); reached when an ability whose intervening 'if'
  (or 'If X, Y' ``condition``) uses it triggers (or, 'If X, Y', acts as its card is played), or a state trigger
  or a ``dies_when`` uses it;
* ``effect``: an action word (``$defs/action`` ``do``); reached when the script performs it or a resolving ability
  (or spell) does;
* ``ability``: a word of an ability (``$defs/ability`` properties other than its id, text, trigger and effect), and
  ``timing``: a duration of a delayed ability; reached when an ability carrying it triggers, or such a delayed
  ability is created.

Each rule key crossed with each word of a category its invariant observes (:attr:`Invariant.observes`; None: every
category) is a situation, reached when the trace shows the word and exercises the rule. The pairs of words that
interact are situations too: a zone-change event kind x the zone its watcher works from (``active_in``: whether the
watcher sees an object leave depends on both, through looking back in time), and the zone an object leaves x the
watcher's zone. A word the ruleset's :class:`~reference_engine.kernel.ruleset.Vocabulary` does not give
a meaning to, or a pair the schema's own reading rules out (a watcher's zone no ability works from, by the
vocabulary's ``ability_zones``; an origin no object leaves, one of its ``final_zones``, or that no zone-change event
kind of the ruleset takes an object out of), is *impossible*, with the reason
(:func:`impossible_situations`); every other derived situation has the goal :data:`AT_LEAST_ONCE` (at least once in
a run's stream).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterator

from reference_engine.kernel.situations import AT_LEAST_ONCE, Situation
from reference_engine.kernel.traceview import TraceView

CATEGORIES = ("event", "zone", "filter", "condition", "effect", "ability", "timing")
_KERNEL_ABILITY_PARTS = frozenset({"id", "text", "trigger", "effect"})
IN_PLAY = "field"
# The kernel's reading of a zone change (reference_engine/kernel/vocabulary.py movement_event): into play is
# ``enter``, out of play ``leave``, any other change ``move``. An event kind not listed moves nothing.
_FROM_ZONES = {"enter": lambda z: z != IN_PLAY, "leave": lambda z: z == IN_PLAY, "move": lambda z: z != IN_PLAY,
               "defeated": lambda z: z == IN_PLAY, "zone_change": lambda z: True}
ZONE_CHANGE_KINDS = tuple(_FROM_ZONES)  # the event kinds whose watchers the pairs read, in this order


def tour_words(vocabulary) -> dict[str, tuple[str, ...]]:
    """What a generator's zone tour (reference_engine/common/zone_tour.py) takes from a ruleset's ``vocabulary``: the
    zone-change ``kinds`` it can watch, the zones an ability ``works_from``, the ``stops`` a card is moved through
    (those of them that are not final) and the ``finals``, each sorted."""
    zones = sorted(vocabulary.zones)
    works = vocabulary.ability_zones
    return {"kinds": tuple(k for k in ZONE_CHANGE_KINDS if k in vocabulary.trigger_events),
            "works_from": tuple(z for z in zones if works is None or z in works),
            "stops": tuple(z for z in zones if (works is None or z in works) and z not in vocabulary.final_zones),
            "finals": tuple(z for z in zones if z in vocabulary.final_zones)}


def schema_words(schema: dict[str, Any]) -> dict[str, list[str]]:
    """Category -> the words a composed scenario ``schema`` defines in it (see the module docstring), in schema order."""
    defs = schema.get("$defs", {})
    actions = defs.get("action", {}).get("oneOf", ())
    durations: list[str] = []
    for action in actions:
        duration = action.get("properties", {}).get("duration", {})
        durations += [d for d in duration.get("enum", ()) if d not in durations]
    return {
        "event": list(defs.get("event_type", {}).get("enum", ())),
        "zone": list(defs.get("zone", {}).get("enum", ())),
        "filter": [f for f in defs.get("trigger_condition", {}).get("properties", {}) if f != "event"],
        "condition": list(defs.get("condition", {}).get("properties", {}).get("test", {}).get("enum", ())),
        "effect": [a["properties"]["do"]["const"] for a in actions if "const" in a.get("properties", {}).get("do", {})],
        "ability": [w for w in defs.get("ability", {}).get("properties", {}) if w not in _KERNEL_ABILITY_PARTS],
        "timing": durations,
    }


def vocabulary_words(vocabulary) -> dict[str, set[str]]:
    """Category -> the words a ruleset's Vocabulary gives a meaning to (the same categories as :func:`schema_words`)."""
    return {
        "event": set(vocabulary.trigger_events),
        "zone": set(vocabulary.zones),
        "filter": set(vocabulary.trigger_fields) - {"event"},
        "condition": set(vocabulary.condition_tests),
        "effect": set(vocabulary.actions),
        "ability": set(vocabulary.ability_fields) - _KERNEL_ABILITY_PARTS,
        "timing": None,  # durations are values of an action field: the schema's list stands
    }


@dataclass(frozen=True)
class Derived:
    """A derived situation: ``situation`` (goal :data:`AT_LEAST_ONCE`), and ``impossible``: why the schema rules it
    out, or None."""

    situation: Situation
    impossible: str | None = None


# -- What a trace shows ---------------------------------------------------------------------------------------


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every mapping inside ``value`` (a document part), each before the ones it holds."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _dicts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _dicts(v)


def _inline_abilities(value: Any) -> Iterator[dict[str, Any]]:
    return (d["ability"] for d in _dicts(value) if isinstance(d.get("ability"), dict) and "trigger" in d["ability"])


def _actions(value: Any) -> Iterator[str]:
    return (d["do"] for d in _dicts(value) if isinstance(d.get("do"), str))


def _tests(value: Any) -> Iterator[str]:
    return (d["test"] for d in _dicts(value) if isinstance(d.get("test"), str))


_SEEN: dict[int, tuple[TraceView, frozenset]] = {}


def seen(view: TraceView) -> frozenset:
    """The words and pairs ``view`` shows (see the module docstring), computed once per view."""
    cached = _SEEN.get(id(view))
    if cached is not None and cached[0] is view:
        return cached[1]
    found = frozenset(_seen(view))
    if len(_SEEN) > 64:
        _SEEN.clear()
    _SEEN[id(view)] = (view, found)
    return found


def _watchers(view: TraceView) -> list[tuple[str | None, dict[str, Any]]]:
    printed = [(obj["id"], a) for obj in view.scenario["objects"] for a in obj.get("abilities", ())]
    return printed + [(None, a) for a in _inline_abilities(view.scenario.get("script", ()))] + \
        [(None, a) for obj in view.scenario["objects"] for a in _inline_abilities(obj.get("abilities", ()))]


def _seen(view: TraceView) -> Iterator[tuple]:
    events = list(view.events.values())
    kinds = {e["type"] for e in events}
    triggered = [a for a in (view.ability_of(t) for t in view.triggers) if a]
    triggered += [a for a in _inline_abilities(view.scenario) if any(t.get("ability") == a.get("id")
                                                                    for t in view.triggers.values())]
    # an ability that is not a triggered one and acts as its card is played (Redemption's 'If X, Y', TA.2)
    triggered += [a for a in (view.abilities.get((view.entries[i].get("source"), view.entries[i].get("ability")))
                              for i in view.indexes_of("activation_begin")) if a]
    for ability in triggered:
        yield ("event", ability["trigger"]["event"])
        yield from (("filter", f) for f in ability["trigger"] if f != "event")
        yield from (("ability", w) for w in ability if w not in _KERNEL_ABILITY_PARTS and ability[w])
        yield from (("condition", t) for t in _tests([ability.get("intervening_if"), ability.get("condition")]))
    for _, ability in _watchers(view):
        pattern = ability["trigger"]
        watched = pattern["event"] in kinds or (pattern["event"] == "zone_change" and kinds & set(_FROM_ZONES))
        if not watched:
            continue
        yield ("event", pattern["event"])
        yield from (("filter", f) for f in pattern if f != "event")
        yield from (("condition", t) for t in _tests(pattern.get("state")))
        for zone in ability.get("active_in") or [IN_PLAY]:
            yield ("event-watcher", pattern["event"], zone)
            yield from (("from-watcher", e["from"], zone) for e in events if e.get("from") and
                        (e["type"] == pattern["event"] or pattern["event"] == "zone_change"))
    for event in events:
        yield from (("zone", event[side]) for side in ("from", "to") if event.get(side))
    for obj in view.scenario["objects"]:
        yield from (("condition", t) for t in _tests(obj.get("dies_when")))
    yield from (("effect", a) for step in view.scenario.get("script", ()) for a in _actions(step.get("actions", ())))
    for t, _, _ in view.resolution_spans:
        yield from (("effect", a) for a in _actions((view.ability_of(t) or {}).get("effect", ())))
    for i in view.indexes_of("spell_resolve_begin"):
        spell = view.objects.get(view.entries[i].get("spell"), {}).get("spell", {})
        yield from (("effect", a) for a in _actions(spell.get("effect", ())))
    for i in view.indexes_of("delayed_create"):
        if view.entries[i].get("duration"):
            yield ("timing", view.entries[i]["duration"])


# -- Deriving ---------------------------------------------------------------------------------------------------


def _word_situation(key: str | None, exercised, category: str, word: str) -> Situation:
    feature = (category, word)
    if key is None:
        return Situation(f"{category}:{word}", f"the vocabulary's {category} word {word!r} shows in a trace",
                         lambda v: feature in seen(v), AT_LEAST_ONCE)
    return Situation(f"{key} x {category}:{word}", f"rule {key} decides in a trace showing the {category} word "
                     f"{word!r}", lambda v: feature in seen(v) and exercised(v) > 0, AT_LEAST_ONCE)


def _pair_situation(kind: str, first: str, second: str, description: str) -> Situation:
    feature = (kind, first, second)
    return Situation(f"{kind}:{first}/{second}", description, lambda v: feature in seen(v), AT_LEAST_ONCE)


def derive(schema: dict[str, Any], vocabulary, invariants) -> list[Derived]:
    """Every situation derived from a composed scenario ``schema``, a ruleset's ``vocabulary`` and its
    ``invariants`` (see the module docstring), possible ones and impossible ones with the reason."""
    words = schema_words(schema)
    meaning = vocabulary_words(vocabulary)
    found: list[Derived] = []

    def reason(category: str, word: str) -> str | None:
        allowed = meaning[category]
        if allowed is not None and word not in allowed:
            return f"{category} word {word!r} is in the schema but not in this ruleset's vocabulary"
        return None

    for category in CATEGORIES:
        for word in words[category]:
            found.append(Derived(_word_situation(None, None, category, word), reason(category, word)))
            for inv in invariants:
                observes = getattr(inv, "observes", None)
                if observes is None or category in observes:
                    found.append(Derived(_word_situation(inv.key, inv.exercised, category, word),
                                         reason(category, word)))
    def works_from(zone: str) -> str | None:
        where = vocabulary.ability_zones
        if reason("zone", zone) or where is None or zone in where:
            return reason("zone", zone)
        return f"no ability works from {zone!r} in this ruleset (its vocabulary's ability zones: " \
               f"{', '.join(z for z in words['zone'] if z in where)})"

    def leaves(origin: str) -> str | None:
        if origin in vocabulary.final_zones:
            return f"no object ever leaves {origin!r} in this ruleset (a final zone of its vocabulary)"
        movers = [k for k in words["event"] if k in _FROM_ZONES and _FROM_ZONES[k](origin) and not reason("event", k)]
        return None if movers else f"no zone-change event of this ruleset takes an object out of {origin!r}"

    for kind, zone in itertools.product([k for k in words["event"] if k in _FROM_ZONES], words["zone"]):
        found.append(Derived(_pair_situation(
            "event-watcher", kind, zone, f"an event {kind!r} happens while an ability watching for it works from "
            f"{zone!r}"), reason("event", kind) or works_from(zone)))
    for origin, zone in itertools.product(words["zone"], words["zone"]):
        why = reason("zone", origin) or works_from(zone) or leaves(origin)
        found.append(Derived(_pair_situation(
            "from-watcher", origin, zone, f"an object leaves {origin!r} while an ability watching that zone change "
            f"works from {zone!r}"), why))
    return found


def unexplained_words(schema: dict[str, Any], vocabulary) -> list[str]:
    """The words of ``vocabulary`` that yield no derived situation (the schema does not define them): the registry
    refuses a unit with any."""
    words = schema_words(schema)
    missing = []
    for category, allowed in vocabulary_words(vocabulary).items():
        for word in sorted(allowed or ()):
            if word not in words[category]:
                missing.append(f"{category} word {word!r}")
    return missing


def derived_situations(derived: list[Derived]) -> tuple[Situation, ...]:
    """The possible derived situations (the goals coverage measures)."""
    return tuple(d.situation for d in derived if d.impossible is None)


def impossible_situations(derived: list[Derived]) -> dict[str, str]:
    """Situation name -> why the schema rules it out."""
    return {d.situation.name: d.impossible for d in derived if d.impossible is not None}


__all__ = ["CATEGORIES", "ZONE_CHANGE_KINDS", "Derived", "derive", "derived_situations", "impossible_situations",
           "schema_words", "seen", "tour_words",
           "unexplained_words", "vocabulary_words"]
