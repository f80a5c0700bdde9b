"""Momon Wonder 1.0.0, rule 11.2.2: once the current turn-based action or ability has finished, State-Based
Conditions are performed."""

from __future__ import annotations

from reference_engine.core.invariant import invariant
from reference_engine.core.traceview import TraceView

COMPLETIONS = ("action_end", "resolve_end", "snatch_check_end")


def _completions(view: TraceView) -> int:
    return sum(len(view.by_kind[kind]) for kind in COMPLETIONS)


@invariant(
    key="mw.sbc-after-completion",
    ruleset="momon-wonder",
    rules={"1.0.0": "11.2.2"},
    summary="State-Based Conditions are performed right after every completed action, ability and Snatch Check.",
    exercised=_completions,
)
def sbc_after_completion(view: TraceView) -> list[str]:
    found = []
    entries = view.entries
    for kind in COMPLETIONS:
        for i in view.by_kind[kind]:
            following = entries[i + 1] if i + 1 < len(entries) else None
            if following is None or following["kind"] != "sbc_check":
                what = entries[i].get("trigger") or entries[i].get("package") or entries[i].get("action")
                after = "the trace ends" if following is None else f"entry {i + 1} is {following['kind']}"
                found.append(f"{kind} of {what} at entry {i} is not followed by a State-Based Conditions check ({after})")
    return found
