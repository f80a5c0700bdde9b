"""Redemption TA.1: a triggered ability is an ongoing ability held back until its situation or game action occurs;
when that happens, it activates."""

from __future__ import annotations

from collections import Counter

from reference_engine.core.invariant import invariant
from reference_engine.rulesets.redemption.observations import replay
from reference_engine.core.traceview import TraceView

RULESET = "redemption"
RULE = {"reg-glossary": "TA.1"}


def _events_that_trigger(view: TraceView) -> int:
    return sum(1 for triples in replay(view).expected.values() if triples)


@invariant(
    key="red.triggers-on-situation",
    ruleset=RULESET,
    rules=RULE,
    summary="Each event triggers, once each, exactly the triggered abilities whose situation it is (cards where the "
    "ability works), for the card's controller; nothing else triggers.",
    exercised=_events_that_trigger,
)
def triggers_on_situation(view: TraceView) -> list[str]:
    found = []
    for event_id, triples in replay(view).expected.items():
        expected = Counter((source, ability) for source, ability, _ in triples)
        controller = {(source, ability): who for source, ability, who in triples}
        instances = view.triggers_by_event.get(event_id, ())
        actual = Counter((view.triggers[t]["source"], view.triggers[t]["ability"]) for t in instances)
        for source, ability in sorted(expected - actual):
            found.append(f"{view.describe_event(event_id)} is the situation of ability {ability} of {source}, but it "
                         f"did not trigger")
        for source, ability in sorted(actual - expected):
            found.append(f"ability {ability} of {source} triggered from {view.describe_event(event_id)} "
                         f"{'more often than once' if (source, ability) in expected else 'which is not its situation'}")
        for t in instances:
            trig = view.triggers[t]
            want = controller.get((trig["source"], trig["ability"]))
            if want is not None and trig["controller"] != want:
                found.append(f"{view.describe_trigger(t)} is held by {trig['controller']}, but {want} controlled "
                             f"{trig['source']} when it triggered")
    for t, trig in view.triggers.items():
        if trig["event"] is None:
            found.append(f"{view.describe_trigger(t)} triggered without any event; a triggered ability waits for its "
                         f"situation")
    return found
