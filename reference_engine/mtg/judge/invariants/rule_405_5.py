"""MTG 405.5 (with 117.4): when every player passes in succession, the top (last-added) object of the stack
resolves; with an empty stack the step ends. Resolution starts only once a player has received priority."""

from __future__ import annotations

from typing import NamedTuple

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.activated import activations
from reference_engine.mtg.judge.observations import PASSES, RESOLUTION_REMOVALS
from reference_engine.kernel.traceview import TraceView, streamed


class StackAt(NamedTuple):
    """The stack just before a departure: its size, its top, and whether the departing object was on it (no copy of
    the whole stack per departure: that would cost departures x stack size on a long trace)."""

    size: int
    top: str | None
    holds: bool


@streamed("stack_push", "resolve_begin", "removed", "resolve_end", "step_advance", "activate",
          "activated_resolve_begin", "activated_resolve_end", "activated_removed")
def _walk(view: TraceView):
    """Replay the stack of trigger instances and activated abilities (602.2a: an ``activate`` entry puts one on
    top): (entry index, what left, :class:`StackAt`) for each departure by resolution, and (entry index, None, the
    stack as a list) for each end of a step (streamed)."""
    stack: list[str] = []
    on: dict[str, int] = {}  # trigger -> how many times it is on the stack
    out: list[tuple[int, str | None, StackAt | list[str]]] = []

    def leave(trigger: str) -> None:
        count = on.get(trigger)
        if count:
            if count == 1 and stack[-1] == trigger:
                stack.pop()  # the usual case, in constant time
            else:
                stack.remove(trigger)
            on[trigger] = count - 1

    def see(i: int, entry: dict) -> None:
        kind = entry["kind"]
        if kind in ("stack_push", "activate"):
            pushed = entry["trigger"] if kind == "stack_push" else entry["id"]
            stack.append(pushed)
            on[pushed] = on.get(pushed, 0) + 1
        elif kind == "activated_resolve_begin":
            a = entry["activated"]
            out.append((i, a, StackAt(len(stack), stack[-1] if stack else None, bool(on.get(a)))))
        elif kind in ("activated_resolve_end", "activated_removed"):
            leave(entry["activated"])
        elif kind == "resolve_begin" or (kind == "removed" and entry["reason"] in RESOLUTION_REMOVALS):
            trigger = entry["trigger"]
            out.append((i, trigger, StackAt(len(stack), stack[-1] if stack else None, bool(on.get(trigger)))))
            if kind == "removed":
                leave(trigger)
        elif kind == "resolve_end" or kind == "removed":
            leave(entry["trigger"])
        else:  # step_advance
            out.append((i, None, list(stack)))

    return see, lambda: out


def _departed_activations(view: TraceView) -> list[str]:
    """800.4a both ways: an activated ability whose controller has left the game leaves the stack
    (``activated_removed``, reason ``player_left``) and never resolves; no other one is removed."""
    found = []
    player = {a: e["player"] for a, (_, e) in activations(view).items()}
    left_at = {}
    for i in view.by_kind["event"]:
        entry = view.entries[i]
        if entry["type"] == "player_leaves" and entry.get("player") not in left_at:
            left_at[entry.get("player")] = i
    for kind in ("activated_resolve_begin", "activated_removed"):
        for i in view.by_kind.get(kind, ()):
            a = view.entries[i]["activated"]
            gone = left_at.get(player.get(a), len(view.entries)) < i
            if kind == "activated_removed" and not gone:
                found.append(f"activated ability {a} was removed from the stack at entry {i}, but its controller "
                             f"{player.get(a)} had not left the game (only that removes it, 800.4a)")
            elif kind == "activated_resolve_begin" and gone:
                found.append(f"activated ability {a} started resolving at entry {i} though its controller "
                             f"{player.get(a)} had left the game (800.4a: it ceased to exist)")
    return found


def _unfinished_script(view: TraceView) -> list[str]:
    """Each step of the script ends (the stack empty, every player passing) unless the game ended first (104.4b)."""
    if view.by_kind.get("game_over"):
        return []
    ended = [view.entries[i]["from"] for i in view.step_advances]
    wanted = list(range(len(view.scenario["script"])))
    if ended != wanted:
        return [f"the steps that ended were {ended}, not every step of the script in order ({wanted}): with all players "
                f"passing and the stack empty, each step ends and the next begins"]
    return []


@invariant(
    passes=(*PASSES, _walk),
    key="mtg.stack-lifo",
    ruleset="mtg",
    rules={"2026-02-27": "405.5", "2021-02-24": "405.5"},
    summary="The stack resolves last in, first out, one object each time every player has passed priority; the step "
    "ends only with an empty stack, and every step of the script ends.",
    exercised=lambda view: sum(1 for _, t, stack in _walk(view) if t is not None and stack.size > 1),
)
def stack_lifo(view: TraceView) -> list[str]:
    found = _unfinished_script(view) + _departed_activations(view)
    for i, trigger, stack in _walk(view):
        if trigger is None:
            if stack:
                found.append(f"the step ended at entry {i} with {', '.join(stack)} still on the stack")
            continue
        if stack.top != trigger:
            where = "was not on the stack" if not stack.holds else f"was not on top ({stack.top or 'nothing'} was)"
            found.append(f"{trigger} started resolving at entry {i} but {where}")
        previous = view.entries[i - 1]["kind"] if i > 0 else None
        if previous != "priority":
            found.append(f"{trigger} started resolving at entry {i} without every player having passed priority "
                         f"(the entry before is {previous})")
    return found
