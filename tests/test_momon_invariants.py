"""Every Momon Wonder invariant rejects a hand-broken trace, so none can pass vacuously; and each holds on the
unbroken expected trace of the fixture it was broken from."""

from __future__ import annotations

import pytest

from reference_engine.kernel.registry import get_ruleset
from reference_engine.kernel.traceview import TraceView
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


def _defeat_one_check_later(e):
    """Issue 9, 11.2.2: the mark of A1 acted on by the check after A2 instead of the one right after A1."""
    block = find(e, kind="event", id="E2"), find(e, kind="enqueue", trigger="T3") + 1
    e = move(e, block, find(e, kind="sbc_check", id="S3") + 1)
    defeat = e[find(e, kind="event", id="E2")]
    defeat["cause"], defeat["position"] = {"sbc": "S3"}, 4
    return e


def _enqueue_late(trigger, before):
    """Collect ``trigger`` only just before the enqueue of ``before``, after other work began."""
    def breaker(e):
        i = find(e, kind="enqueue", trigger=trigger)
        return move(e, (i, i + 1), find(e, kind="enqueue", trigger=before))
    return breaker


def _resolve_in_post_snatch(trigger, package):
    """Issue 9, 11.2.4: G, which arose in On Summon processing, resolved only after the Snatch Check."""
    return lambda e: move(e, resolution_block(e, trigger), find(e, kind="post_snatch_begin", package=package) + 1)


def _package_ahead_of(package, trigger):
    return lambda e: move(e, package_block(e, package), find(e, kind="resolve_begin", trigger=trigger))


def _reason(trigger, reason):
    def breaker(e):
        e[find(e, kind="removed", trigger=trigger)]["reason"] = reason
        return e
    return breaker


def _resolved_instead(trigger):
    """The trigger resolves (doing nothing) where it should have been removed."""
    def breaker(e):
        i = find(e, kind="removed", trigger=trigger)
        if i > 0 and e[i - 1]["kind"] == "choice":
            e[i - 1]["chosen"] = True
        return e[:i] + [{"kind": "resolve_begin", "trigger": trigger}, {"kind": "resolve_end", "trigger": trigger},
                        {"kind": "sbc_check", "id": f"S{trigger}"}] + e[i + 1:]
    return breaker


def _declined_before_queue(trigger):
    def breaker(e):
        e = drop(e, lambda x: not (x["kind"] == "enqueue" and x["trigger"] == trigger))
        i = find(e, kind="removed", trigger=trigger)
        return move(e, (i - 1, i + 1), find(e, kind="action_end"))
    return breaker


def _ungroup(event_id):
    def breaker(e):
        e[find(e, kind="event", id=event_id)].pop("group")
        return e
    return breaker


def _retrigger(trigger, event_id, new_id):
    """A second instance of ``trigger``'s ability, from another occurrence of the same event."""
    def breaker(e):
        i = find(e, kind="trigger", id=trigger)
        e = e[: i + 1] + [{**e[i], "id": new_id, "event": event_id}] + e[i + 1:]
        j = find(e, kind="enqueue", trigger=trigger)
        return e[: j + 1] + [{**e[j], "trigger": new_id}] + e[j + 1:]
    return breaker


def _attribute(trigger, event_id):
    def breaker(e):
        e[find(e, kind="trigger", id=trigger)]["event"] = event_id
        return e
    return breaker


def _resolve_after(trigger, kind, package):
    return lambda e: move(e, resolution_block(e, trigger), find(e, kind=kind, package=package) + 1)


def _group(*event_ids):
    def breaker(e):
        for event_id in event_ids:
            e[find(e, kind="event", id=event_id)]["group"] = event_ids[0]
        return e
    return breaker


def _sbc_signal(e):
    e[find(e, kind="event", id="E2")].update({"type": "signal", "name": "x"})
    return e


