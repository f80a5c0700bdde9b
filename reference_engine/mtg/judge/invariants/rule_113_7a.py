"""MTG 113.7a (with 603.3): a triggered ability, once it has triggered, lives apart from its source: what happens to
the source afterwards does not stop it from going on the stack and resolving. Only a rule of MTG takes a
triggered ability away without resolving it: no legal target as it is put on the stack (603.3d) or on resolution
(608.2b), its intervening "if" on resolution (603.4, 608.2a), or its controller leaving the game (800.4a). Reasons
other rulesets have (an optional trigger declined before it is stacked, negation, a source gone, expiry) are
violations here."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView
from reference_engine.mtg.judge.model import working_zones
from reference_engine.mtg.judge.observations import describe, ended_before, pushes, replay, specs

# Why MTG removes a triggered ability without resolving it, and whether it must be on the stack for that.
REASONS = {"no_target": True, "illegal_target": True, "intervening_if": True, "player_left": False}


def _source_gone(view: TraceView) -> int:
    at = replay(view).at
    count, table = 0, specs(view)
    for t, begin in view.resolve_begin.items():
        spec = table.get(t)
        if spec is not None and t in view.triggers and "delayed" not in view.triggers[t] \
                and at[begin].where.get(view.triggers[t]["source"]) not in working_zones(spec):
            count += 1
    return count


@invariant(
    passes=PASSES,
    key="mtg.independent-of-source",
    ruleset="mtg",
    rules={"2026-02-27": "113.7a", "2021-02-24": "113.7a"},
    summary="Every triggered ability put on the stack resolves, unless a rule of MTG removes it (no legal target, its "
    "intervening 'if', its controller leaving); its source leaving does not, nor any other game's reason.",
    exercised=_source_gone,
)
def independent_of_source(view: TraceView) -> list[str]:
    found = []
    stacked = pushes(view)
    for t, removed in view.unresolved.items():
        reason = view.entries[removed]["reason"]
        if reason not in REASONS:
            found.append(f"{describe(view, t)} was removed at entry {removed} ({reason}); MTG has no rule that "
                         f"removes a triggered ability for that")
        elif REASONS[reason] and (t not in stacked or stacked[t] > removed):
            found.append(f"{describe(view, t)} was removed at entry {removed} ({reason}) before it was ever put on "
                         f"the stack; that reason only applies to an ability on the stack")
    for t, i in stacked.items():
        if t not in view.unresolved and t not in view.resolve_end and not ended_before(view, None):
            found.append(f"{describe(view, t)} went on the stack at entry {i} but never resolved nor was removed")
    return found
