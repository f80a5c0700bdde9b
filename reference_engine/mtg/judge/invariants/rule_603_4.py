"""MTG 603.4 (with 608.2a): an ability with an intervening "if" clause triggers only if its condition holds when the
trigger event occurs, and checks it again as it resolves, before its targets (608.2b): if it no longer holds, the
ability leaves the stack without any effect. The rule applies to every triggered ability: delayed abilities and
state triggers too; a leaves-the-battlefield ability (or any that looks back in time, 603.10) judges its condition
on the game just before its event (just after it under option leaves_intervening_if=after-event)."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.model import looks_back_for
from reference_engine.mtg.judge.observations import (
    PASSES, RESOLUTION_REMOVALS, actual_triggers, catalog, condition_at_trigger, describe, expected_triggers,
    inside_span, replay, specs,
)
from reference_engine.kernel.traceview import TraceView, streamed


@streamed("resolve_begin", "removed")
def _resolution_checks(view: TraceView):
    """(entry index, trigger id, condition held, entry) where an ability with an intervening "if" began to resolve
    (streamed)."""
    cat, at, table = catalog(view), replay(view).at, specs(view)
    out: list[tuple[int, str, bool, dict]] = []

    def see(i: int, entry: dict) -> None:
        if entry["kind"] == "resolve_begin" or entry["reason"] in RESOLUTION_REMOVALS:
            spec = table.get(entry["trigger"])
            if spec is not None and "intervening_if" in spec:
                trig = view.triggers[entry["trigger"]]  # "you": its controller, fixed as it triggered (603.3a)
                out.append((i, entry["trigger"], cat.true_on(spec["intervening_if"], at[i], trig["source"],
                                                             trig["controller"]), entry))

    return see, lambda: out


@invariant(
    passes=(*PASSES, _resolution_checks),
    key="mtg.intervening-if",
    ruleset="mtg",
    rules={"2026-02-27": "603.4", "2021-02-24": "603.4"},
    summary="An intervening 'if' of any triggered ability (delayed and state triggers too) is checked when the event "
    "occurs (looking back for leaves-the-battlefield abilities; no trigger if false, a trigger if true, however the "
    "rest of the action or resolution changes the game) and again on resolution (the ability is removed and does "
    "nothing if false), before the target check; 'you' in it is the ability's controller as it triggered.",
    exercised=lambda view: sum(1 for _ in _resolution_checks(view)),
)
def intervening_if(view: TraceView) -> list[str]:
    found = checked_too_late(view)
    cat, table = catalog(view), specs(view)
    for t, trig in view.triggers.items():
        spec = table.get(t)
        if spec is None or "intervening_if" not in spec:
            continue
        if "delayed" in trig and cat.made_by_kind.get(trig["ability"]) == "reflexive":
            continue  # judged as the reflexive ability is created (mtg.reflexive)
        if condition_at_trigger(view, t, spec) is False:
            found.append(f"{describe(view, t)} triggered although its intervening 'if' did not hold")
    for i, t, held, entry in _resolution_checks(view):
        removed = entry["kind"] == "removed" and entry["reason"] == "intervening_if"
        if not held and not removed:
            what = "resolved" if entry["kind"] == "resolve_begin" else f"was removed for {entry['reason']}"
            found.append(f"{describe(view, t)} {what} at entry {i} although its intervening 'if' no longer held; it "
                         f"must be removed from the stack and do nothing (608.2a comes before 608.2b)")
        elif held and removed:
            found.append(f"{describe(view, t)} was removed at entry {i} for its intervening 'if', which still held")
    return found


def checked_too_late(view: TraceView) -> list[str]:
    """603.4, the other way: an ability whose intervening "if" holds as its trigger event occurs triggers, even when
    the condition no longer holds once the action or resolution that event belongs to is over. A trigger of an
    object ability with an intervening "if" that the judge expects (its condition held at the event) and the trace
    lacks, inside an action or a resolution, whose condition held just after the event (for one that looks back,
    too: so that no reading of option ``leaves_intervening_if`` explains it) and no longer at the end of that action
    or resolution, was lost to a check made too late (after the whole of it, as a post-action scan makes it). Its "you" is the controller it
    would have had (603.3a). Other missing triggers are mtg.triggers-when-satisfied's and mtg.look-back's alone."""
    found: list[str] = []
    cat, rp = catalog(view), replay(view)
    expected, actual = expected_triggers(view), actual_triggers(view)
    lasts = [g.last for g in rp.groups]
    for event_id, wanted in expected.items():
        conditional = [w for w in wanted if "intervening_if" in cat.printed[w]]
        if not conditional:
            continue
        missing = Counter(conditional) - Counter((s, a) for s, a, _ in actual.get(event_id, ()))
        group = rp.group_of[event_id]
        span = inside_span(view, group.first) if missing else None
        if span is None:
            continue
        at_end = rp.groups[bisect_left(lasts, span[1]) - 1].after  # the game as the action or resolution ended
        for (source, ability), n in sorted(missing.items()):
            spec = cat.printed[(source, ability)]
            board = group.before if looks_back_for(spec["trigger"], view.events[event_id]) else group.after
            you = board.controller_of.get(source) or cat.owner_of[source]
            if cat.true_on(spec["intervening_if"], group.after, source, you) and \
                    not cat.true_on(spec["intervening_if"], at_end, source, you):
                found.append(f"{view.describe_event(event_id)} should have triggered ability {ability} of {source} "
                             f"{n} more time(s): its intervening 'if' held as the event occurred, and no longer at the "
                             f"end of {span[2]} (entry {span[1]}); the condition is checked as the event occurs "
                             f"(603.4), not once the whole action or resolution is over")
    return found
