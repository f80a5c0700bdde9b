"""Redemption TA.2: an "If X, Y" ability that tests its condition the moment its card is played is not a triggered
ability; it never waits, it activates as the card is played and completes or fails right then."""

from __future__ import annotations

from reference_engine.kernel.vocabulary import condition_holds
from reference_engine.kernel.invariant import invariant
from reference_engine.redemption.judge.observations import replay
from reference_engine.redemption.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView, memoized

RULESET = "redemption"
RULE = {"reg-glossary": "TA.2"}
TURNS = ("declined", "source_gone", "card_left")
CLOSING = {"action": "action_end", "resolution": "resolve_end", "activation": "activation_end"}


def _on_play(view: TraceView, card: str) -> list[str]:
    obj = view.objects.get(card, {})
    return [ab["id"] for ab in obj.get("abilities", ()) if ab.get("checks_on_play")]


def _closes(entry: dict, cause_kind: str, value) -> bool:
    if entry["kind"] != CLOSING.get(cause_kind):
        return False
    if cause_kind == "action":
        return entry["action"] == value
    return (entry.get("trigger") or entry.get("id")) == value


@memoized
def _plays(view: TraceView) -> tuple[list[str], set[int], int]:
    """(problems, activation_begin indexes matched to a play, number of (play, ability) occasions)."""
    problems: list[str] = []
    matched: set[int] = set()
    occasions = 0
    entries = view.entries
    for p in view.by_kind["event"]:
        event = entries[p]
        if event["type"] != "play" or not _on_play(view, event.get("subject")):
            continue
        card = event["subject"]
        expected = _on_play(view, card)
        occasions += len(expected)
        ((cause_kind, value),) = event["cause"].items()
        k = 0
        cut = False
        for i in range(p + 1, len(entries)):
            entry = entries[i]
            if k == len(expected):
                break
            if entry["kind"] == "activation_begin" and entry["source"] == card and i not in matched:
                if entry["ability"] != expected[k]:
                    problems.append(f"after {view.describe_event(event['id'])}, ability {entry['ability']} of {card} "
                                    f"activated at entry {i} where {expected[k]} was due (printed order)")
                matched.add(i)
                k += 1
            elif not cut and (entry["kind"] == "resolve_begin"
                              or (entry["kind"] == "removed" and entry["reason"] in TURNS)):
                problems.append(f"pending trigger {entry['trigger']} took its turn at entry {i} before ability "
                                f"{expected[k]} of {card}, played at {view.describe_event(event['id'])}, activated; "
                                f"an 'If X, Y' ability activates as its card is played")
                cut = True  # go on matching the card's activations, so that they are not reported again
            elif _closes(entry, cause_kind, value):
                break
        if k < len(expected) and not cut:
            problems.append(f"ability {expected[k]} of {card} did not activate when {card} was played at "
                            f"{view.describe_event(event['id'])}")
    return problems, matched, occasions


@invariant(
    passes=PASSES,
    key="red.if-x-y-never-waits",
    ruleset=RULESET,
    rules=RULE,
    summary="An 'If X, Y' ability that checks on play is never a pending trigger: it activates as its card is played, "
    "in printed order, before any pending trigger takes its turn.",
    exercised=lambda view: _plays(view)[2],
)
def if_x_y_never_waits(view: TraceView) -> list[str]:
    found = list(_plays(view)[0])
    for t, trig in view.triggers.items():
        if view.abilities.get((trig["source"], trig["ability"]), {}).get("checks_on_play"):
            found.append(f"{view.describe_trigger(t)} is an 'If X, Y' ability that checks on play, yet it became a "
                         f"pending trigger")
    matched = _plays(view)[1]
    for i in view.by_kind["activation_begin"]:
        entry = view.entries[i]
        if i in matched:
            continue
        if not view.abilities.get((entry["source"], entry["ability"]), {}).get("checks_on_play"):
            found.append(f"activation {entry['id']} at entry {i}: ability {entry['ability']} of {entry['source']} is not "
                         f"an ability that checks on play")
        else:
            found.append(f"activation {entry['id']} of ability {entry['ability']} at entry {i} does not follow the "
                         f"playing of {entry['source']}")
    return found


@invariant(
    passes=PASSES,
    key="red.if-x-y-checks-now",
    ruleset=RULESET,
    rules=RULE,
    summary="An 'If X, Y' ability tests X at the moment it activates, and completes or fails then: a failed one "
    "does nothing.",
    exercised=lambda view: len(view.by_kind["activation_begin"]),
)
def if_x_y_checks_now(view: TraceView) -> list[str]:
    found = []
    states = replay(view).state_at
    ended = {view.entries[i]["id"] for i in view.by_kind["activation_end"]}
    for i in view.by_kind["activation_begin"]:
        entry = view.entries[i]
        ab = view.abilities.get((entry["source"], entry["ability"]))
        if ab is None:
            continue
        held = condition_holds(ab.get("condition"), states[i].zones, entry["source"])
        if entry["condition_held"] != held:
            found.append(f"activation {entry['id']} of ability {entry['ability']} of {entry['source']} at entry {i} "
                         f"reports its condition as {'held' if entry['condition_held'] else 'failed'}, but at that "
                         f"moment it {'held' if held else 'did not hold'}")
        if not entry["condition_held"] and view.events_by_cause.get(("activation", entry["id"])):
            e = view.events_by_cause[("activation", entry["id"])][0]
            found.append(f"activation {entry['id']} of ability {entry['ability']} failed its condition, yet it caused "
                         f"{view.describe_event(e['id'])}")
        if entry["id"] not in ended:
            found.append(f"activation {entry['id']} of ability {entry['ability']} never completed")
    return found
