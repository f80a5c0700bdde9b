"""Scenario-level shrinking: after Hypothesis has minimised a failing scenario's answer log, take the scenario apart
piece by piece (a script step, a scripted action, an effect action, an ability, an object (also out of the lists
that name it), a player, a choice), make two like objects one, and keep every change after which the scenario still
fails and is no larger.

Hypothesis shrinks the log that builds a scenario, which is what makes failures reproducible and storable in the
example database; but a smaller log is not always a smaller scenario (an object that nothing needs can sit early
in the log behind one that matters). These passes work on the document itself, in the manner of delta debugging
(Zeller and Hildebrandt, 2002), so the scenario a reader gets holds nothing the failure does not need.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any, Callable, Iterator

from conformance.documents import problems as schema_problems

Document = dict[str, Any]


def scenario_size(document: Document) -> int:
    """A scenario's size in the units a reader counts: objects, abilities and scripted actions (what a shrunk
    failure reports as ``shrunk_size``, and what the bundled faulty engines' minimal sizes are measured in)."""
    objects = document["objects"]
    return (len(objects) + sum(len(o.get("abilities", ())) for o in objects)
            + sum(len(a["effect"]) for step in document["script"] for a in step["actions"]))


def _action_lists(document: Document) -> Iterator[list]:
    """Every list of actions in the document (ability effects, scripted effects, Snatch Checks), outermost first."""

    def nested(actions: list) -> Iterator[list]:
        yield actions
        for action in actions:
            if isinstance(action.get("snatch_check"), list):
                yield from nested(action["snatch_check"])

    for obj in document["objects"]:
        for ability in obj.get("abilities", ()):
            yield from nested(ability["effect"])
    for step in document["script"]:
        for action in step["actions"]:
            yield from nested(action["effect"])


def _mentions(value: Any, word: str) -> bool:
    return word in json.dumps(value)


def _without_ability(document: Document, ability_id: str) -> None:
    choices = document.get("choices", {})
    if ability_id in choices.get("trigger_order", ()):
        choices["trigger_order"] = [a for a in choices["trigger_order"] if a != ability_id]
    for table in ("optional", "targets", "occurrence"):
        choices.get(table, {}).pop(ability_id, None)


