"""MTG 113.7a: a triggered ability, once it has triggered, lives on the stack apart from its source; what happens to the
source afterwards does not stop it from resolving."""

from __future__ import annotations

from reference_engine.core.invariant import invariant
from reference_engine.rulesets.mtg.observations import describe, pushes, replay, spec_of
from reference_engine.rulesets.mtg.model import active_zones
from reference_engine.core.traceview import TraceView

LEGITIMATE = frozenset({"no_target", "illegal_target", "intervening_if", "player_left"})


def _source_gone(view: TraceView) -> int:
    at = replay(view).at
    count = 0
    for t, begin in view.resolve_begin.items():
        spec = spec_of(view, t)
        if spec is not None and t in view.triggers and "delayed" not in view.triggers[t] \
                and at[begin].zones.get(view.triggers[t]["source"]) not in active_zones(spec):
            count += 1
    return count


@invariant(
    key="mtg.independent-of-source",
    ruleset="mtg",
    rules={"2026-02-27": "113.7a", "2021-02-24": "113.7a"},
    summary="Every triggered ability put on the stack resolves, unless a rule removes it (no legal target, its "
    "intervening 'if', its controller leaving); its source leaving does not.",
    exercised=_source_gone,
)
def independent_of_source(view: TraceView) -> list[str]:
    found = []
    for t, i in pushes(view).items():
        removed = view.removed.get(t)
        if removed is not None:
            reason = view.entries[removed]["reason"]
            if reason not in LEGITIMATE:
                found.append(f"{describe(view, t)} was removed from the stack at entry {removed} ({reason}); no rule "
                             f"removes a triggered ability from the stack for that")
        elif t not in view.resolve_end:
            found.append(f"{describe(view, t)} went on the stack at entry {i} but never resolved nor was removed")
    return found
