"""Every Momon Wonder invariant rejects a hand-broken trace, so none can pass vacuously; and each holds on the
unbroken expected trace of the fixture it was broken from."""

from __future__ import annotations

import pytest

from reference_engine.rulesets import get_ruleset
from reference_engine.core.traceview import TraceView
from trace_surgery import drop, find, mentions, move, package_block, resolution_block

RULESET = get_ruleset("momon-wonder")


def violations(scenario, entries, key):
    trace = {"format": "trigger-conformance/trace/1", "entries": entries}
    view = TraceView(scenario, trace, scenario["options"])
    assert not view.structure_problems(), view.structure_problems()
    return RULESET.invariant(key).check(view)


# Each case: (rule key, fixture, how to break its expected trace, a word the explanation must contain).
def _drop_trigger(trigger):
    return lambda e: drop(e, lambda x: not mentions(x, trigger))


def _enqueue_inside_action(e):
    i = find(e, kind="enqueue", trigger="T1")
    return move(e, (i, i + 1), find(e, kind="event", id="E2"))


def _drop_sbc_after(trigger):
    def breaker(e):
        i = find(e, kind="resolve_end", trigger=trigger)
        return e[: i + 1] + e[i + 2:]
    return breaker


def _drop_enqueue(trigger):
    def breaker(e):
        return drop(e, lambda x: not (x.get("trigger") == trigger and x["kind"] in ("enqueue", "resolve_begin", "resolve_end")))
    return breaker


def _duplicate_enqueue(trigger):
    def breaker(e):
        i = find(e, kind="enqueue", trigger=trigger)
        return e[: i + 1] + [dict(e[i])] + e[i + 1:]
    return breaker


def _swap_enqueues(a, b):
    def breaker(e):
        i, j = find(e, kind="enqueue", trigger=a), find(e, kind="enqueue", trigger=b)
        e[i], e[j] = e[j], e[i]
        return e
    return breaker


def _resolve_first(later, earlier):
    """Move ``later``'s resolution block in front of ``earlier``'s."""
    return lambda e: move(e, resolution_block(e, later), resolution_block(e, earlier)[0])


def _drop_caused_event(event_id):
    def breaker(e):
        return drop(e, lambda x: not (x.get("id") == event_id or x.get("event") == event_id
                                      or x.get("trigger") in {y["id"] for y in e if y.get("event") == event_id}))
    return breaker


def _package_for_failed_summon(e):
    i = find(e, kind="action_end")
    return e[: i + 2] + [{"kind": "package_create", "package": "K9", "event": "E1"}] + e[i + 2:]


def _before_package(trigger, package):
    return lambda e: move(e, resolution_block(e, trigger), find(e, kind="package_open", package=package))


def _drop_kinds(*kinds):
    return lambda e: drop(e, lambda x: x["kind"] not in kinds)


def _enqueue_after_close(trigger, package):
    def breaker(e):
        i = find(e, kind="enqueue", trigger=trigger)
        e = move(e, (i, i + 1), find(e, kind="package_close", package=package) + 1)
        return move(e, resolution_block(e, trigger), find(e, kind="enqueue", trigger=trigger) + 1)
    return breaker


def _package_inside_resolution(trigger, package):
    return lambda e: move(e, package_block(e, package), find(e, kind="resolve_end", trigger=trigger))


def _placement(trigger, value):
    def breaker(e):
        i = find(e, kind="enqueue", trigger=trigger)
        if value is None:
            e[i].pop("placement", None)
        else:
            e[i]["placement"] = value
        return e
    return breaker


def _to_main_queue(trigger, package):
    def breaker(e):
        e[find(e, kind="enqueue", trigger=trigger)]["queue"] = "main"
        return move(e, resolution_block(e, trigger), find(e, kind="package_close", package=package) + 1)
    return breaker


def _nested_inside(inner, outer):
    return lambda e: move(e, package_block(e, inner), find(e, kind="package_close", package=outer))


def _advance_early(e):
    advance = find(e, kind="step_advance")
    last = max(i for i, x in enumerate(e[:advance]) if x["kind"] == "resolve_begin")
    return move(e, (advance, advance + 1), last)


