"""MTG 603.3d (with 608.2b, and 115.1 and 800.4a for players): a triggered ability's target (a candidate object in
its target zone, or a candidate player still in the game) is chosen as it goes on the stack; with no legal choice
the ability is removed from the stack at once, and the other waiting abilities still go on. On resolution, after
the intervening 'if' check, an ability whose target has become illegal is removed and does nothing."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import PASSES, catalog, describe, replay, spec_of, specs
from reference_engine.kernel.traceview import TraceView, memoized


@memoized
def _targeted_pushes(view: TraceView) -> list[tuple[int, dict, dict]]:
    """(entry index, entry, ability) of every push of an ability with a target (the check and its count read it)."""
    table, entries = specs(view), view.entries
    out = []
    for i in view.by_kind["stack_push"]:
        spec = table.get(entries[i]["trigger"])
        if spec is not None and "target" in spec:
            out.append((i, entries[i], spec))
    return out


@invariant(
    passes=PASSES,
    key="mtg.no-legal-target",
    ruleset="mtg",
    rules={"2026-02-27": "603.3d", "2021-02-24": "603.3d"},
    summary="A triggered ability with no legal target when put on the stack is removed from it; one whose target is "
    "illegal on resolution is removed and does nothing; any other goes on and resolves.",
    exercised=lambda view: sum(1 for _ in _targeted_pushes(view)),
)
def no_legal_target(view: TraceView) -> list[str]:
    found = []
    cat, at = catalog(view), replay(view).at
    entries = view.entries
    chosen: dict[str, str | None] = {}
    for i, entry, spec in _targeted_pushes(view):
        t = entry["trigger"]
        legal = cat.legal_targets(spec, at[i])
        target = entry.get("target")
        chosen[t] = target
        removed_now = i + 1 < len(entries) and entries[i + 1]["kind"] == "removed" and entries[i + 1]["trigger"] == t \
            and entries[i + 1]["reason"] == "no_target"
        if legal and target not in legal:
            found.append(f"{describe(view, t)} went on the stack at entry {i} targeting {target}, not one of the legal "
                         f"targets {legal}")
        elif legal and view.unresolved.get(t) is not None and entries[view.unresolved[t]]["reason"] == "no_target":
            found.append(f"{describe(view, t)} was removed for want of a target, but {legal} could be targeted")
        elif not legal and not removed_now:
            found.append(f"{describe(view, t)} had no legal target when put on the stack at entry {i}, yet it was not "
                         f"removed from the stack at once")
    for t, removed in view.unresolved.items():
        reason = entries[removed]["reason"]
        if reason in ("no_target", "illegal_target") and "target" not in (spec_of(view, t) or {}):
            found.append(f"{describe(view, t)} was removed for {reason}, but it has no target")
    for i in view.indexes_of("resolve_begin", "removed"):
        entry = entries[i]
        kind = entry["kind"]
        t = entry.get("trigger")
        if t not in chosen or not (kind == "resolve_begin" or (kind == "removed" and entry["reason"] == "illegal_target")):
            continue
        spec = spec_of(view, t)
        if "intervening_if" in spec and not cat.true_on(spec["intervening_if"], at[i], view.triggers[t]["source"],
                                                        view.triggers[t]["controller"]):
            continue  # 608.2a first: mtg.intervening-if judges this one
        legal_now = cat.target_is_legal(spec, chosen[t], at[i])
        if kind == "resolve_begin" and not legal_now:
            found.append(f"{describe(view, t)} resolved at entry {i} although its target {chosen[t]} was no longer "
                         f"legal (608.2b)")
        elif kind == "removed" and legal_now:
            found.append(f"{describe(view, t)} was removed at entry {i} for an illegal target, but {chosen[t]} was "
                         f"still legal")
    return found
