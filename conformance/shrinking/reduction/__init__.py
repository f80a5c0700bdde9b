"""Scenario-level shrinking: after Hypothesis has minimised a failing scenario's answer log, take the scenario apart
piece by piece (a script step, a scripted action, an effect action, an ability, an object (also out of the lists
that name it), a player, a choice), fold one object into another, move a scripted action into the effect of an
ability the script sets off, start an object where the script's first instruction naming it brings it (a token
created, a card moved), and keep every change after which the scenario still fails and is no larger. When no such
change is left, a rewrite that keeps the size (an object starting in another zone, an ability's effect moved next to
the action that sets it off (a signal's, or one that may make a state trigger's state true), a signal trigger made
another kind of trigger, a trigger and an action that sets it off both made a signal) is tried as a first step: it is kept when,
after it, one change of the first kind makes the scenario smaller than before, or as small with fewer actions (an
action inside an ability, which the size does not count; see :func:`reductions`).

Hypothesis shrinks the log that builds a scenario, which is what makes failures reproducible and storable in the
example database; but a smaller log is not always a smaller scenario (an object that nothing needs can sit early
in the log behind one that matters). These passes work on the document itself, in the manner of delta debugging
(Zeller and Hildebrandt, 2002), so the scenario a reader gets holds nothing the failure does not need.
"""

from __future__ import annotations

import copy
import time
from typing import Callable, Collection, Iterator

from conformance.documents.json_io import problems as schema_problems
from conformance.shrinking.reduction.passes import (
    DESCRIPTIONS, QUALIFIERS, Document, _abilities_hoisted, _abilities_inlined, _action_lists, _actions_sunk,
    _arrivals_started, _defaults_restored, _instructions_swapped, _mentions, _objects_dropped_from_lists,
    _objects_folded, _signal_stand_ins, _simpler_abilities, _simpler_choices, _simpler_objects, _triggers_changed, _without_ability,
    _zones_changed, non_default_values, scenario_size,
)


def candidates(document: Document, pinned: Collection[str] = ()) -> Iterator[Document]:
    """Documents (new copies; ``document`` is left as it is) one piece smaller or simpler than ``document``, biggest
    pieces first: removals, simplifications of the same size (a choice, an ability qualifier, an object description,
    a value back to its default: :func:`_defaults_restored`, never for an option named in ``pinned``) and the
    compound passes (objects out of lists, inlines, hoists and sinks that make it smaller, arrivals made starting
    zones, folds). None is
    larger by :func:`scenario_size`. Some may be inconsistent (a removed object still named somewhere); the caller
    filters those out (:func:`well_formed`)."""
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
    yield from _simpler_objects(document)
    yield from _defaults_restored(document, pinned)
    # Last, as they cost more to try (pairs of objects; rewriting the document): once the plain removals are done.
    yield from _objects_dropped_from_lists(document)
    yield from _abilities_inlined(document)
    size = scenario_size(document)
    yield from (c for c in _abilities_hoisted(document) if scenario_size(c) < size)
    yield from _actions_sunk(document)
    yield from _arrivals_started(document)
    yield from _objects_folded(document)


def rewrites(document: Document) -> Iterator[Document]:
    """Documents of the same size as ``document`` (by :func:`scenario_size`) that say the same thing more simply or
    set it off more directly, so that a removal :func:`candidates` could not make becomes possible: an object
    starting in another zone of its ruleset (``_zones_changed``), an ability's effect moved next to the signal
    that sets it off (``_abilities_hoisted``), a signal trigger made another kind of trigger
    (``_triggers_changed``), a trigger and an action that sets it off both made one signal (``_signal_stand_ins``),
    two neighbouring instructions of one effect in the other order (``_instructions_swapped``). Some may be
    inconsistent or outside the ruleset's vocabulary; the caller filters those out."""
    size = scenario_size(document)
    yield from _zones_changed(document)
    yield from (c for c in _abilities_hoisted(document) if scenario_size(c) == size)
    yield from _triggers_changed(document)
    yield from _signal_stand_ins(document)
    yield from _instructions_swapped(document)


def _kept(candidate: Document, size: int, fails: Callable[[Document], bool | None],
          valid: Callable[[Document], bool]) -> bool:
    return scenario_size(candidate) <= size and valid(candidate) and bool(fails(candidate))


def _weight(document: Document) -> tuple[int, int]:
    """What a rewrite and a candidate must lower together: the size, then the number of actions at any depth (those
    in abilities' effects too, which the size does not count)."""
    return scenario_size(document), sum(len(actions) for actions in _action_lists(document))


