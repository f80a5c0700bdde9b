"""What the Redemption invariants observe in a trace, derived from the trace alone and computed once per trace.

One pass (:func:`replay`) replays zones and control from the events, and follows every trigger instance from the
moment it arises (pending) to its turn (it resolves, or is removed when its turn comes: declined, card gone, card
left) or its removal out of turn (negated, expired). It also rebuilds which pending triggers became free together
(a *batch*), under the reading that option ``trigger_during_resolution`` selects:

* ``after-pending``: when nothing is free to activate, every pending trigger becomes free together; triggers that
  arise meanwhile wait until that batch is used up.
* ``before-pending``: when a trigger takes its turn, the triggers that arose since the previous turn (during the
  last resolution, or during the scripted action) become free together, ahead of the batches already free.

Each batch remembers when each of its triggers left it (:attr:`Batch.left`), so that the ordering rules (TA.4, TA.5)
know which triggers were still waiting at each turn (:func:`ordered_pairs`), also those that never take their turn
(negated or lapsed meanwhile), without a list of them per turn (quadratic in a batch's size). The holder expected for a
card's trigger about its own change of control follows option ``control_change_holder``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.vocabulary import IN_PLAY, ZoneTracker
from reference_engine.kernel.traceview import TraceView, memoized, streamed

PRESENT = frozenset({IN_PLAY, "set_aside"})
TURN_REASONS = frozenset({"declined", "source_gone", "card_left"})  # removals that use up a trigger's turn
SPAN_OPEN = {"action_begin": "action_end", "activation_begin": "activation_end", "resolve_begin": "resolve_end"}
AFTER_PENDING = "after-pending"
NEW_CONTROLLER, OLD_CONTROLLER = "new-controller", "old-controller"
# Why a trigger may leave without resolving, in Redemption (TA.3, TA.5); any other reason is another game's.
REDEMPTION_REASONS = frozenset({"declined", "source_gone", "card_left", "negated", "expired"})


@dataclass
class Batch:
    """Pending triggers that became free to activate together; ``taken`` lists those that took their turns in their
    place, in that order; ``left`` maps each member that left the batch (its turn, in its place or not, or its removal
    out of turn) to the entry index where it left, in the order they left (one member per entry)."""

    number: int
    members: list[str]
    remaining: dict[str, None]  # the members still waiting, in their order (a dict: found and removed at once)
    taken: list[str] = field(default_factory=list)
    left: dict[str, int] = field(default_factory=dict)

    def waiting_at(self, index: int, besides: str = "") -> tuple[str, ...]:
        """The members still waiting at entry ``index`` (none left at it or before), other than ``besides``, in
        their order in the batch."""
        left = self.left
        return tuple(m for m in self.members if m != besides and left.get(m, index + 1) > index)


@dataclass(frozen=True)
class Turn:
    """Trigger ``trigger`` took its turn at entry ``index``; ``batch`` is the batch that was free then."""

    trigger: str
    index: int
    batch: Batch | None
    in_place: bool  # the trigger belonged to the batch that was free
    inside_span: bool  # an action, activation or resolution was still open (that is red.no-cutting-in's business)

    @property
    def waiting(self) -> tuple[str, ...]:
        """The free batch's other triggers still waiting at that moment (computed when asked, from the batch)."""
        return self.batch.waiting_at(self.index, self.trigger) if self.batch is not None else ()


@dataclass(frozen=True)
class State:
    zones: dict[str, str]
    controllers: dict[str, str]

    def present(self, card: str) -> bool:
        return self.zones.get(card) in PRESENT


@dataclass
class Replay:
    expected: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)  # event -> (source, ability, controller)
    state_at: dict[int, State] = field(default_factory=dict)  # entry index -> state, at turns, removals, activations, advances
    turns: dict[str, Turn] = field(default_factory=dict)
    batches: list[Batch] = field(default_factory=list)
    # event/step_advance index -> triggers pending then (read-only: entries with the same pending share one tuple)
    pending_at: dict[int, tuple[str, ...]] = field(default_factory=dict)
    arose_inside: dict[str, bool] = field(default_factory=dict)  # trigger -> arose while a resolution was open
    arose_with_others_pending: dict[str, bool] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=dict)  # trigger -> entry index of its turn or removal
    final: State | None = None


