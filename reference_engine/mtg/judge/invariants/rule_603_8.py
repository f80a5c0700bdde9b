"""MTG 603.8: a state trigger triggers as soon as its game state holds, and does not trigger again until that
instance has left the stack (resolved, been countered or removed); then, if its source is still where it works and
the state still holds, it triggers again. With 603.4, its intervening "if" must hold too (a state trigger whose
condition has become false does not trigger). With 800.4a, a player's departure is one moment: the removals of
their abilities are checked as a whole, after which the state is checked once. With 603.3d and 104.4b: an instance
removed for want of a legal target leaves the stack like any other, and its state is checked again at once; if the
game is then exactly as it was when that instance triggered, the trigger would be put on and removed forever, an
endless loop nobody can break by a choice, so 104.4b ends the game as a draw (a ``game_over`` entry, draw, mandatory_loop),
and nothing happens after it. A game that ends otherwise, or that loops on without ending, breaks the rule."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView, memoized
from reference_engine.mtg.judge.model import Board
from reference_engine.mtg.judge.observations import PROGRESS_KINDS, catalog, game_over_at, replay


def _departure_removal(entry: dict) -> bool:
    return entry["kind"] == "removed" and entry["reason"] == "player_left"


@memoized
def _state_walk(view: TraceView) -> tuple[list[str], int]:
    """Replay state triggers: (violations, occasions where a live instance kept the state from triggering again)."""
    cat = catalog(view)
    watchers = {(s, a["id"]): a for s, a in cat.state_watchers}
    if not watchers:
        return [], 0
    found: list[str] = []
    held_back = 0
    groups = {g.first: g for g in replay(view).groups}
    at = replay(view).at
    live: dict[tuple[str, str], str] = {}
    expect: set[tuple[str, str]] = set()
    loop: list[tuple[str, str]] = []  # state triggers that would now trigger forever (104.4b)

    def check_point(board: Board, futile: tuple[tuple[str, str], Board] | None = None) -> None:
        nonlocal held_back, expect
        expect = set()
        for key, spec in watchers.items():
            if cat.state_due(key[0], spec, board):
                if key in live:
                    held_back += 1
                elif futile is not None and futile[0] == key and futile[1] == board:
                    loop.append(key)
                else:
                    expect.add(key)

    def flush(i: int) -> None:
        if not expect:
            return
        for source, ability in sorted(expect):
            found.append(f"the state of ability {ability} of {source} held (checked before entry {i}) and no instance "
                         f"of it was waiting or on the stack, yet it did not trigger")
        expect.clear()

    board = Board.opening(view.scenario)
    check_point(board)
    entries = view.entries
    i = 0
    departing = False  # a removal for a departure (800.4a) freed a state trigger: checked once the departure is over
    departure_end = -1  # the last removal belonging to the latest departure
    while i < len(entries):
        entry = entries[i]
        kind = entry["kind"]
        if departing and i > departure_end:
            departing = False
            check_point(board)
        if kind in PROGRESS_KINDS and not _departure_removal(entry):
            flush(i)
        if kind == "event" and i in groups:
            board = groups[i].after
            leavers = {e.get("player") for e in groups[i].events if e["type"] == "player_leaves"}
            if leavers:
                departure_end = _departure_end(view, groups[i].last, leavers)
            check_point(board)
            i = groups[i].last + 1
            continue
        if kind == "game_over":
            found.append(f"the game ended at entry {i} ({entry.get('result')}, {entry.get('reason')}) though no "
                         f"state trigger was looping")
            return found, held_back
        if kind == "trigger":
            key = (entry["source"], entry["ability"])
            if key in watchers and "delayed" not in entry:
                if key in expect:
                    expect.discard(key)
                elif key in live:
                    found.append(f"{entry['id']} (state trigger {key[1]} of {key[0]}) triggered at entry {i} while "
                                 f"{live[key]} had not yet left the stack")
                else:
                    found.append(f"{entry['id']} (state trigger {key[1]} of {key[0]}) triggered at entry {i} though its "
                                 f"state (or its intervening 'if') did not hold, its source was not where the ability "
                                 f"works, or it would have looped (104.4b)")
                live[key] = entry["id"]
        elif kind in ("resolve_end", "removed"):
            t = entry["trigger"]
            trig = view.triggers.get(t)
            key = (trig["source"], trig["ability"]) if trig else None
            if key in live and live[key] == t:
                del live[key]
                if _departure_removal(entry) and i <= departure_end:
                    departing = True
                    expect = set()
                    i += 1
                    continue
                futile = None
                if kind == "removed" and entry["reason"] == "no_target":
                    futile = (key, at[view.trigger_index[t]])  # the game when that instance triggered
                check_point(board, futile)
                if loop:
                    found += _loop_verdict(view, i, loop)
                    return found, held_back
        i += 1
    if departing:
        check_point(board)
    flush(len(entries))
    return found, held_back


def _departure_end(view: TraceView, last: int, leavers: set) -> int:
    """The last removal of a leaving player's triggered abilities that belongs to their departure (before the game
    moves on to anything else): their removals, and the state check after them, are one moment."""
    end = last
    for j in range(last + 1, len(view.entries)):
        entry = view.entries[j]
        if _departure_removal(entry):
            if view.triggers.get(entry["trigger"], {}).get("controller") in leavers:
                end = j
        elif entry["kind"] in PROGRESS_KINDS:
            break
    return end


def _loop_verdict(view: TraceView, i: int, loop: list[tuple[str, str]]) -> list[str]:
    """After entry ``i`` a state trigger would trigger again in the very game it was removed in: 104.4b."""
    end = game_over_at(view)
    source, ability = loop[0]
    what = (f"state trigger {ability} of {source} was removed for want of a legal target at entry {i} and would "
            f"trigger again in exactly the same game (a loop of mandatory actions, 104.4b)")
    if end is None:
        return [f"{what}, yet the game did not end in a draw"]
    entry = view.entries[end]
    problems = []
    if (entry.get("result"), entry.get("reason")) != ("draw", "mandatory_loop"):
        problems.append(f"{what}; the game ended at entry {end} with {entry.get('result')}/{entry.get('reason')}, "
                        f"not a draw for a mandatory loop")
    moved_on = [j for j in range(i + 1, end) if view.entries[j]["kind"] in PROGRESS_KINDS | {"trigger"}]
    if moved_on:
        problems.append(f"{what}, but the game went on (entry {moved_on[0]}) before ending in a draw at entry {end}")
    if end != len(view.entries) - 1:
        problems.append(f"the game ended at entry {end}, yet entries follow it")
    return problems


@invariant(
    passes=PASSES,
    key="mtg.state-trigger",
    ruleset="mtg",
    rules={"2026-02-27": "603.8", "2021-02-24": "603.8"},
    summary="A state trigger triggers as soon as its state (and its intervening 'if') holds, and not again until that "
    "instance has left the stack; one that would trigger again forever for want of a legal target ends the game in "
    "a draw (104.4b).",
    exercised=lambda view: _state_walk(view)[1],
)
def state_trigger(view: TraceView) -> list[str]:
    return list(_state_walk(view)[0])