def _defeats_swapped(e):
    """The two defeats of one State-Based Conditions pass (E1, E2, each with its trigger T1, T2) in the other order."""
    first, second = e[find(e, kind="event", id="E1")], e[find(e, kind="event", id="E2")]
    first["subject"], second["subject"] = second["subject"], first["subject"]
    one, two = e[find(e, kind="trigger", id="T1")], e[find(e, kind="trigger", id="T2")]
    for field in ("ability", "source", "controller"):
        one[field], two[field] = two[field], one[field]
    return e


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
    # Completeness (issue 9): what must have happened by then, and did not.
    ("mw.sbc-after-completion", "mw-sbc-defeat-before-next-ability", _defeat_one_check_later, "did not defeat it"),
    ("mw.collect-every-trigger", "mw-sbc-defeat-before-next-ability",
     _enqueue_late("T3", "T4"), "collected only at entry"),
    ("mw.collect-every-trigger", "mw-removal-reasons", _declined_before_queue("T3"), "optional_choice=on-trigger"),
    ("mw.package-completes", "mw-on-summon-before-snatch-check", _resolve_in_post_snatch("T2", "K1"),
     "On Summon processing ended"),
    ("mw.package-completes", "mw-on-summon-before-snatch-check", _drop_caused_event("E3"), "Snatch Check caused"),
    ("mw.package-position", "mw-package-keeps-summon-position", _package_ahead_of("K1", "T1"), "not one ahead"),
    ("mw.removal-reason", "mw-removal-reasons", _reason("T2", "negated"), "does not have"),
    ("mw.removal-reason", "mw-removal-reasons", _reason("T2", "declined"), "not optional"),
    ("mw.removal-reason", "mw-removal-reasons", _resolved_instead("T2"), "no longer held"),
    ("mw.removal-reason", "mw-removal-reasons", _resolved_instead("T3"), "declined the optional ability"),
    ("mw.removal-reason", "mw-removal-reasons", _declined_before_queue("T3"), "before entering a queue"),
    ("mw.package-processing-queue", "mw-nested-summon-ordinary-triggers-stay-inside", _to_main_queue("T3", "K1"),
     "not the package's processing queue"),
    ("mw.package-completes", "mw-on-summon-before-snatch-check", _resolve_after("T3", "post_snatch_end", "K1"),
     "post-Snatch processing ended"),
    ("mw.package-completes", "mw-on-summon-before-snatch-check",
     lambda e: move(e, resolution_block(e, "T3"), find(e, kind="post_snatch_begin", package="K1")),
     "outside its On Summon and post-Snatch processing"),
    ("mw.group-position", "mw-remedy-not-front-casual", _swap_enqueues("T1", "T2"), "came earlier"),
    ("mw.collect-every-trigger", "mw-remedy-not-front-casual",
     lambda e: move(e, (find(e, kind="enqueue", trigger="T2"), find(e, kind="enqueue", trigger="T2") + 1),
                    find(e, kind="resolve_end", trigger="T1") + 2), "collected only at entry"),
    ("mw.sbc-after-completion", "mw-sbc-defeat-before-next-ability", _sbc_signal, "only defeat"),
    ("mw.sbc-defeat-order", "mw-sbc-defeats-in-marked-order", _defeats_swapped, "sbc_defeat_order=marked-order"),
    ("mw.summon-package", "mw-sbc-defeat-before-next-ability", _group("E1", "E3"),
     "no single Effect-Based Summon caused them all"),
    # One Summon of several monsters: one event (issue 12 item 2).
    ("mw.summon-package", "mw-one-summon-several-monsters", _ungroup("E2"), "do not share one group"),
    ("mw.once-per-event", "mw-one-summon-several-monsters", _retrigger("T3", "E2", "T9"), "2 times"),
    ("mw.triggers-when-satisfied", "mw-one-summon-several-monsters", _attribute("T2", "E2"),
     "earlier occurrence of the same event"),
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


