"""What the MTG invariants observe in a trace, derived from the trace alone and computed once per trace.

``replay`` walks the entries once, moving a :class:`~reference_engine.mtg.judge.model.Board` along the events:
it yields the groups of simultaneous events with the game just before and just after each, and the game as it
stood at every entry where a rule looks at it (a stack push, a resolution, a state-based actions check, a trigger,
a delayed ability's creation). ``placements`` is the judge's own account of 603.3b: which triggered abilities had
to go on the stack together, computed from what was waiting, never from how the engine grouped its pushes.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from typing import Any

from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.mtg.judge.activated import activated_spans
from reference_engine.mtg.judge.model import BOARD_KINDS, Board, Hit, Reading, looks_back_for, working_zones
from reference_engine.kernel.traceview import TraceView, memoized, streamed

SNAPSHOT_KINDS = frozenset({"stack_push", "resolve_begin", "removed", "sba_check", "trigger", "delayed_create",
                            "priority", "action_begin", "spell_resolve_begin", "spell_removed",
                            "activated_resolve_begin"})
RESOLUTION_REMOVALS = frozenset({"intervening_if", "illegal_target"})
# Entries that show the game has moved on: a trigger that had to appear "at once" must come before them.
PROGRESS_KINDS = frozenset({"event", "stack_push", "resolve_begin", "resolve_end", "removed", "priority", "sba_check",
                            "step_begin", "step_advance", "action_begin", "action_end", "delayed_create",
                            "activated_resolve_begin", "activated_resolve_end"})


@dataclass
class Group:
    """Simultaneous events (one event with several occurrences, or one alone), entries ``first``..``last``."""

    events: list[dict[str, Any]]
    first: int
    last: int
    before: Board
    after: Board


@dataclass
class Replay:
    groups: list[Group]
    group_of: dict[str, Group]  # event id -> its group
    at: dict[int, Board]  # entry index -> the game just before that entry (SNAPSHOT_KINDS only)
    final: Board


@memoized
def catalog(view: TraceView) -> Reading:
    return Reading(view.scenario, view.options)


@memoized
def chooser(view: TraceView) -> ScenarioChooser:
    return ScenarioChooser(view.scenario)


@memoized
def replay(view: TraceView) -> Replay:
    state = Board.opening(view.scenario)
    snapshot = state.clone()  # the game as it stands between groups (states are never changed once copied)
    groups: list[Group] = []
    group_of: dict[str, Group] = {}
    at: dict[int, Board] = {}
    entries = view.entries
    i, n = 0, len(entries)
    while i < n:
        entry = entries[i]
        kind = entry["kind"]
        if kind == "event":
            j = i
            tag = entry.get("group")
            while tag is not None and j + 1 < n and entries[j + 1]["kind"] == "event" and entries[j + 1].get("group") == tag:
                j += 1
            before = snapshot  # the game as it stood since the last group: nothing changed it since
            events = entries[i:j + 1]
            for event in events:
                state.step(event)
            if any(event["type"] in BOARD_KINDS for event in events):  # else the board is as it was: shared
                snapshot = state.clone()
            group = Group(events, i, j, before, snapshot)
            groups.append(group)
            for event in events:
                group_of[event["id"]] = group
            i = j + 1
            continue
        if kind in SNAPSHOT_KINDS:
            at[i] = snapshot
        i += 1
    return Replay(groups, group_of, at, state)


def state_at(view: TraceView, index: int) -> Board:
    return replay(view).at[index]


@memoized
def spans(view: TraceView) -> list[tuple[int, int, str]]:
    """(begin, end, what) of every resolution and scripted action: the stretches where nothing may interrupt."""
    out = [(b, e, f"trigger {t} resolving") for t, b, e in view.resolution_spans]
    begins = view.by_kind["action_begin"]
    ends = view.by_kind["action_end"]
    out += [(b, e, f"scripted action {view.entries[b]['action']}") for b, e in zip(begins, ends)]
    out += [(b, e, f"activated ability {a} resolving") for a, b, e in activated_spans(view)]
    return sorted(out)


@memoized
def _span_begins(view: TraceView) -> tuple[list[int], list[tuple[int, int, str]]]:
    """(the begin of each of :func:`spans`, the spans), for :func:`inside_span`: one lookup per question."""
    found = spans(view)
    return [begin for begin, _, _ in found], found


def inside_span(view: TraceView, index: int) -> tuple[int, int, str] | None:
    """The resolution or action ``index`` falls inside, if any (they never overlap in a well-formed trace)."""
    begins, found = _span_begins(view)
    k = bisect_left(begins, index) - 1
    if k >= 0:
        begin, end, what = found[k]
        if begin < index < end:
            return begin, end, what
    return None


def spec_of(view: TraceView, trigger_id: str) -> dict[str, Any] | None:
    """The ability a trigger instance stands for (see Catalog.ability), or None for an unknown instance or ability."""
    return _specs(view).get(trigger_id)


@memoized
def _specs(view: TraceView) -> dict[str, dict[str, Any] | None]:
    """Trigger id -> :func:`spec_of`, for every instance of the trace (rules ask tens of thousands of times)."""
    cat = catalog(view)
    return {t: cat.ability(trig["source"], trig["ability"], delayed="delayed" in trig) for t, trig in view.triggers.items()}


specs = _specs  # the whole table, for a rule asking spec_of for every instance in a loop


def game_over_at(view: TraceView) -> int | None:
    """Index of the ``game_over`` entry (the game ended before the script did, 104.4b), or None."""
    ends = view.by_kind.get("game_over") or []
    return ends[0] if ends else None


def ended_before(view: TraceView, index: int | None) -> bool:
    """Whether the game was over at ``index`` (None: the end of the trace): nothing is required after that."""
    end = game_over_at(view)
    return end is not None and (index is None or end < index)


@memoized
def pushes(view: TraceView) -> dict[str, int]:
    """Trigger id -> index of its (first) stack_push."""
    out: dict[str, int] = {}
    for i in view.by_kind["stack_push"]:
        out.setdefault(view.entries[i]["trigger"], i)
    return out



def first_after(sorted_indexes: list[int], index: int) -> int | None:
    k = bisect_right(sorted_indexes, index)
    return sorted_indexes[k] if k < len(sorted_indexes) else None


@memoized
def sba_performed(view: TraceView) -> dict[str, list[dict[str, Any]]]:
    """sba_check id -> the events it performed."""
    return {view.entries[i]["id"]: list(view.events_by_cause.get(("sba", view.entries[i]["id"]), ()))
            for i in view.by_kind["sba_check"]}



# Entries that end a placement of triggered abilities on the stack: the game has moved on to something else.
PLACEMENT_ENDS = frozenset({"sba_check", "priority", "resolve_begin", "resolve_end", "action_begin", "action_end",
                            "step_begin", "step_advance", "game_over"})


@dataclass
class Placement:
    """One run of 603.3b: triggered abilities put on the stack together, as the judge reckons it.

    ``begin`` is the first stack push after the game last moved on, ``end`` the entry that ends the run (a
    state-based actions check, priority, a resolution...; ``len(entries)`` if none). ``waiting`` are the trigger
    instances that had triggered and were neither on the stack nor removed when the run began: every one of them
    must be put on the stack in this run. ``pushed`` are the instances the engine put on the stack in it, in order.
    """

    begin: int
    end: int
    waiting: list[str]
    pushed: list[str]


def born_at(view: TraceView, trigger_id: str) -> int:
    """The entry at which the judge holds that a trigger instance triggered: the (last entry of the) group of its
    trigger event, for an object ability or a delayed ability; its own entry for a state trigger (603.8) or a
    reflexive ability (603.12, which triggers as it is created). An engine that records a trigger entry late does
    not thereby delay the triggering. KeyError for an id that is no trigger of the trace."""
    return _births(view)[trigger_id]


@memoized
def _births(view: TraceView) -> dict[str, int]:
    """Trigger id -> :func:`born_at`, for every trigger instance of the trace."""
    specs, made_by_kind, group_of = _specs(view), catalog(view).made_by_kind, replay(view).group_of
    out: dict[str, int] = {}
    for trigger_id, t in view.triggers.items():
        own = view.trigger_index[trigger_id]
        spec = specs.get(trigger_id)
        if t["event"] is None or spec is None or spec["trigger"]["event"] == "state":
            out[trigger_id] = own
        elif "delayed" in t and made_by_kind.get(t["ability"]) == "reflexive":
            out[trigger_id] = own
        else:
            group = group_of.get(t["event"])
            out[trigger_id] = min(own, group.last) if group is not None else own
    return out


@streamed("stack_push", "removed", *PLACEMENT_ENDS)
def placements(view: TraceView):
    """Every 603.3b run in the trace, with what had to go in it (see :class:`Placement`) (streamed)."""
    entries = view.entries
    birth = _births(view)
    births = sorted((birth[t], view.trigger_index[t], t) for t in view.triggers)
    born = 0  # births[:born] are the instances born before the current entry
    alive: dict[str, None] = {}  # born, neither put on the stack nor removed, in birth order
    gone: set[str] = set()  # put on the stack or removed
    out: list[Placement] = []
    current: Placement | None = None

    def see(i: int, entry: dict) -> None:
        nonlocal current, born
        kind = entry["kind"]
        if kind in PLACEMENT_ENDS and current is not None:
            current.end = i
            current = None
        if kind == "stack_push":
            if current is None:
                while born < len(births) and births[born][0] < i:
                    if births[born][2] not in gone:
                        alive[births[born][2]] = None
                    born += 1
                current = Placement(i, len(entries), list(alive), [])
                out.append(current)
            current.pushed.append(entry["trigger"])
            gone.add(entry["trigger"])
            alive.pop(entry["trigger"], None)
        elif kind == "removed":
            gone.add(entry["trigger"])
            alive.pop(entry["trigger"], None)

    return see, lambda: out


@memoized
def sba_due_at(view: TraceView) -> dict[int, tuple[list[str], list[str]]]:
    """Entry index -> the state-based actions the judge finds applicable just before it, for every state-based
    actions check, every first push of a placement and every priority (704.3)."""
    cat, at = catalog(view), replay(view).at
    points = set(view.by_kind["sba_check"]) | set(view.by_kind["priority"]) | {p.begin for p in placements(view)}
    # The replay shares one Board between the entries where nothing changed: each distinct board is judged once (the
    # boards stay alive in ``at``, so their ids are stable here; the answers are read, never modified).
    found: dict[int, tuple[list[str], list[str]]] = {}
    return {i: found[id(at[i])] if id(at[i]) in found else found.setdefault(id(at[i]), cat.due_sbas(at[i]))
            for i in sorted(points) if i in at}


def trigger_state(view: TraceView, trigger_id: str) -> Board | None:
    """The game a trigger instance was judged on: for an object ability, the game just before its event's group
    when the event looks back in time (603.10), else just after it; for a state trigger or an instance naming no
    event, the game just before the trigger entry."""
    t = view.triggers[trigger_id]
    spec = spec_of(view, trigger_id)
    group = replay(view).group_of.get(t["event"]) if t["event"] is not None else None
    if group is not None and spec is not None and spec["trigger"]["event"] != "state":
        return group.before if looks_back_for(spec["trigger"], view.events[t["event"]]) else group.after
    return replay(view).at.get(view.trigger_index[trigger_id])


def condition_at_trigger(view: TraceView, trigger_id: str, spec: dict[str, Any]) -> bool | None:
    """603.4: whether the intervening "if" of ``spec`` held when trigger instance ``trigger_id`` triggered, on the
    game :func:`trigger_state` names (for an event that looks back, the option ``leaves_intervening_if`` may move it
    to the game just after the event); None when the judge has no game for it. "You" in the condition is the
    instance's controller (603.3a, 603.7d-e: the trace's, which mtg.trigger-controller and mtg.delayed-controller
    check)."""
    state = trigger_state(view, trigger_id)
    if state is None:
        return None
    t = view.triggers[trigger_id]
    group = replay(view).group_of.get(t["event"]) if t["event"] is not None else None
    if group is not None and state is group.before:
        return catalog(view).condition_at_trigger(spec, t["source"], state, group.after, t["controller"])
    return catalog(view).true_on(spec["intervening_if"], state, t["source"], t["controller"])


def describe(view: TraceView, trigger_id: str) -> str:
    t = view.triggers.get(trigger_id)
    if t is None:
        return trigger_id
    origin = f"from {view.describe_event(t['event'])}" if t["event"] in view.events else "from the game state"
    extra = f" of delayed ability {t['delayed']}" if "delayed" in t else ""
    return f"{trigger_id} (ability {t['ability']}{extra} of {t['source']}, controlled by {t['controller']}, {origin})"


def declined_in(view: TraceView, trigger_id: str, begin: int, end: int) -> bool:
    """Whether trigger instance ``trigger_id``'s controller declined it (603.5) in its resolution ``begin``-``end``."""
    return any(view.entries[i]["decision"] == "optional" and trigger_id in view.entries[i].get("among", ())
               and view.entries[i]["chosen"] is False for i in view.by_kind["choice"] if begin < i < end)