def _after_rewrites(document: Document, fails: Callable[[Document], bool | None], valid: Callable[[Document], bool],
                    deadline: float | None = None, pinned: Collection[str] = ()) -> Iterator[Document]:
    """Documents lighter than ``document`` (by :func:`_weight`: smaller, or as small with fewer actions) reached by
    one of its :func:`rewrites` that still fails, then one of that rewrite's :func:`candidates` that still fails.
    Stops at ``deadline`` (a ``time.monotonic()`` value)."""
    size, weight = scenario_size(document), _weight(document)
    for rewritten in rewrites(document):
        if deadline is not None and time.monotonic() > deadline:
            return
        if scenario_size(rewritten) != size or not valid(rewritten) or not fails(rewritten):
            continue
        for candidate in candidates(rewritten, pinned):
            if deadline is not None and time.monotonic() > deadline:
                return
            if _weight(candidate) < weight and _kept(candidate, size, fails, valid):
                yield candidate


def reductions(document: Document, fails: Callable[[Document], bool | None],
               valid: Callable[[Document], bool], pinned: Collection[str] = ()) -> Iterator[Document]:
    """Every one-step reduction of ``document`` that is ``valid`` and still ``fails``: each of its
    :func:`candidates` no larger than it, then each document reached by a rewrite and a candidate that is smaller, or
    as small with fewer actions (see :func:`rewrites`). A document for which this yields nothing is 1-minimal: what :func:`reduce_scenario` returns
    when it is not stopped by its time budget. ``fails`` may return None (no verdict), counted as not failing. Options
    named in ``pinned`` are never put back to their defaults."""
    size = scenario_size(document)
    for candidate in candidates(document, pinned):
        if _kept(candidate, size, fails, valid):
            yield candidate
    yield from _after_rewrites(document, fails, valid, pinned=pinned)


def reduce_scenario(document: Document, fails: Callable[[Document], bool | None], valid: Callable[[Document], bool],
                    seconds: float = 10.0, pinned: Collection[str] = ()) -> Document:
    """The smallest document reached from ``document`` by reductions after which ``fails`` still holds.

    ``document`` must fail; ``valid(candidate)`` says whether a candidate is a well-formed scenario of its ruleset
    (only valid candidates are played); ``fails`` may return None (no verdict: not a failure). Greedy: the first
    of the :func:`candidates` that keeps the failure is kept, and the sweep goes on from there; sweeps are repeated
    until one changes nothing; then a rewrite followed by a candidate (:func:`reductions`) is tried, and the sweeps
    start again after one is kept; all until nothing is left or about ``seconds`` have passed. Never returns a
    larger document (by :func:`scenario_size`); a rewrite alone, which keeps the size, is never returned. Options
    named in ``pinned`` (those a run fixed, say) keep their values; every other one may go back to its default.

    Terminates: every kept candidate is smaller, or as small and simpler (a field or choice fewer, or
    :func:`non_default_values` lower), and every rewrite kept is followed by a candidate that makes the document
    lighter (:func:`_weight`).
    """
    deadline = time.monotonic() + seconds
    best = document
    while time.monotonic() < deadline:
        progress = True
        while progress and time.monotonic() < deadline:  # sweeps over every piece, until one changes nothing
            progress = False
            start = 0  # after a change, the sweep goes on from the piece it changed, not from the first
            while time.monotonic() < deadline:
                size, changed = scenario_size(best), None
                for index, candidate in enumerate(candidates(best, pinned)):
                    if index < start:
                        continue
                    if time.monotonic() > deadline:
                        break
                    if not _kept(candidate, size, fails, valid):
                        continue
                    best, changed = candidate, index
                    break
                if changed is None:
                    break
                progress, start = True, changed
        smaller = (next(_after_rewrites(best, fails, valid, deadline, pinned), None) if time.monotonic() < deadline
                   else None)
        if smaller is None:
            break
        best = smaller
    return best


def well_formed(document: Document) -> bool:
    """Schema-valid, consistent, and in its ruleset's vocabulary (what :func:`reduce_scenario` needs as ``valid``)."""
    from reference_engine.kernel.errors import ConformanceError
    from conformance.documents.scenarios import prepare_scenario

    if schema_problems(document, "scenario"):
        return False
    try:
        prepare_scenario(document, "a reduced scenario")
    except ConformanceError:
        return False
    return True


__all__ = ["DESCRIPTIONS", "QUALIFIERS", "candidates", "non_default_values", "reduce_scenario", "reductions", "rewrites",
           "scenario_size", "well_formed"]
