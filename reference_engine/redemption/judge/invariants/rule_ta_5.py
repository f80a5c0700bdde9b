"""Redemption TA.5: for simultaneous optional triggers the order of players is the same as in TA.4 (active player,
then the others in turn order); each player takes their own in an order they pick and decides, one by one, whether to
resolve them."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.redemption.judge.invariants._ordering import (
    both_optional, own_order_occasions, own_order_problems, seat_occasions, seat_problems,
)
from reference_engine.redemption.judge.observations import chooser, is_optional, optional_triggers, replay
from reference_engine.redemption.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView, memoized

RULESET = "redemption"
RULE = {"reg-glossary": "TA.5"}


@invariant(
    passes=PASSES,
    key="red.optional-active-player-first",
    ruleset=RULESET,
    rules=RULE,
    summary="Of optional triggers free at the same time, all the active player's take their turn first, then each "
    "inactive player's in turn order, whatever later happens to those still waiting.",
    exercised=lambda view: seat_occasions(view, both_optional),
)
def optional_active_player_first(view: TraceView) -> list[str]:
    return seat_problems(view, both_optional, "optional triggers")


@invariant(
    passes=PASSES,
    key="red.optional-own-order",
    ruleset=RULESET,
    rules=RULE,
    summary="Each player's simultaneous optional triggers take their turns in the order that player chose.",
    exercised=lambda view: own_order_occasions(view, both_optional),
)
def optional_own_order(view: TraceView) -> list[str]:
    return own_order_problems(view, both_optional, "optional triggers")


@memoized
def _optional_choices(view: TraceView) -> dict[str, dict]:
    """Optional-use choice entries by trigger id (the first for each)."""
    out: dict[str, dict] = {}
    for i in view.by_kind["choice"]:
        entry = view.entries[i]
        if entry["decision"] == "optional":
            for t in entry.get("among", ()):
                out.setdefault(t, {**entry, "_index": i})
    return out


def _asked(view: TraceView) -> int:
    optional = optional_triggers(view)
    return sum(1 for t in replay(view).turns if t in optional
               and (t in view.resolve_begin or view.entries[view.unresolved[t]]["reason"] == "declined"))


@invariant(
    passes=PASSES,
    key="red.optional-choice",
    ruleset=RULESET,
    rules=RULE,
    summary="An optional trigger activates only if its holder, asked when its turn comes (right before it activates "
    "or is declined, never earlier), chose to resolve it; one its holder declines does not activate.",
    exercised=_asked,
)
def optional_choice(view: TraceView) -> list[str]:
    found = []
    choices, optional = _optional_choices(view), optional_triggers(view)
    for t, turn in replay(view).turns.items():
        if t not in optional:
            continue
        trig = view.triggers[t]
        entry = view.entries[turn.index]
        if entry["kind"] == "removed" and entry["reason"] not in ("declined",):
            continue
        choice = _choice_just_before(view, t, turn.index)
        wanted = bool(chooser(view).optional(trig["controller"], trig))
        if choice is None:
            asked_at = choices.get(t, {}).get("_index")
            when = (f" (it was asked at entry {asked_at}, not when its turn came)" if asked_at is not None
                    and asked_at < turn.index else "")
            found.append(f"optional {view.describe_trigger(t)} "
                         f"{'activated' if entry['kind'] == 'resolve_begin' else 'was declined'} at entry {turn.index} "
                         f"without its holder {trig['controller']} being asked at its turn{when}")
            continue
        if choice["player"] != trig["controller"]:
            found.append(f"{choice['player']} was asked about optional {view.describe_trigger(t)}, which "
                         f"{trig['controller']} holds")
        if choice["chosen"] is not wanted:
            found.append(f"{trig['controller']}'s answer for optional {view.describe_trigger(t)} is "
                         f"{'yes' if wanted else 'no'}, but the trace records {choice['chosen']}")
        if (entry["kind"] == "resolve_begin") is not bool(choice["chosen"]):
            found.append(f"optional {view.describe_trigger(t)} "
                         f"{'activated although its holder declined it' if entry['kind'] == 'resolve_begin' else 'was removed although its holder chose to use it'}")
    turns = replay(view).turns
    for i in view.by_kind["choice"]:
        entry = view.entries[i]
        if entry["decision"] != "optional":
            continue
        for t in entry.get("among", ()):
            if t not in view.triggers or not is_optional(view, t):
                continue  # a question about a mandatory trigger is red.mandatory-no-choice's business
            turn = turns.get(t)
            answered = turn is not None and turn.index == i + 1 and (
                view.entries[turn.index]["kind"] == "resolve_begin" or view.entries[turn.index]["reason"] == "declined")
            if not answered:
                found.append(f"{entry['player']} was asked about optional {view.describe_trigger(t)} at entry {i}, "
                             f"but not as its turn came: the answer is not followed at once by its activation or its "
                             f"declining (a holder decides when the trigger's turn comes, once its card is found able)")
    return found


def _choice_just_before(view: TraceView, trigger: str, turn: int) -> dict | None:
    """The optional-use choice about ``trigger`` recorded just before its turn at entry ``turn``, if any."""
    if turn == 0:
        return None
    entry = view.entries[turn - 1]
    if entry["kind"] == "choice" and entry["decision"] == "optional" and trigger in entry.get("among", ()):
        return entry
    return None
