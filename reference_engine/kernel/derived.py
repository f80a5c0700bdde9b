"""Situations derived from a ruleset's vocabulary, not listed by hand (issue 30).

The words come from the ruleset's scenario schema (the kernel part composed with the unit's fragment, see
:mod:`reference_engine.kernel.schemas`), in six categories:

* ``event``: an event kind (``$defs/event_type``); reached when an event of that kind happens while an ability
  watches for it (the rule must decide whether it triggers), or an ability watching for it triggers;
* ``zone``: a zone (``$defs/zone``); reached when an event moves an object out of or into it;
* ``filter``: a trigger-condition word other than ``event`` (``$defs/trigger_condition``); reached when an event of
  the kind an ability with that filter watches for happens, or that ability triggers;
* ``condition``: a game-state test (``$defs/condition`` ``test``); reached when an ability whose intervening 'if'
  (or another field holding a test, a Redemption 'If X, Y' condition) uses it acts, or a trigger pattern or an object
  field holding it is in play;
* ``effect``: an action word (``$defs/action`` ``do``); reached when the script performs it or a resolving ability
  does (or whatever else the ruleset's ``Vocabulary.shown`` says performs it);
* ``ability``: a word of an ability (``$defs/ability`` properties other than its id, text, trigger and effect), and
  ``timing``: a duration an action names (``duration``); reached when an ability carrying it triggers, or when the
  ruleset's ``Vocabulary.shown`` says a trace shows it.

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
from collections.abc import Callable
from typing import Any, Iterator

from reference_engine.kernel.situations import AT_LEAST_ONCE, Situation
from reference_engine.kernel.traceview import TraceView

CATEGORIES = ("event", "zone", "filter", "condition", "effect", "ability", "timing")
_KERNEL_ABILITY_PARTS = frozenset({"id", "text", "trigger", "effect"})
IN_PLAY = "field"
# Where the subject of a zone-change event comes from: the kernel's ``enter`` (from out of play) and ``leave`` (from
# play), and each ruleset's own (its Vocabulary's ``zone_changes``). An event kind not listed moves nothing.
KERNEL_ZONE_CHANGES = {"enter": "out of play", "leave": "in play"}
_FROM = {"out of play": lambda z: z != IN_PLAY, "in play": lambda z: z == IN_PLAY, "anywhere": lambda z: True}


def _from_zones(vocabulary) -> dict[str, Callable[[str], bool]]:
    """Zone-change event kind -> whether its subject can come from a zone, for ``vocabulary`` (None: the kernel's)."""
    own = getattr(vocabulary, "zone_changes", None) or {}
    return {kind: _FROM[where] for kind, where in {**KERNEL_ZONE_CHANGES, **own}.items()}


def tour_words(vocabulary) -> dict[str, tuple[str, ...]]:
    """What a generator's zone tour (reference_engine/common/zone_tour.py) takes from a ruleset's ``vocabulary``: the
    zone-change ``kinds`` it can watch (the kernel's, then the ruleset's own), the zones an ability ``works_from``,
    the ``stops`` a card is moved through (those of them that are not final) and the ``finals``, zones sorted."""
    zones = sorted(vocabulary.zones)
    works = vocabulary.ability_zones
    return {"kinds": tuple(k for k in _from_zones(vocabulary) if k in vocabulary.trigger_events),
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


def action_words(value: Any) -> Iterator[str]:
    """The ``do`` of every action inside ``value`` (a document part: an effect, an ability, a script step)."""
    return (d["do"] for d in _dicts(value) if isinstance(d.get("do"), str))


_actions = action_words


def _tests(value: Any) -> Iterator[str]:
    return (d["test"] for d in _dicts(value) if isinstance(d.get("test"), str))


_SEEN: dict[int, tuple[TraceView, Any, frozenset]] = {}


def seen(view: TraceView, vocabulary=None) -> frozenset:
    """The words and pairs ``view`` shows (see the module docstring), read with its ruleset's ``vocabulary`` (its own
    zone changes and ``shown`` words; None: the kernel's reading alone), computed once per view."""
    cached = _SEEN.get(id(view))
    if cached is not None and cached[0] is view and cached[1] is vocabulary:
        return cached[2]
    found = frozenset(_seen(view, vocabulary))
    if len(_SEEN) > 64:
        _SEEN.clear()
    _SEEN[id(view)] = (view, vocabulary, found)
    return found


def _watchers(view: TraceView) -> list[tuple[str | None, dict[str, Any]]]:
    printed = [(obj["id"], a) for obj in view.scenario["objects"] for a in obj.get("abilities", ())]
    return printed + [(None, a) for a in _inline_abilities(view.scenario.get("script", ()))] + \
        [(None, a) for obj in view.scenario["objects"] for a in _inline_abilities(obj.get("abilities", ()))]


def ability_words(ability: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The words an ability that acts shows (one that triggers, or, in a ruleset's ``Vocabulary.shown``, one acting
    otherwise): its trigger condition's event kind and filters, its own words, and the test of each game-state test
    an ability field holds (an intervening 'if', a Redemption 'If X, Y' condition)."""
    yield ("event", ability["trigger"]["event"])
    yield from (("filter", f) for f in ability["trigger"] if f != "event")
    yield from (("ability", w) for w in ability if w not in _KERNEL_ABILITY_PARTS and ability[w])
    yield from (("condition", v["test"]) for v in ability.values() if isinstance(v, dict)
                and isinstance(v.get("test"), str))


def _seen(view: TraceView, vocabulary) -> Iterator[tuple]:
    from_zones = _from_zones(vocabulary)
    everywhere = {kind for kind, where in {**KERNEL_ZONE_CHANGES, **(getattr(vocabulary, "zone_changes", None) or {})}
                  .items() if where == "anywhere"}  # watching it is watching every zone change
    events = list(view.events.values())
    kinds = {e["type"] for e in events}
    triggered = [a for a in (view.ability_of(t) for t in view.triggers) if a]
    triggered += [a for a in _inline_abilities(view.scenario) if any(t.get("ability") == a.get("id")
                                                                    for t in view.triggers.values())]
    for ability in triggered:
        yield from ability_words(ability)
    for _, ability in _watchers(view):
        pattern = ability["trigger"]
        every = pattern["event"] in everywhere
        watched = pattern["event"] in kinds or (every and kinds & set(from_zones))
        if not watched:
            continue
        yield ("event", pattern["event"])
        yield from (("filter", f) for f in pattern if f != "event")
        yield from (("condition", t) for t in _tests(pattern))  # a state the pattern watches for
        for zone in ability.get("active_in") or [IN_PLAY]:
            yield ("event-watcher", pattern["event"], zone)
            yield from (("from-watcher", e["from"], zone) for e in events if e.get("from") and
                        (e["type"] == pattern["event"] or every))
    for event in events:
        yield from (("zone", event[side]) for side in ("from", "to") if event.get(side))
    for obj in view.scenario["objects"]:  # a game-state test an object field holds
        yield from (("condition", v["test"]) for v in obj.values() if isinstance(v, dict) and isinstance(v.get("test"), str))
    yield from (("effect", a) for step in view.scenario.get("script", ()) for a in _actions(step.get("actions", ())))
    for t, _, _ in view.resolution_spans:
        yield from (("effect", a) for a in _actions((view.ability_of(t) or {}).get("effect", ())))
    shown = getattr(vocabulary, "shown", None)
    if shown is not None:
        yield from shown(view)


# -- Deriving ---------------------------------------------------------------------------------------------------


def _word_situation(key: str | None, exercised, category: str, word: str, vocabulary=None) -> Situation:
    feature = (category, word)
    if key is None:
        return Situation(f"{category}:{word}", f"the vocabulary's {category} word {word!r} shows in a trace",
                         lambda v: feature in seen(v, vocabulary), AT_LEAST_ONCE)
    return Situation(f"{key} x {category}:{word}", f"rule {key} decides in a trace showing the {category} word "
                     f"{word!r}", lambda v: feature in seen(v, vocabulary) and exercised(v) > 0, AT_LEAST_ONCE)


def _pair_situation(kind: str, first: str, second: str, description: str, vocabulary=None) -> Situation:
    feature = (kind, first, second)
    return Situation(f"{kind}:{first}/{second}", description, lambda v: feature in seen(v, vocabulary), AT_LEAST_ONCE)


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
            found.append(Derived(_word_situation(None, None, category, word, vocabulary), reason(category, word)))
            for inv in invariants:
                observes = getattr(inv, "observes", None)
                if observes is None or category in observes:
                    found.append(Derived(_word_situation(inv.key, inv.exercised, category, word, vocabulary),
                                         reason(category, word)))
    from_zones = _from_zones(vocabulary)

    def works_from(zone: str) -> str | None:
        where = vocabulary.ability_zones
        if reason("zone", zone) or where is None or zone in where:
            return reason("zone", zone)
        return f"no ability works from {zone!r} in this ruleset (its vocabulary's ability zones: " \
               f"{', '.join(z for z in words['zone'] if z in where)})"

    def leaves(origin: str) -> str | None:
        if origin in vocabulary.final_zones:
            return f"no object ever leaves {origin!r} in this ruleset (a final zone of its vocabulary)"
        movers = [k for k in words["event"] if k in from_zones and from_zones[k](origin) and not reason("event", k)]
        return None if movers else f"no zone-change event of this ruleset takes an object out of {origin!r}"

    for kind, zone in itertools.product([k for k in words["event"] if k in from_zones], words["zone"]):
        found.append(Derived(_pair_situation(
            "event-watcher", kind, zone, f"an event {kind!r} happens while an ability watching for it works from "
            f"{zone!r}", vocabulary), reason("event", kind) or works_from(zone)))
    for origin, zone in itertools.product(words["zone"], words["zone"]):
        why = reason("zone", origin) or works_from(zone) or leaves(origin)
        found.append(Derived(_pair_situation(
            "from-watcher", origin, zone, f"an object leaves {origin!r} while an ability watching that zone change "
            f"works from {zone!r}", vocabulary), why))
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


__all__ = ["CATEGORIES", "Derived", "KERNEL_ZONE_CHANGES", "ability_words", "action_words", "derive",
           "derived_situations", "impossible_situations", "schema_words", "seen", "tour_words", "unexplained_words",
           "vocabulary_words"]