def first_performed(view: TraceView, trigger_id: str, begin: int, end: int) -> int | None:
    """The first thing resolution ``begin``-``end`` of ``trigger_id`` did: the first entry of the group of its first
    event that was not prevented, or its first ``delayed_create``, whichever comes first (None: it did nothing)."""
    firsts = [replay(view).group_of[e["id"]].first for e in view.events_by_cause.get(("resolution", trigger_id), ())
              if not e.get("prevented") and e["id"] in replay(view).group_of]
    creates = view.by_kind["delayed_create"]
    firsts += [i for i in creates[bisect_right(creates, begin):bisect_left(creates, end)]
               if view.entries[i].get("created_by") == trigger_id]
    return min(firsts) if firsts else None


@memoized
def once_done(view: TraceView) -> dict[tuple[str, str], list[int]]:
    """603.2h: (source, ability) of each printed "do this only once each turn" ability -> the entries, in order, from
    which its action counts as taken, by option ``once_each_turn_taken``: as an instance begins resolving, unless it
    is declined (``unless-declined``) or even then (``on-resolution``); or at the first thing the instance's effect
    does (``when-performed``, :func:`first_performed`). The option is read only for such resolutions. Which turn each
    was in is :func:`turns`' business: the action holds the ability back for the rest of that turn only."""
    out: dict[tuple[str, str], list[int]] = {}
    for t, begin, end in view.resolution_spans:
        trig = view.triggers.get(t)
        if trig is None or "delayed" in trig:
            continue
        spec = catalog(view).printed.get((trig["source"], trig["ability"]))
        if spec is None or not spec.get("once_each_turn"):
            continue
        reading = view.options.get("once_each_turn_taken", "unless-declined")
        if declined_in(view, t, begin, end):
            taken = begin if reading == "on-resolution" else None
        elif reading == "when-performed":
            taken = first_performed(view, t, begin, end)
        else:
            taken = begin
        if taken is not None:
            out.setdefault((trig["source"], trig["ability"]), []).append(taken)
    for begins in out.values():
        begins.sort()
    return out


