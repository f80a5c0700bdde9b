"""Scenario-level shrinking: after Hypothesis has minimised a failing scenario's answer log, take the scenario apart
piece by piece (a script step, a scripted action, an effect action, an ability, an object, a player, a choice) and
keep every removal after which the scenario still fails.

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
    (only valid candidates are played). Greedy: the first removal that keeps the failure is kept, and the passes
    start again, until none helps or about ``seconds`` have passed. Never returns a larger document.
    """
    deadline = time.monotonic() + seconds
    best = document
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for candidate in candidates(best):
            if time.monotonic() > deadline:
                break
            if not valid(candidate) or not fails(candidate):
                continue
            best, progress = candidate, True
            break
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


__all__ = ["candidates", "reduce_scenario", "well_formed"]