def candidates(document: Document) -> Iterator[Document]:
    """Documents one piece smaller than ``document``, biggest pieces first. Some may be inconsistent (a removed
    object still named somewhere); the caller filters those out."""
    for s in range(len(document["script"])):
        smaller = copy.deepcopy(document)
        del smaller["script"][s]
        yield smaller
    for s, step in enumerate(document["script"]):
        for a in range(len(step["actions"])):
            smaller = copy.deepcopy(document)
            del smaller["script"][s]["actions"][a]
            yield smaller
    for o, obj in enumerate(document["objects"]):
        smaller = copy.deepcopy(document)
        removed = smaller["objects"].pop(o)
        for ability in removed.get("abilities", ()):
            _without_ability(smaller, ability["id"])
        if not _mentions({k: v for k, v in smaller.items() if k != "choices"}, f'"{obj["id"]}"'):
            yield smaller
    for o, obj in enumerate(document["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            smaller = copy.deepcopy(document)
            del smaller["objects"][o]["abilities"][m]
            _without_ability(smaller, ability["id"])
            yield smaller
    for n, actions in enumerate(_action_lists(document)):
        for a in range(len(actions)):
            smaller = copy.deepcopy(document)
            del list(_action_lists(smaller))[n][a]
            yield smaller
    for player in document["players"]:
        if player == document["active_player"] or len(document["players"]) <= 1:
            continue
        smaller = copy.deepcopy(document)
        smaller["players"] = [p for p in smaller["players"] if p != player]
        smaller.get("life", {}).pop(player, None)
        if not _mentions({k: v for k, v in smaller.items() if k != "players"}, f'"{player}"'):
            yield smaller
    yield from _simpler_choices(document)
    yield from _simpler_abilities(document)
    # Last, as they cost more to try (pairs of objects; rewriting the document): once the plain removals are done.
    yield from _objects_dropped_from_lists(document)
    yield from _abilities_inlined(document)
    yield from _objects_merged(document)


def _without_word(value: Any, word: str) -> Any:
    """``value`` with the string ``word`` taken out of every list (at any depth) that holds it among others."""
    if isinstance(value, dict):
        return {k: _without_word(v, word) for k, v in value.items()}
    if isinstance(value, list):
        kept = [_without_word(v, word) for v in value if v != word]
        return kept if kept or not value else value
    return value


def _renamed(value: Any, old: str, new: str) -> Any:
    """``value`` with every string equal to ``old`` (a value, or a key) replaced by ``new``."""
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    return new if value == old else value


def _objects_dropped_from_lists(document: Document) -> Iterator[Document]:
    """An object removed together with its mentions in lists of several (an action moving objects together, a
    list of targets, an order of preference): removals the plain object pass cannot make, since it only removes an
    object nothing names."""
    for o, obj in enumerate(document["objects"]):
        rest = {k: v for k, v in document.items() if k != "objects"}
        rest["objects"] = [x for n, x in enumerate(document["objects"]) if n != o]
        if not _mentions(rest, f'"{obj["id"]}"'):
            continue  # the plain pass removes it already
        smaller = copy.deepcopy(document)
        removed = smaller["objects"].pop(o)
        for ability in removed.get("abilities", ()):
            _without_ability(smaller, ability["id"])
        smaller = _without_word(smaller, obj["id"])
        if not _mentions(smaller, f'"{obj["id"]}"'):
            yield smaller


def _objects_merged(document: Document) -> Iterator[Document]:
    """Two objects alike but for their id, owner and abilities (same zone, ...) made one: the second's abilities
    move to the first, and whatever named the second names the first. One object fewer, every ability kept."""
    objects = document["objects"]
    for i, first in enumerate(objects):
        for j in range(i + 1, len(objects)):
            second = objects[j]
            if {k: v for k, v in first.items() if k not in ("id", "abilities", "owner")} != {
                    k: v for k, v in second.items() if k not in ("id", "abilities", "owner")}:
                continue
            smaller = copy.deepcopy(document)
            merged = smaller["objects"][i]
            moved = smaller["objects"].pop(j)
            if moved.get("abilities"):
                merged["abilities"] = merged.get("abilities", []) + moved["abilities"]
            rest = _renamed({k: v for k, v in smaller.items() if k != "objects"}, second["id"], first["id"])
            yield {**rest, "objects": _renamed(smaller["objects"], second["id"], first["id"])}


def _abilities_inlined(document: Document) -> Iterator[Document]:
    """An ability that only links a signal to its effect, inlined: an action sending the signal it waits for does
    its effect instead, and the ability goes (a chain ``script -> signal a -> ability -> signal b -> ...`` loses a
    link). Only when the scenario gets smaller."""
    size = scenario_size(document)
    for o, obj in enumerate(document["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            trigger = ability["trigger"]
            if (set(trigger) - {"event", "name"} or trigger.get("event") != "signal"
                    or set(ability) - {"id", "trigger", "effect"}):
                continue
            if _mentions(ability["effect"], json.dumps(trigger["name"])):
                continue  # it would set itself off again
            for n, actions in enumerate(_action_lists(document)):
                for a, action in enumerate(actions):
                    if action != {"do": "signal", "name": trigger["name"]}:
                        continue
                    smaller = copy.deepcopy(document)
                    target = list(_action_lists(smaller))[n]
                    target[a:a + 1] = copy.deepcopy(ability["effect"])
                    del smaller["objects"][o]["abilities"][m]
                    _without_ability(smaller, ability["id"])
                    if scenario_size(smaller) < size:
                        yield smaller


def _simpler_choices(document: Document) -> Iterator[Document]:
    choices = document.get("choices", {})
    for table in list(choices):
        if isinstance(choices[table], list):
            for k in range(len(choices[table])):
                smaller = copy.deepcopy(document)
                del smaller["choices"][table][k]
                yield smaller
        elif isinstance(choices[table], dict):
            for name in list(choices[table]):
                smaller = copy.deepcopy(document)
                del smaller["choices"][table][name]
                yield smaller
    if choices:
        smaller = copy.deepcopy(document)
        del smaller["choices"]
        yield smaller


def _simpler_abilities(document: Document) -> Iterator[Document]:
    """An optional ability made mandatory, an intervening condition dropped."""
    for o, obj in enumerate(document["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            for field in ("optional", "intervening_if"):
                if field in ability:
                    smaller = copy.deepcopy(document)
                    del smaller["objects"][o]["abilities"][m][field]
                    yield smaller


def reduce_scenario(document: Document, fails: Callable[[Document], bool], valid: Callable[[Document], bool],
                    seconds: float = 10.0) -> Document:
    """The smallest document reached from ``document`` by removals after which ``fails`` still holds.

    ``document`` must fail; ``valid(candidate)`` says whether a candidate is a well-formed scenario of its ruleset
    (only valid candidates are played). Greedy: the first change that keeps the failure is kept, and the
    sweep goes on from there, and sweeps are repeated until one changes nothing or about ``seconds`` have passed.
    Never returns a larger document (by :func:`scenario_size`).
    """
    deadline = time.monotonic() + seconds
    best = document
    progress = True
    while progress and time.monotonic() < deadline:  # sweeps over every piece, until one changes nothing
        progress = False
        start = 0  # after a change, the sweep goes on from the piece it changed, not from the first
        while time.monotonic() < deadline:
            size, changed = scenario_size(best), None
            for index, candidate in enumerate(candidates(best)):
                if index < start:
                    continue
                if time.monotonic() > deadline:
                    break
                if scenario_size(candidate) > size or not valid(candidate) or not fails(candidate):
                    continue
                best, changed = candidate, index
                break
            if changed is None:
                break
            progress, start = True, changed
    return best


def well_formed(document: Document) -> bool:
    """Schema-valid, consistent, and in its ruleset's vocabulary (what :func:`reduce_scenario` needs as ``valid``)."""
    from conformance.errors import ConformanceError
    from conformance.scenarios import prepare_scenario

    if schema_problems(document, "scenario"):
        return False
    try:
        prepare_scenario(document, "a reduced scenario")
    except ConformanceError:
        return False
    return True


__all__ = ["candidates", "reduce_scenario", "scenario_size", "well_formed"]