CASES = [
    ("mw.triggers-when-satisfied", "mw-trigger-waits-for-action", _drop_trigger("T2"), "no trigger instance"),
    ("mw.no-interruption", "mw-trigger-waits-for-action", _enqueue_inside_action, "still being performed"),
    ("mw.sbc-after-completion", "mw-sbc-after-each-ability", _drop_sbc_after("T2"), "State-Based Conditions"),
    ("mw.collect-every-trigger", "mw-once-per-event", _drop_enqueue("T2"), "never entered a queue"),
    ("mw.once-per-event", "mw-once-per-event", _duplicate_enqueue("T1"), "2 times"),
    ("mw.group-position", "mw-groups-in-chronological-order", _swap_enqueues("T1", "T2"), "came earlier"),
    ("mw.summon-package", "mw-failed-summon-no-package", _package_for_failed_summon, "not a successful Summon"),
    ("mw.same-event-order", "mw-same-event-active-player-first", _swap_enqueues("T3", "T4"), "same_event_order"),
    ("mw.queue-fifo", "mw-groups-in-chronological-order", _resolve_first("T2", "T1"), "first in, first out"),
    ("mw.resolve-completely", "mw-resolve-completely", _drop_caused_event("E4"), "performed completely"),
    ("mw.package-position", "mw-package-keeps-summon-position", _before_package("T3", "K1"), "earlier position"),
    ("mw.package-completes", "mw-package-completes-in-order", _drop_kinds("snatch_check_begin", "snatch_check_end"),
     "exactly once"),
    ("mw.processing-queue-distinct", "mw-package-completes-in-order", _enqueue_after_close("T3", "K1"),
     "outside its processing"),
    ("mw.no-package-interrupts", "mw-no-package-interrupts", _package_inside_resolution("T1", "K1"), "interrupted"),
    ("mw.remedy-front", "mw-remedy-not-front-casual", _placement("T2", "front"), "not sanctioned play"),
    ("mw.remedy-front", "mw-remedy-front-sanctioned", _placement("T2", None), "was not put at the front"),
    ("mw.append-after-pending", "mw-append-after-pending", _resolve_first("T3", "T2"), "already waiting"),
    ("mw.package-processing-queue", "mw-deferred-groups-stay-out", _to_main_queue("T3", "K1"),
     "not the package's processing queue"),
    ("mw.nested-package-deferred", "mw-nested-packages-three-deep", _nested_inside("K2", "K1"), "before K1 finished"),
    ("mw.deferred-groups-stay-out", "mw-package-completes-in-order",
     lambda e: move(e, resolution_block(e, "T2"), find(e, kind="post_snatch_end", package="K1")),
     "processed inside it"),
    ("mw.empty-before-advance", "mw-empty-before-advance", _advance_early, "still waiting"),
]


@pytest.mark.parametrize("key, fixture_id, breaker, word", CASES, ids=[f"{c[0]}<-{c[1]}" for c in CASES])
def test_invariant_rejects_broken_trace(momon_fixture, key, fixture_id, breaker, word):
    scenario, trace = momon_fixture(fixture_id)
    assert violations(scenario, trace["entries"], key) == [], "the unbroken expected trace must pass"
    found = violations(scenario, breaker(trace["entries"]), key)
    assert found, f"{key} accepted a trace broken on purpose"
    assert any(word in message for message in found), found


def test_every_invariant_has_a_breaking_case():
    assert {case[0] for case in CASES} == {inv.key for inv in RULESET.invariants}


def test_violation_names_the_rule_number_and_witnesses(momon_fixture):
    scenario, trace = momon_fixture("mw-package-keeps-summon-position")
    entries = _before_package("T3", "K1")(trace["entries"])
    view = TraceView(scenario, {"format": "trigger-conformance/trace/1", "entries": entries}, scenario["options"])
    (violation,) = RULESET.invariant("mw.package-position").violations(view)
    assert violation.message.startswith("[11.2.4]")
    assert "T3" in violation.message and "K1" in violation.message and "position 2" in violation.message
