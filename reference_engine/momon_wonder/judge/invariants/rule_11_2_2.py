"""Momon Wonder 1.0.0, rule 11.2.2: once the current turn-based action or ability has finished, State-Based
Conditions are performed.

Both directions: a check follows every completed action, ability and Snatch Check, and that check does what State-Based
Conditions do at that point (option ``sbc_events``: every object marked for defeat since the previous check and still
in play is defeated, and nothing else), so that its consequences are in place before any later work. The text
gives several defeats of one pass no order; option ``sbc_defeat_order`` names it (``mw.sbc-defeat-order``: with
either value the judge requires that order and forbids the other).
"""

from __future__ import annotations

from collections import Counter

from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.traceview import TraceView
from reference_engine.momon_wonder.judge.observations import PASSES
from reference_engine.momon_wonder.judge.observations import sbc_checks, sbc_expectations

COMPLETIONS = ("action_end", "resolve_end", "snatch_check_end")


def _completions(view: TraceView) -> int:
    return sum(len(view.by_kind[kind]) for kind in COMPLETIONS)


@invariant(
    passes=PASSES,
    key="mw.sbc-after-completion",
    ruleset="momon-wonder",
    rules={"1.0.0": "11.2.2"},
    summary="State-Based Conditions are performed right after every completed action, ability and Snatch Check, and "
    "defeat then every object marked for defeat that is still in play.",
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
    sbc_events = bool(view.options.get("sbc_events", True))
    for check in sbc_expectations(view):
        if not check.must_defeat and not check.defeated:
            continue
        missing = [m for m in check.must_defeat if m not in check.defeated]
        extra = list((Counter(check.defeated) - Counter(check.must_defeat)).elements())
        for obj in missing:
            found.append(f"{obj} was marked for defeat and still in play when State-Based Conditions {check.check} were "
                         f"performed (entry {check.index}), but that check did not defeat it")
        for obj in extra:
            why = ("option sbc_events=false: State-Based Conditions cause no events" if not sbc_events else
                   "it was not marked for defeat since the previous check, or not in play, or defeated twice")
            found.append(f"State-Based Conditions {check.check} (entry {check.index}) defeated {obj}, but {why}")
    checks = {entries[i]["id"]: i for i in sbc_checks(view)}
    for i in view.by_kind["event"]:
        event = entries[i]
        ((cause, value),) = event["cause"].items()
        if cause != "sbc":
            continue
        if event["type"] != "defeated":
            found.append(f"State-Based Conditions {value} caused {view.describe_event(event['id'])}; they only defeat "
                         f"objects marked for defeat")
        at = checks.get(value)
        if at is not None and (at > i or any(entries[k]["kind"] not in _DURING_CHECK for k in range(at + 1, i))):
            found.append(f"{view.describe_event(event['id'])} names State-Based Conditions {value} (entry {at}) as its "
                         f"cause but happened at entry {i}, after other work; the check performs its defeats at once")
    return found


# What may stand between a State-Based Conditions check and the events it causes: its other events and the triggers
# they cause (and a trigger declined at once under optional_choice=on-trigger).
_DURING_CHECK = frozenset({"event", "trigger", "choice", "removed"})


def expected_defeat_order(view: TraceView, due: tuple[str, ...]) -> list[str]:
    """The order in which one State-Based Conditions pass defeats the objects ``due`` (in the order they were
    marked) under option ``sbc_defeat_order``: as marked, or as the scenario lists them."""
    if view.options.get("sbc_defeat_order") == "object-order":
        listed = {obj["id"]: n for n, obj in enumerate(view.scenario["objects"])}
        return sorted(due, key=lambda obj: listed.get(obj, len(listed)))
    return list(due)


def _passes_with_several_defeats(view: TraceView) -> int:
    return sum(1 for check in sbc_expectations(view) if len(check.defeated) > 1)


@invariant(
    passes=PASSES,
    key="mw.sbc-defeat-order",
    ruleset="momon-wonder",
    rules={"1.0.0": "11.2.2"},
    summary="Several objects defeated by one State-Based Conditions pass are defeated in the order option "
    "sbc_defeat_order gives (the order they were marked, or the scenario's order).",
    exercised=_passes_with_several_defeats,
)
def sbc_defeat_order(view: TraceView) -> list[str]:
    found = []
    for check in sbc_expectations(view):
        if len(check.defeated) < 2:
            continue
        done = [obj for obj in check.defeated if obj in check.must_defeat]  # the others are mw.sbc-after-completion's
        expected = [obj for obj in expected_defeat_order(view, check.must_defeat) if obj in done]
        if done != expected:
            found.append(f"State-Based Conditions {check.check} (entry {check.index}) defeated {', '.join(done)} in "
                         f"that order; option sbc_defeat_order={view.options.get('sbc_defeat_order')} gives "
                         f"{', '.join(expected)}")
    return found