def used_this_turn(view: TraceView, done: dict[tuple[str, str], list[int]], key: tuple[str, str], at: int) -> bool:
    """603.2h: whether the once-each-turn ability ``key`` had its action taken by entry ``at`` (the first entry of a
    group of events: taken by that very group counts), in the same turn."""
    begins = [b for b in done.get(key, ()) if b <= at]
    if not begins:
        return False
    when = turns(view)
    return when.turn_at(begins[-1]) == when.turn_at(at)


@memoized
def zone_moves(view: TraceView) -> dict[str, list[int]]:
    """Object -> the first entries of the groups in which it changed zones, in order (each change makes it a new
    object, 400.7)."""
    out: dict[str, list[int]] = {}
    for group in replay(view).groups:
        for thing in {e.get("subject") for e in group.events}:
            if thing is not None and group.before.where.get(thing) != group.after.where.get(thing):
                out.setdefault(thing, []).append(group.first)
    return out


def object_life(view: TraceView, source: str, spec: dict[str, Any], event: dict[str, Any], group: Group) -> int:
    """400.7: which object ``source`` is as ability ``spec`` triggers on ``event`` (of ``group``): how many zone
    changes it has made up to the game the trigger is judged on. That is the game just before the group when the
    source left, in it, a zone where the ability works for one where it does not (or for another such zone on an
    event that looks back, 603.10a); else the game just after it."""
    was, now, zones = group.before.where.get(source), group.after.where.get(source), working_zones(spec)
    back = was != now and was in zones and (now not in zones or looks_back_for(spec["trigger"], event))
    moves = zone_moves(view).get(source, [])
    return bisect_left(moves, group.first) if back else bisect_right(moves, group.first)