def ability(view: TraceView, trigger: str) -> dict[str, Any]:
    """The scenario ability of a trigger instance ({} if the trace names one that does not exist)."""
    return view.ability_of(trigger) or {}


@memoized
def optional_triggers(view: TraceView) -> frozenset[str]:
    """The trigger instances of optional abilities (every other instance is mandatory)."""
    return frozenset(t for t in view.triggers if ability(view, t).get("optional"))


def is_optional(view: TraceView, trigger: str) -> bool:
    return trigger in optional_triggers(view)


@streamed("event", "trigger", "action_end", "activation_end", "resolve_end", "removed", "step_advance", *SPAN_OPEN)
def replay(view: TraceView):
    """The :class:`Replay` of a trace: zones, control, pending triggers, batches and turns, entry by entry (streamed)."""
    walk = _ReplayWalk(view)
    return walk.see, walk.finish


class _ReplayWalk:
    """One :func:`replay` in progress: the zones and control so far, the pending triggers, the batches and the open
    spans (actions, activations, resolutions)."""

    def __init__(self, view: TraceView):
        self.view = view
        self.out = Replay()
        self.tracker = ZoneTracker(view.scenario)
        self.controllers = {obj["id"]: obj.get("controller", obj["owner"]) for obj in view.scenario["objects"]}
        self.after_pending = view.options.get("trigger_during_resolution", AFTER_PENDING) == AFTER_PENDING
        # Option control_change_holder: who holds a card's trigger about that card's own change of control.
        self.look_back_control = view.options.get("control_change_holder", NEW_CONTROLLER) == OLD_CONTROLLER
        self.pending: dict[str, None] = {}  # in the order they arose (a dict: found and removed at once)
        self.fresh: list[str] = []
        self.batches: list[Batch] = []
        self.spans: list[tuple[str, str]] = []  # open spans: (closing kind, id)
        self.pending_now: tuple[str, ...] | None = ()  # ``pending`` as a tuple; None once it changed
        self.state: State | None = None  # the zones and control since the last change, once a snapshot needs it

    def snapshot(self, i: int) -> None:
        # Entries with nothing moved or changing hands between them share one State (treated as read-only): a copy
        # per entry would cost entries x cards on a long trace.
        if self.state is None:
            self.state = State(dict(self.tracker.zones), dict(self.controllers))
        self.out.state_at[i] = self.state

    def pending_snapshot(self) -> tuple[str, ...]:
        # Entries with no trigger arising or leaving between them share one read-only tuple (a copy per event would
        # cost events x pending triggers).
        if self.pending_now is None:
            self.pending_now = tuple(self.pending)
        return self.pending_now

    def leave_batches(self, trigger: str, i: int) -> None:
        if trigger in self.fresh:
            self.fresh.remove(trigger)
        for batch in self.batches:
            if trigger in batch.remaining:
                del batch.remaining[trigger]
                batch.left[trigger] = i

    def current_batch(self) -> Batch | None:
        out, batches = self.out, self.batches
        if self.after_pending:
            current = batches[-1] if batches and batches[-1].remaining else None
            if current is None and self.fresh:
                current = Batch(len(out.batches), list(self.fresh), dict.fromkeys(self.fresh))
                batches.append(current)
                out.batches.append(current)
                self.fresh = []
            return current
        if self.fresh:
            batch = Batch(len(out.batches), list(self.fresh), dict.fromkeys(self.fresh))
            batches.append(batch)
            out.batches.append(batch)
            self.fresh = []
        return next((b for b in reversed(batches) if b.remaining), None)

    def see(self, i: int, entry: dict[str, Any]) -> None:
        kind = entry["kind"]
        if kind == "event":
            self.event(i, entry)
        elif kind == "trigger":
            t = entry["id"]
            self.out.arose_inside[t] = any(close == "resolve_end" for close, _ in self.spans)
            self.out.arose_with_others_pending[t] = bool(self.pending)
            self.pending[t] = None
            self.pending_now = None
            self.fresh.append(t)
        elif kind in SPAN_OPEN:
            if kind != "action_begin":
                self.snapshot(i)
            if kind == "resolve_begin":
                self.turn(entry["trigger"], i)
            self.spans.append((SPAN_OPEN[kind], entry.get("trigger") or entry.get("id") or str(entry.get("action"))))
        elif kind in ("action_end", "activation_end", "resolve_end"):
            spans = self.spans
            for k in range(len(spans) - 1, -1, -1):
                if spans[k][0] == kind:
                    del spans[k:]
                    break
        elif kind == "removed":
            self.snapshot(i)
            t = entry["trigger"]
            if entry["reason"] in TURN_REASONS:
                self.turn(t, i)
            elif t in self.pending:
                del self.pending[t]
                self.pending_now = None
                self.leave_batches(t, i)
                self.out.ends.setdefault(t, i)
        elif kind == "step_advance":
            self.snapshot(i)
            self.out.pending_at[i] = self.pending_snapshot()

    def event(self, i: int, entry: dict[str, Any]) -> None:
        """The abilities ``entry`` makes due (their controllers judged as the event happens), and its changes."""
        controllers = self.controllers
        self.out.pending_at[i] = self.pending_snapshot()
        before = self.tracker.apply(entry)
        previous = None
        if entry["type"] == "control" and entry.get("subject") in controllers and entry.get("controller"):
            previous = controllers[entry["subject"]]
            controllers[entry["subject"]] = entry["controller"]
        if before or previous is not None:
            self.state = None
        self.out.expected[entry["id"]] = [
            (source, ab["id"], previous if previous is not None and self.look_back_control
             and source == entry["subject"] else controllers.get(source))
            for source, ab in self.tracker.satisfied_abilities(entry, self.view.scenario, before)
            if not ab.get("checks_on_play")
        ]

    def turn(self, trigger: str, i: int) -> None:
        if trigger not in self.pending:
            return  # a second turn of one instance: the structure check reports it
        batch = self.current_batch()
        in_place = batch is not None and trigger in batch.remaining
        if in_place:
            del batch.remaining[trigger]
            batch.taken.append(trigger)
            batch.left[trigger] = i
        else:
            self.leave_batches(trigger, i)
        del self.pending[trigger]
        self.pending_now = None
        self.out.turns[trigger] = Turn(trigger, i, batch, in_place, bool(self.spans))
        self.out.ends.setdefault(trigger, i)

    def finish(self) -> Replay:
        self.out.final = State(dict(self.tracker.zones), dict(self.controllers))
        return self.out


