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
    watchers = {(s, a["id"]): a for s, a in catalog(view).state_watchers}
    if not watchers:
        return [], 0
    return _StateWalk(view, watchers).walk()


class _StateWalk:
    """One :func:`_state_walk`: the game as the trace goes, the live instance of each state trigger, and the state
    triggers due since the last check point (each must trigger before the game moves on)."""

    def __init__(self, view: TraceView, watchers: dict):
        self.view = view
        self.cat = catalog(view)
        self.watchers = watchers
        self.found: list[str] = []
        self.held_back = 0
        self.groups = {g.first: g for g in replay(view).groups}
        self.at = replay(view).at
        self.live: dict[tuple[str, str], str] = {}
        self.expect: set[tuple[str, str]] = set()
        self.loop: list[tuple[str, str]] = []  # state triggers that would now trigger forever (104.4b)
        self.board = Board.opening(view.scenario)
        self.departing = False  # a removal for a departure (800.4a) freed a state trigger: checked once it is over
        self.departure_end = -1  # the last removal belonging to the latest departure

    def check_point(self, futile: tuple[tuple[str, str], Board] | None = None) -> None:
        self.expect = set()
        for key, spec in self.watchers.items():
            if self.cat.state_due(key[0], spec, self.board):
                if key in self.live:
                    self.held_back += 1
                elif futile is not None and futile[0] == key and futile[1] == self.board:
                    self.loop.append(key)
                else:
                    self.expect.add(key)

    def flush(self, i: int) -> None:
        if not self.expect:
            return
        for source, ability in sorted(self.expect):
            self.found.append(f"the state of ability {ability} of {source} held (checked before entry {i}) and no "
                              f"instance of it was waiting or on the stack, yet it did not trigger")
        self.expect.clear()

    def walk(self) -> tuple[list[str], int]:
        self.check_point()
        entries = self.view.entries
        i = 0
        while i < len(entries):
            entry = entries[i]
            kind = entry["kind"]
            if self.departing and i > self.departure_end:
                self.departing = False
                self.check_point()
            if self.expect and kind in PROGRESS_KINDS and not _departure_removal(entry):
                self.flush(i)  # (nothing to flush without an expected trigger: the common case, no call)
            if kind == "event" and i in self.groups:
                i = self.events(i)
                continue
            if kind == "game_over":
                self.found.append(f"the game ended at entry {i} ({entry.get('result')}, {entry.get('reason')}) "
                                  f"though no state trigger was looping")
                return self.found, self.held_back
            if kind == "trigger":
                self.triggered(i, entry)
            elif kind in ("resolve_end", "removed") and self.left_stack(i, entry):
                return self.found, self.held_back
            i += 1
        if self.departing:
            self.check_point()
        self.flush(len(entries))
        return self.found, self.held_back

    def events(self, i: int) -> int:
        """A group of events starting at entry ``i``: the game after it is checked. Returns the entry after it."""
        group = self.groups[i]
        self.board = group.after
        leavers = {e.get("player") for e in group.events if e["type"] == "player_leaves"}
        if leavers:
            self.departure_end = _departure_end(self.view, group.last, leavers)
        self.check_point()
        return group.last + 1

    def triggered(self, i: int, entry: dict) -> None:
        key = (entry["source"], entry["ability"])
        if key not in self.watchers or "delayed" in entry:
            return
        if key in self.expect:
            self.expect.discard(key)
        elif key in self.live:
            self.found.append(f"{entry['id']} (state trigger {key[1]} of {key[0]}) triggered at entry {i} while "
                              f"{self.live[key]} had not yet left the stack")
        else:
            self.found.append(f"{entry['id']} (state trigger {key[1]} of {key[0]}) triggered at entry {i} though its "
                              f"state (or its intervening 'if') did not hold, its source was not where the ability "
                              f"works, or it would have looped (104.4b)")
        self.live[key] = entry["id"]

    def left_stack(self, i: int, entry: dict) -> bool:
        """A trigger instance resolved or was removed: its state trigger is checked again (after a departure, once the
        departure is over). True when the game would now loop forever (the walk ends with that verdict)."""
        t = entry["trigger"]
        trig = self.view.triggers.get(t)
        key = (trig["source"], trig["ability"]) if trig else None
        if key not in self.live or self.live[key] != t:
            return False
        del self.live[key]
        if _departure_removal(entry) and i <= self.departure_end:
            self.departing = True
            self.expect = set()
            return False
        futile = None
        if entry["kind"] == "removed" and entry["reason"] == "no_target":
            futile = (key, self.at[self.view.trigger_index[t]])  # the game when that instance triggered
        self.check_point(futile)
        if self.loop:
            self.found += _loop_verdict(self.view, i, self.loop)
            return True
        return False


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