@memoized
def once_triggered(view: TraceView) -> dict[tuple[str, str], list[tuple[int, int, int]]]:
    """(source, ability) of each printed ability that "triggers only once each turn" -> (first entry of its trigger
    event's group, which object its source was, 400.7, the turn) of each instance of it in the trace."""
    cat, group_of, when = catalog(view), replay(view).group_of, turns(view)
    out: dict[tuple[str, str], list[tuple[int, int, int]]] = {}
    for trig in view.triggers.values():
        spec = cat.printed.get((trig["source"], trig["ability"]))
        group = group_of.get(trig["event"]) if trig["event"] is not None else None
        if "delayed" in trig or spec is None or not spec.get("triggers_once_each_turn") or group is None:
            continue
        life = object_life(view, trig["source"], spec, view.events[trig["event"]], group)
        out.setdefault((trig["source"], trig["ability"]), []).append((group.first, life, when.turn_at(group.first)))
    return out


def first_this_turn(view: TraceView, hit: Hit, group: Group, kept: set[tuple[str, str]]) -> bool:
    """"This ability triggers only once each turn": whether ``hit`` (of ``group``) is its object's one trigger this
    turn: no other hit of that ability in the group came first (``kept``: the abilities of the group already kept,
    additional times included, 603.2d), and no instance of it triggered in the trace on an earlier group of the same
    turn while its source was the same object (400.7: after a zone change it is a new object)."""
    key = (hit.source, hit.spec["id"])
    if key in kept:
        return False
    kept.add(key)
    life = object_life(view, hit.source, hit.spec, hit.event, group)
    turn = turns(view).turn_at(group.first)
    return not any(first < group.first and (was, then) == (life, turn)
                   for first, was, then in once_triggered(view).get(key, ()))