def seat_order(view: TraceView) -> dict[str, int]:
    """Player -> seat counted from the active player in turn order (0 is the active player)."""
    players = view.players
    start = players.index(view.active_player) if view.active_player in players else 0
    return {p: (n - start) % len(players) for n, p in enumerate(players)}


@memoized
def chooser(view: TraceView) -> ScenarioChooser:
    return ScenarioChooser(view.scenario)


def prefers(view: TraceView, player: str, first: str, second: str) -> bool | None:
    """Whether ``player``'s answers put trigger ``first`` strictly before ``second`` (None: the answers tie)."""
    # The scenario's answers rank each trigger by its own key, whoever asks and whatever else is offered
    # (ScenarioChooser.order_key): ``first`` goes strictly before ``second`` exactly when its key is smaller.
    c = chooser(view)
    a, b = c.order_key(view.triggers[first]), c.order_key(view.triggers[second])
    return None if a == b else a < b


def ordered_pairs(view: TraceView, batch: Batch):
    """Every (earlier, later) pair of a batch: ``earlier`` took its turn in its place while ``later``, free in the same
    batch, was still waiting. ``later`` may have taken its turn afterwards, or have left without one (negated, lapsed,
    or out of its place): the order it was due in holds whatever happened to it later (TA.4, TA.5).

    The definition, pair by pair (quadratic in the batch's size: the ordering rules walk a batch once instead,
    reference_engine/redemption/judge/invariants/_ordering.py)."""
    for t in batch.taken:
        for w in batch.waiting_at(batch.left[t], t):
            yield t, w


# The streamed observations above: every Redemption invariant declares them as its passes (with its own), so that the
# judge computes them all in the one pass over a trace that the rules of an edition share.
PASSES = (replay,)
