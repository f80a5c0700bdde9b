"""MTG 704.3 (with 117.5): whenever a player would receive priority, the game performs every applicable state-based
action at once and checks again until none applies; only then do waiting triggered abilities go on the stack, and
the whole repeats until nothing happens. Abilities triggered by those state-based actions join that process."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import catalog, placements, sba_due_at, sba_performed
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView

BOUNDARIES = frozenset({"action_end", "resolve_end", "priority", "step_begin", "resolve_begin"})


def _checks_that_acted(view: TraceView) -> int:
    return sum(1 for events in sba_performed(view).values() if events)


def _pending(view: TraceView, i: int, due: tuple[list[str], list[str]], what: str) -> str:
    dying, losing = due
    parts = ([f"{', '.join(dying)} to the graveyard"] if dying else []) + \
        ([f"{', '.join(losing)} losing the game"] if losing else [])
    return (f"{what} at entry {i} while state-based actions still applied ({'; '.join(parts)}); they must be "
            f"performed, and the check repeated until none applies, first")


@invariant(
    passes=PASSES,
    key="mtg.sba-loop",
    ruleset="mtg",
    rules={"2026-02-27": "704.3", "2021-02-24": "704.3"},
    summary="Before a player receives priority, state-based actions are performed (all applicable ones at once, "
    "repeatedly), then waiting triggers go on the stack, until neither happens; none may still apply when a trigger "
    "goes on the stack or a player receives priority.",
    exercised=_checks_that_acted,
)
def sba_loop(view: TraceView) -> list[str]:
    found = []
    cat, due = catalog(view), sba_due_at(view)
    performed = sba_performed(view)
    first_pushes = {p.begin for p in placements(view)}
    last_check: tuple[int, bool] | None = None  # (entry, performed something) of the latest check since a boundary
    last_push: int | None = None
    entries = view.entries
    for i in view.indexes_of("sba_check", "stack_push", *BOUNDARIES):  # the kinds this rule reads, in trace order
        entry = entries[i]
        kind = entry["kind"]
        if kind == "sba_check":
            events = performed.get(entry["id"], [])
            dying, losing = due[i]
            if not events and not dying and not losing:
                last_check = (i, False)  # nothing due and nothing done: nothing below can fail (the common case)
                continue
            left_battlefield = {e["subject"] for e in events if e["type"] == "leave"}
            players_left = [e["player"] for e in events if e["type"] == "player_leaves"]
            owned_by_losers = {o for o in left_battlefield if cat.owner_of.get(o) in losing}
            elsewhere = {e["subject"] for e in events if e["type"] == "leave" and e["subject"] in dying
                         and e.get("to") != "graveyard"}
            for obj in sorted(elsewhere):
                found.append(f"state-based actions check {entry['id']} (entry {i}) moved {obj} elsewhere than its "
                             f"owner's graveyard (704.5g)")
            for obj in dying:
                if obj not in left_battlefield:
                    found.append(f"state-based actions check {entry['id']} (entry {i}) did not put {obj} into its "
                                 f"owner's graveyard, though a state-based action applied to it")
            for obj in sorted(left_battlefield - set(dying) - owned_by_losers):
                found.append(f"state-based actions check {entry['id']} (entry {i}) removed {obj} from the battlefield "
                             f"without a state-based action applying to it")
            if sorted(players_left) != sorted(losing):
                found.append(f"state-based actions check {entry['id']} (entry {i}) made players {players_left} leave "
                             f"the game, but the players at 0 or less life were {losing}")
            last_check = (i, bool(events))
        elif kind == "stack_push":
            if i in first_pushes and any(due.get(i, ((), ()))):
                found.append(_pending(view, i, due[i], f"trigger {entry['trigger']} was put on the stack"))
            if last_check is None:
                found.append(f"trigger {entry['trigger']} was put on the stack at entry {i} without state-based "
                             f"actions being checked first")
            elif last_check[1]:
                found.append(f"trigger {entry['trigger']} was put on the stack at entry {i} right after state-based "
                             f"actions were performed (entry {last_check[0]}); the check must be repeated first")
            last_push = i
        elif kind == "priority":
            if any(due.get(i, ((), ()))):
                found.append(_pending(view, i, due[i], f"{entry['player']} received priority"))
            if last_check is None or (last_push is not None and last_check[0] < last_push):
                found.append(f"{entry['player']} received priority at entry {i} without state-based actions being "
                             f"checked after the last trigger went on the stack")
            elif last_check[1]:
                found.append(f"{entry['player']} received priority at entry {i} right after state-based actions were "
                             f"performed (entry {last_check[0]}); the check must be repeated until none applies")
        if kind in BOUNDARIES:
            last_check, last_push = None, None
    return found