@memoized
def expected_triggers(view: TraceView) -> dict[str, list[tuple[str, str]]]:
    """Event id -> (source, ability) of every object ability (not a state trigger) the event should trigger, as
    many times as it should (603.2c, 603.2d), leaving out a once-each-turn ability already used this turn (603.2h)
    and an ability that "triggers only once each turn" of an object it already triggered for this turn (reckoned, like
    a "one or more" ability, by the group's first occurrence that fits it)."""
    cat = catalog(view)
    done = once_done(view)
    out: dict[str, list[tuple[str, str]]] = {}
    for group in replay(view).groups:
        for event in group.events:
            out[event["id"]] = []
        kept: set[tuple[str, str]] = set()
        for hit in cat.hits(group.events, group.before, group.after):
            if done and used_this_turn(view, done, (hit.source, hit.spec["id"]), group.first):
                continue  # 603.2h: its controller has already taken the action this turn
            event_id = hit.event["id"]
            if hit.spec.get("triggers_once_each_turn"):
                if not first_this_turn(view, hit, group, kept):
                    continue
                event_id = batch_event(view, hit.spec, hit.source, event_id)
            out[event_id].append((hit.source, hit.spec["id"]))
    return out


def batch_event(view: TraceView, spec: dict[str, Any], source: str, event_id: str) -> str:
    """603.2c: a "one or more" trigger names one occurrence of its event; the judge reckons it by the first
    occurrence of that group that matches (``event_id`` itself when none does)."""
    group = replay(view).group_of.get(event_id)
    if group is None:
        return event_id
    for event in group.events:
        if catalog(view).fits(spec["trigger"], event, source):
            return event["id"]
    return event_id


@memoized
def actual_triggers(view: TraceView) -> dict[str, list[tuple[str, str, str]]]:
    """Event id -> (source, ability, trigger id) of the object-ability instances (not state, not delayed) it got."""
    cat = catalog(view)
    out: dict[str, list[tuple[str, str, str]]] = {}
    for t, trig in view.triggers.items():
        if "delayed" in trig or trig["event"] is None:
            continue
        spec = cat.printed.get((trig["source"], trig["ability"]))
        if spec is not None and spec["trigger"]["event"] == "state":
            continue
        event = trig["event"]
        if spec is not None and (spec["trigger"].get("batch") or spec.get("triggers_once_each_turn")):
            event = batch_event(view, spec, trig["source"], event)
        out.setdefault(event, []).append((trig["source"], trig["ability"], t))
    return out


def compare_triggers(view: TraceView, event_ids) -> list[str]:
    """Missing and unexpected object-ability triggers of the given events, in plain words."""
    found = []
    expected_all, actual_all = expected_triggers(view), actual_triggers(view)
    for event_id in event_ids:
        wanted = expected_all.get(event_id, ())
        got = [(s, a) for s, a, _ in actual_all.get(event_id, ())]
        if len(wanted) == len(got) and (not got or sorted(wanted) == sorted(got)):
            continue  # the common case, without building two Counters
        expected = Counter(wanted)
        actual = Counter(got)
        for (source, ability), n in sorted((expected - actual).items()):
            found.append(f"{view.describe_event(event_id)} should have triggered ability {ability} of {source} "
                         f"{n} more time(s)")
        for (source, ability), n in sorted((actual - expected).items()):
            found.append(f"ability {ability} of {source} triggered {n} time(s) too many from "
                         f"{view.describe_event(event_id)}")
    return found


