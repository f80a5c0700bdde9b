"""MTG 603.4 (with 608.2a): an ability with an intervening "if" clause triggers only if its condition holds when the
trigger event occurs, and checks it again as it resolves, before its targets (608.2b): if it no longer holds, the
ability leaves the stack without any effect. The rule applies to every triggered ability: delayed abilities and
state triggers too; a leaves-the-battlefield ability (or any that looks back in time, 603.10) judges its condition
on the game just before its event (just after it under option leaves_intervening_if=after-event)."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import (
    PASSES, RESOLUTION_REMOVALS, catalog, condition_at_trigger, describe, replay, spec_of,
)
from reference_engine.kernel.traceview import TraceView, streamed


@streamed("resolve_begin", "removed")
def _resolution_checks(view: TraceView):
    """(entry index, trigger id, condition held, entry) where an ability with an intervening "if" began to resolve
    (streamed)."""
    cat, at = catalog(view), replay(view).at
    out: list[tuple[int, str, bool, dict]] = []

    def see(i: int, entry: dict) -> None:
        if entry["kind"] == "resolve_begin" or entry["reason"] in RESOLUTION_REMOVALS:
            spec = spec_of(view, entry["trigger"])
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
    "occurs (looking back for leaves-the-battlefield abilities; no trigger if false) and again on resolution (the "
    "ability is removed and does nothing if false), before the target check.",
    exercised=lambda view: sum(1 for _ in _resolution_checks(view)),
)
def intervening_if(view: TraceView) -> list[str]:
    found = []
    cat = catalog(view)
    for t, trig in view.triggers.items():
        spec = spec_of(view, t)
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
