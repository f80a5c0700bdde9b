"""MTG 704.4: state-based actions ignore what happens during a resolution; they are checked only when a player
would receive priority (a state that exists only mid-resolution is never acted on)."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import catalog, inside_span, replay
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView


def _momentary_states(view: TraceView) -> int:
    """Resolutions and actions during which some state-based action applied for a moment."""
    cat = catalog(view)
    seen = set()
    for group in replay(view).groups:
        span = inside_span(view, group.first)
        if span is not None and span not in seen and any(cat.due_sbas(group.after)):
            seen.add(span)
    return len(seen)


@invariant(
    passes=PASSES,
    key="mtg.sba-between-resolutions",
    ruleset="mtg",
    rules={"2026-02-27": "704.4", "2021-02-24": "704.4"},
    summary="State-based actions are never checked in the middle of an action or of a resolution.",
    exercised=_momentary_states,
)
def sba_between_resolutions(view: TraceView) -> list[str]:
    found = []
    for i in view.by_kind["sba_check"]:
        span = inside_span(view, i)
        if span is not None:
            found.append(f"state-based actions were checked at entry {i} while {span[2]} (entries {span[0]}-{span[1]})")
    return found