_CREATING = ("create_delayed", "reflexive")


@memoized
def creations(view: TraceView) -> list[tuple[str, int, str, Counter, Counter]]:
    """For every resolution that used its effect: (trigger id, resolve_begin entry, action kind, ability ids its
    effect creates with that action, ability ids the trace shows it created), for kinds ``create_delayed`` (603.7a)
    and ``reflexive`` (603.12). A declined optional ability (603.5) creates nothing."""
    out = []
    choices, creates = view.by_kind["choice"], view.by_kind["delayed_create"]  # entry indexes, ascending
    table = _specs(view)
    for t, begin, end in view.resolution_spans:
        spec = table.get(t)
        if spec is None:
            continue
        declined = any(view.entries[i]["decision"] == "optional" and t in view.entries[i].get("among", ())
                       and view.entries[i]["chosen"] is False
                       for i in choices[bisect_right(choices, begin):bisect_left(choices, end)])  # begin < i < end
        made = [view.entries[i] for i in creates[bisect_right(creates, begin):bisect_left(creates, end)]
                if view.entries[i].get("created_by") == t]
        effect = () if declined else [a for a in spec.get("effect") or () if a.get("do") in _CREATING]
        for kind in _CREATING:
            wanted = Counter(a["ability"]["id"] for a in effect if a.get("do") == kind) if effect else Counter()
            got = Counter(e["ability"] for e in made if bool(e.get("reflexive")) == (kind == "reflexive")) \
                if made else Counter()
            out.append((t, begin, kind, wanted, got))
    return out


# The streamed observations above: every MTG invariant declares them as its passes (with its own), so that the judge
# computes them all in the one pass over a trace that the rules of an edition share.
PASSES = (placements,)


@dataclass
class Turns:
    """The script's turns (500.1) as the judge reads them: ``step_turn`` (each step's turn), ``active`` (turn -> its
    active player, for every turn up to the last scripted one, skipped turns included), ``begins`` / ``ends`` (turn ->
    the entry index of its first scripted step's ``step_begin`` / its last scripted step's ``step_advance``)."""

    step_turn: list[int]
    active: dict[int, str]
    begins: dict[int, int]
    ends: dict[int, int]
    step_at: list[tuple[int, int]]  # (entry index of a step_begin, step index), in order

    def turn_at(self, index: int) -> int:
        """The turn of the step under way at entry ``index`` (turn 1 before the first step)."""
        k = bisect_right(self.step_at, (index, float("inf"))) - 1
        return self.step_turn[self.step_at[k][1]] if k >= 0 else 1

    def first_begin_from(self, turn: int) -> int | None:
        """The ``step_begin`` entry of the first scripted step in turn ``turn`` or later (None: there is none)."""
        later = [i for t, i in self.begins.items() if t >= turn]
        return min(later) if later else None


@memoized
def turns(view: TraceView) -> Turns:
    script = view.scenario["script"]
    step_turn: list[int] = []
    for step in script:
        step_turn.append(step.get("turn", step_turn[-1] if step_turn else 1))
    step_at = [(i, view.entries[i]["step"]) for i in view.by_kind["step_begin"]]
    begins: dict[int, int] = {}
    for i, step in step_at:
        begins.setdefault(step_turn[step], i)
    ends = {step_turn[view.entries[i]["from"]]: i for i in view.step_advances}
    rp, cat = replay(view), catalog(view)
    active = {1: view.scenario["active_player"]}
    for turn in range(2, (max(step_turn) if step_turn else 1) + 1):
        # the next player in turn order still in the game when the turn begins: as the game stood at the end of the
        # last scripted turn before it
        end = max((i for t, i in ends.items() if t < turn), default=-1)
        board = next((g.after for g in reversed(rp.groups) if g.last < end), None)
        departed = board.departed if board is not None else ()
        seats = cat.players[cat.players.index(active[turn - 1]) + 1:] + \
            cat.players[:cat.players.index(active[turn - 1]) + 1]
        active[turn] = next((p for p in seats if p not in departed), active[turn - 1])
    return Turns(step_turn, active, begins, ends, step_at)
