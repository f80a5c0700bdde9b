"""MTG 800.4a: when a player leaves the game, the objects they control on the stack that are not cards (their
triggered abilities) cease to exist at once; the rest of the stack keeps its order (checked by mtg.stack-lifo).
Abilities of theirs waiting to go on the stack cease with them, and nothing triggers for them afterwards."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.model import OUT_OF_GAME
from reference_engine.mtg.judge.observations import PASSES, catalog, describe, replay
from reference_engine.kernel.traceview import TraceView, streamed

MOVING_ON = frozenset({"event", "stack_push", "resolve_begin", "resolve_end", "priority", "sba_check", "step_advance",
                       "action_end", "delayed_create"})


@streamed("trigger", "stack_push", "resolve_begin", "resolve_end", "removed", "event")
def _departures(view: TraceView):
    """(player, last entry of the leaving group, their abilities waiting or on the stack then, other stack objects)
    (streamed)."""
    waiting: set[str] = set()
    stack: list[str] = []
    resolving = None
    groups = {g.first: g for g in replay(view).groups}
    out: list[tuple[str, int, list[str], list[str]]] = []

    def see(i: int, entry: dict) -> None:
        nonlocal resolving
        kind = entry["kind"]
        if kind == "trigger":
            waiting.add(entry["id"])
        elif kind == "stack_push":
            waiting.discard(entry["trigger"])
            stack.append(entry["trigger"])
        elif kind == "resolve_begin":
            resolving = entry["trigger"]
        elif kind in ("resolve_end", "removed"):
            waiting.discard(entry["trigger"])
            if entry["trigger"] in stack:
                stack.remove(entry["trigger"])
            if kind == "resolve_end":
                resolving = None
        elif kind == "event" and i in groups:
            for event in groups[i].events:
                if event["type"] == "player_leaves":
                    player = event["player"]
                    theirs = [t for t in sorted(waiting) + stack
                              if view.triggers.get(t, {}).get("controller") == player and t != resolving]
                    out.append((player, groups[i].last, theirs, [t for t in stack if t not in theirs]))

    return see, lambda: out


def _departures_whole(view: TraceView) -> list[str]:
    """800.4a: the objects a leaving player owns leave the game, and control effects giving them objects end, in the
    very event of their departure, not one after another; and no control returns to an owner in that event but that
    of an object a leaving player controlled (off the battlefield an object is its owner's already, 108.4a)."""
    cat = catalog(view)
    found = []
    for group in replay(view).groups:
        all_returned: set[str] = set()
        leavers = []
        for event in group.events:
            if event["type"] != "player_leaves" or not group.before.present(event.get("player")):
                continue
            player = event["player"]
            moving = {e.get("subject") for e in group.events if e["type"] in ("enter", "leave", "move")
                      and e.get("to") != OUT_OF_GAME}
            owned, returned = cat.departure(player, group.before, moving)
            gone = {e["subject"] for e in group.events if e["type"] in ("leave", "move") and e.get("to") == OUT_OF_GAME}
            handed = {e["subject"] for e in group.events if e["type"] == "control"
                      and e.get("controller") == cat.owner_of.get(e.get("subject"))}
            for thing in sorted(owned - gone):
                found.append(f"{player} left the game ({view.describe_event(event['id'])}) but {thing}, which they own, "
                             f"did not leave the game in that same event")
            for thing in sorted(returned - handed):
                found.append(f"{player} left the game ({view.describe_event(event['id'])}) but control of {thing} did "
                             f"not return to its owner in that same event")
            all_returned |= returned
            leavers.append((player, event["id"], handed))
        if leavers:
            player, event_id, handed = leavers[0]
            for thing in sorted(handed - all_returned):
                found.append(f"{player} left the game ({view.describe_event(event_id)}) and control of {thing} returned "
                             f"to its owner in that same event, but no player leaving then controlled it")
    return found


def _delayed_with_the_player(view: TraceView, left_at: dict[str, int]) -> list[str]:
    """Option departed_delayed: under ``cease`` a delayed triggered ability whose controller leaves ends then
    (``delayed_end`` for player_left before anything else moves on), under ``persist`` it does not end for that
    reason; under either, a delayed ability ends for player_left only if its controller did leave."""
    cease = view.options.get("departed_delayed", "cease") == "cease"
    entries = view.entries
    # A reflexive ability triggers (or not) the moment it is created: it never waits, so nothing of it is left.
    created = {entries[i]["id"]: (i, entries[i]) for i in view.by_kind["delayed_create"]
               if not entries[i].get("reflexive")}
    ended = {entries[i]["delayed"]: i for i in view.by_kind["delayed_end"]}
    found = []
    for delayed, (made, entry) in created.items():
        player, end = entry["controller"], ended.get(delayed)
        left = left_at.get(player)
        reason = entries[end]["reason"] if end is not None else None
        if reason == "player_left" and (left is None or end < left or not cease):
            found.append(f"delayed triggered ability {delayed} ({entry['ability']}) ended at entry {end} because its "
                         f"controller left, but " + ("the option departed_delayed=persist keeps it" if left is not None
                                                     and not cease else f"{player} had not left the game"))
        if not cease or left is None or made > left or (end is not None and end < left):
            continue
        deadline = next((j for j in range(left + 1, len(entries)) if entries[j]["kind"] in MOVING_ON), len(entries))
        if reason != "player_left" or not left < end < deadline:
            found.append(f"delayed triggered ability {delayed} ({entry['ability']}) of {player} did not end when they "
                         f"left the game (entry {left}; option departed_delayed=cease)")
    return found


@invariant(
    passes=(*PASSES, _departures),
    key="mtg.player-leaves",
    ruleset="mtg",
    rules={"2026-02-27": "800.4a", "2021-02-24": "800.4a"},
    summary="A player who leaves the game takes the objects they own with them in that same event, and their triggered "
    "abilities cease to exist at once; nothing of theirs goes on the stack, resolves or triggers afterwards.",
    exercised=lambda view: sum(1 for _, _, theirs, others in _departures(view) if theirs or others),
)
def player_leaves(view: TraceView) -> list[str]:
    found = []
    entries = view.entries
    left_at: dict[str, int] = {}
    for player, last, theirs, _ in _departures(view):
        left_at.setdefault(player, last)
        deadline = next((j for j in range(last + 1, len(entries)) if entries[j]["kind"] in MOVING_ON), len(entries))
        for t in theirs:
            removed = view.unresolved.get(t)
            if removed is None or entries[removed]["reason"] != "player_left" or not last < removed < deadline:
                found.append(f"{describe(view, t)} did not cease to exist when {player} left the game (entry {last})")
    found += _departures_whole(view)
    found += _delayed_with_the_player(view, left_at)
    for t, removed in view.unresolved.items():
        if entries[removed]["reason"] == "player_left":
            controller = view.triggers[t]["controller"]
            if controller not in left_at or removed < left_at[controller]:
                found.append(f"{describe(view, t)} was removed because its controller left, but {controller} had not "
                             f"left the game")
    for i in view.indexes_of("trigger", "stack_push", "resolve_begin"):
        entry = entries[i]
        kind = entry["kind"]
        t = entry.get("id") if kind == "trigger" else entry.get("trigger")
        if t not in view.triggers:
            continue
        controller = view.triggers[t]["controller"]
        if controller in left_at and i > left_at[controller]:
            what = {"trigger": "triggered", "stack_push": "went on the stack", "resolve_begin": "resolved"}[kind]
            found.append(f"{describe(view, t)} {what} at entry {i}, after its controller {controller} left the game")
    return found
