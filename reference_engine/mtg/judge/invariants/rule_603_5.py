"""MTG 603.5: an optional ('may') triggered ability goes on the stack like any other; whether to use it is chosen
as it resolves."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import describe, pushes, specs
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView, memoized


@memoized
def _optional_triggers(view: TraceView) -> list[str]:
    table = specs(view)
    return [t for t in view.triggers if (table.get(t) or {}).get("optional")]


@invariant(
    passes=PASSES,
    key="mtg.optional-on-resolution",
    ruleset="mtg",
    rules={"2026-02-27": "603.5", "2021-02-24": "603.5"},
    summary="An optional triggered ability always goes on the stack; its controller chooses whether to use it only "
    "as it resolves, and a declined ability does nothing.",
    exercised=lambda view: sum(1 for t in _optional_triggers(view) if t in view.resolve_begin),
)
def optional_on_resolution(view: TraceView) -> list[str]:
    found = []
    choices: dict[str, list[int]] = {}
    for i in view.by_kind["choice"]:
        entry = view.entries[i]
        if entry["decision"] == "optional":
            for t in entry.get("among", ()):
                choices.setdefault(t, []).append(i)
    for t in _optional_triggers(view):
        removed = view.unresolved.get(t)
        if removed is not None and view.entries[removed]["reason"] == "declined":
            found.append(f"{describe(view, t)} was declined at entry {removed} instead of going on the stack")
        begin, end = view.resolve_begin.get(t), view.resolve_end.get(t)
        asked = choices.get(t, [])
        early = [i for i in asked if begin is None or i < begin or (end is not None and i > end)]
        if early:
            found.append(f"{t}'s controller chose whether to use it at entry {early[0]}, outside its resolution"
                         + ("" if t in pushes(view) else " and it never went on the stack"))
        elif begin is not None and len(asked) != 1:
            found.append(f"{t} resolved at entry {begin} with {len(asked)} choices of whether to use it (one expected)")
        elif asked and view.entries[asked[0]]["chosen"] is False:
            done = [e for e in view.events_by_cause.get(("resolution", t), ())]
            if done:
                found.append(f"{t}'s controller declined it, yet its resolution caused {view.describe_event(done[0]['id'])}")
    return found