def test_sbc_that_defeat_under_sbc_events_false_are_rejected(momon_fixture):
    scenario, trace = momon_fixture("mw-sbc-defeat-before-next-ability")
    scenario = {**scenario, "options": {**scenario["options"], "sbc_events": False}}
    found = violations(scenario, trace["entries"], "mw.sbc-after-completion")
    assert any("sbc_events=false" in message for message in found), found


def test_sbc_defeat_order_is_judged_both_ways(momon_fixture):
    """Under sbc_defeat_order=object-order the judge requires the scenario's order (M1, then M2) and forbids the
    order of marking that the default requires."""
    scenario, trace = momon_fixture("mw-sbc-defeats-in-marked-order")
    scenario = {**scenario, "options": {**scenario["options"], "sbc_defeat_order": "object-order"}}
    found = violations(scenario, trace["entries"], "mw.sbc-defeat-order")
    assert any("sbc_defeat_order=object-order gives M1, M2" in message for message in found), found
    assert violations(scenario, _defeats_swapped(trace["entries"]), "mw.sbc-defeat-order") == []


def test_intervening_removal_needs_the_recheck_option(momon_fixture):
    scenario, trace = momon_fixture("mw-removal-reasons")
    scenario = {**scenario, "options": {**scenario["options"], "intervening_recheck": False}}
    found = violations(scenario, trace["entries"], "mw.removal-reason")
    assert any("intervening_recheck=false" in message for message in found), found


def test_sbc_event_performed_after_other_work_is_rejected(momon_fixture):
    scenario, trace = momon_fixture("mw-sbc-defeat-before-next-ability")
    e = trace["entries"]
    # E2 (cause S2) and its trigger happen only once T2 has begun resolving.
    e = move(e, (find(e, kind="event", id="E2"), find(e, kind="enqueue", trigger="T3") + 1), find(e, kind="event", id="E3"))
    e[find(e, kind="event", id="E2")]["position"] = 2
    found = violations(scenario, e, "mw.sbc-after-completion")
    assert any("after other work" in message for message in found), found


def test_declined_although_its_condition_failed_is_rejected(momon_fixture):
    scenario, trace = momon_fixture("mw-removal-reasons")
    for obj in scenario["objects"]:
        for ability in obj.get("abilities", ()):
            if ability["id"] == "A2":
                ability["optional"] = True  # A2's condition fails first: it is removed for it, never asked about
    scenario["choices"]["optional"]["A2"] = False
    found = violations(scenario, _reason("T2", "declined")(trace["entries"]), "mw.removal-reason")
    assert any("before its controller is asked" in message for message in found), found


def test_a_trigger_whose_intervening_if_failed_is_explained_as_such(momon_fixture):
    """A fresh user's report: an ability that triggered although its intervening 'if' failed was explained as an
    event that 'does not satisfy that ability's trigger condition'; the message now says which part failed."""
    import copy

    scenario, trace = momon_fixture("mw-removal-reasons")
    broken = copy.deepcopy(scenario)
    ability = next(ab for ab in broken["objects"][0]["abilities"] if ab["id"] == "A2")
    ability["intervening_if"] = {**ability["intervening_if"], "test": "not_in_zone"}  # fails as signal a is sent
    found = violations(broken, trace["entries"], "mw.triggers-when-satisfied")
    about = [m for m in found if "ability A2" in m]
    assert about and all("intervening 'if' did not hold" in m and "satisfies that ability's trigger condition" in m
                         for m in about), found
    # An ability whose trigger condition the event does not satisfy is still said to be so.
    broken = copy.deepcopy(scenario)
    broken["objects"][0]["abilities"][0]["trigger"] = {"event": "signal", "name": "zzz"}
    found = violations(broken, trace["entries"], "mw.triggers-when-satisfied")
    assert any("ability A1" in m and "does not satisfy that ability's trigger condition" in m for m in found), found
