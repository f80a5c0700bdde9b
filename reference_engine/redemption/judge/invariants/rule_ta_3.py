"""Redemption TA.3: triggered abilities are optional ("may") or mandatory. An optional one activates only while its
card is controlled by its holder and is in play or in the set-aside area. A mandatory one lasts, unless negated,
for at least the rest of the phase, whether or not its card is still in play or set aside, unless the card states
a different duration; negating it ends it. What happens after that phase is option ``mandatory_after_phase``."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.redemption.judge.observations import (
    REDEMPTION_REASONS, ability, is_optional, optional_triggers, replay,
)
from reference_engine.redemption.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView, memoized

RULESET = "redemption"
RULE = {"reg-glossary": "TA.3"}


def _where(state, card: str) -> str:
    return state.zones.get(card, "nowhere")


def _optional_turns(view: TraceView) -> int:
    optional = optional_triggers(view)
    return sum(1 for t in replay(view).turns if t in optional)


@invariant(
    passes=PASSES,
    key="red.optional-needs-card",
    ruleset=RULESET,
    rules=RULE,
    summary="An optional trigger activates only if, when its turn comes, its card is in play or set aside and still "
    "controlled by its holder; otherwise it does not activate, and is removed for that reason (source_gone).",
    exercised=_optional_turns,
)
def optional_needs_card(view: TraceView) -> list[str]:
    found = []
    r, optional = replay(view), optional_triggers(view)
    for t, turn in r.turns.items():
        if t not in optional:
            continue
        trig = view.triggers[t]
        card, holder = trig["source"], trig["controller"]
        state = r.state_at[turn.index]
        able = state.present(card) and state.controllers.get(card) == holder
        entry = view.entries[turn.index]
        if not able and not (entry["kind"] == "removed" and entry["reason"] == "source_gone"):
            why = (f"{card} was in {_where(state, card)}" if not state.present(card)
                   else f"{card} was controlled by {state.controllers.get(card)}, not by its holder {holder}")
            if entry["kind"] == "resolve_begin":
                found.append(f"optional {view.describe_trigger(t)} activated at entry {turn.index}, but {why}")
            else:
                found.append(f"optional {view.describe_trigger(t)} was removed as {entry['reason']} at entry "
                             f"{turn.index}, but {why}: it could not activate whatever its holder chose, and is "
                             f"removed for that (source_gone) without the holder being asked")
        elif entry["kind"] == "removed" and entry["reason"] == "source_gone" and able:
            found.append(f"optional {view.describe_trigger(t)} was removed as if its card were gone at entry "
                         f"{turn.index}, but {card} was in {_where(state, card)} under its holder {holder}")
    return found


def _mandatory(view: TraceView):
    optional = optional_triggers(view)
    return [t for t in view.triggers if t not in optional]


@memoized
def _mandatory_card_gone(view: TraceView) -> list[str]:
    """Mandatory triggers whose card was out of play and set-aside when their turn came (or at the end, if none)."""
    r = replay(view)
    out = []
    for t in _mandatory(view):
        end = r.ends.get(t)
        state = r.state_at.get(end) if end is not None else r.final
        if state is not None and not state.present(view.triggers[t]["source"]):
            out.append(t)
    return out


@invariant(
    passes=PASSES,
    key="red.mandatory-persists",
    ruleset=RULESET,
    rules=RULE,
    summary="A mandatory trigger still activates after its card has left play or the set-aside area, unless its card "
    "says otherwise (then it ends) or it was negated or lapsed.",
    exercised=lambda view: len(_mandatory_card_gone(view)),
)
def mandatory_persists(view: TraceView) -> list[str]:
    found = []
    r = replay(view)
    for t in _mandatory(view):
        trig = view.triggers[t]
        card = trig["source"]
        says_otherwise = bool(ability(view, t).get("ends_if_card_leaves"))
        end = r.ends.get(t)
        if end is None:
            if not r.final.present(card):
                found.append(f"mandatory {view.describe_trigger(t)} never activated after {card} went to "
                             f"{_where(r.final, card)}; it persists even though its card left")
            continue
        entry = view.entries[end]
        state = r.state_at[end]
        if entry["kind"] == "removed" and entry["reason"] in ("source_gone", "intervening_if"):
            found.append(f"mandatory {view.describe_trigger(t)} was dropped ({entry['reason']}) at entry {end} "
                         f"with {card} in {_where(state, card)}; a mandatory trigger persists even if its card leaves")
        elif entry["kind"] == "removed" and entry["reason"] == "card_left":
            if not says_otherwise:
                found.append(f"mandatory {view.describe_trigger(t)} was ended at entry {end} because {card} left, but "
                             f"its card does not say that it ends then")
            elif state.present(card):
                found.append(f"{view.describe_trigger(t)} was ended at entry {end} as if {card} had left, but it was "
                             f"in {_where(state, card)}")
        elif entry["kind"] == "resolve_begin" and says_otherwise and not state.present(card):
            found.append(f"{view.describe_trigger(t)} activated at entry {end} with {card} in {_where(state, card)}, "
                         f"but its card says the ability ends once the card is gone")
    return found


def _mandatory_turns(view: TraceView) -> int:
    optional = optional_triggers(view)
    return sum(1 for t in replay(view).turns if t not in optional)


@invariant(
    passes=PASSES,
    key="red.mandatory-no-choice",
    ruleset=RULESET,
    rules=RULE,
    summary="A mandatory trigger gives no choice: its holder is never asked whether to use it, and it is never "
    "declined.",
    exercised=_mandatory_turns,
)
def mandatory_no_choice(view: TraceView) -> list[str]:
    found = []
    mandatory = set(_mandatory(view))
    for i in view.by_kind["choice"]:
        entry = view.entries[i]
        if entry["decision"] == "optional":
            for t in entry.get("among", ()):
                if t in mandatory:
                    found.append(f"{entry['player']} was asked at entry {i} whether to use mandatory "
                                 f"{view.describe_trigger(t)}")
    for t, i in view.unresolved.items():
        if t in mandatory and view.entries[i]["reason"] == "declined":
            found.append(f"mandatory {view.describe_trigger(t)} was declined at entry {i}")
    return found


@memoized
def _negations(view: TraceView) -> list[tuple[int, dict, list[str]]]:
    """(index, negate event, pending instances it negates)."""
    r = replay(view)
    out = []
    for i in view.by_kind["event"]:
        event = view.entries[i]
        if event["type"] != "negate":
            continue
        hit = [t for t in r.pending_at.get(i, ())
               if view.triggers[t]["source"] == event.get("subject")
               and event.get("ability") in (None, view.triggers[t]["ability"])]
        out.append((i, event, hit))
    return out


@invariant(
    passes=PASSES,
    key="red.negation-ends",
    ruleset=RULESET,
    rules=RULE,
    summary="Negating a card's pending triggered abilities ends them at once: they never activate; nothing else is "
    "removed as negated.",
    exercised=lambda view: sum(1 for _, _, hit in _negations(view) if hit),
)
def negation_ends(view: TraceView) -> list[str]:
    found = []
    justified: set[str] = set()
    for i, event, hit in _negations(view):
        for t in hit:
            justified.add(t)
            removed = view.unresolved.get(t)
            if removed is None or view.entries[removed]["reason"] != "negated":
                what = ("it activated" if t in view.resolve_begin else
                        f"it was removed as {view.entries[removed]['reason']}" if removed is not None else
                        "it stayed pending")
                found.append(f"{view.describe_trigger(t)} was pending when {view.describe_event(event['id'])} negated "
                             f"it, yet {what}")
            elif any(view.entries[k]["kind"] != "removed" or view.entries[k]["reason"] != "negated"
                     for k in range(i + 1, removed)):
                found.append(f"{view.describe_trigger(t)} was removed as negated at entry {removed}, not at once when "
                             f"{view.describe_event(event['id'])} negated it at entry {i}")
    for t, i in view.unresolved.items():
        if view.entries[i]["reason"] == "negated" and t not in justified:
            found.append(f"{view.describe_trigger(t)} was removed as negated at entry {i}, but no negation named it "
                         f"while it was pending")
    return found


@memoized
def _phase_end_cases(view: TraceView) -> list[tuple[int, str]]:
    """(step_advance index, pending mandatory trigger whose card was gone then)."""
    r = replay(view)
    out = []
    for i in view.step_advances:
        state = r.state_at[i]
        for t in r.pending_at.get(i, ()):
            if not is_optional(view, t) and not state.present(view.triggers[t]["source"]):
                out.append((i, t))
    return out


def _phase_end_pending(view: TraceView) -> int:
    """Pending triggers (optional ones too: they must not lapse) whose card was gone when a phase ended."""
    r = replay(view)
    return sum(1 for i in view.step_advances for t in r.pending_at.get(i, ())
               if not r.state_at[i].present(view.triggers[t]["source"]))


@invariant(
    passes=PASSES,
    key="red.mandatory-after-phase",
    ruleset=RULESET,
    rules=RULE,
    summary="When the phase ends, a pending mandatory trigger whose card is gone lapses at once (option "
    "mandatory_after_phase=lapse) or keeps waiting (persist); nothing else lapses (an optional one keeps its turn).",
    exercised=lambda view: _phase_end_pending(view),
)
def mandatory_after_phase(view: TraceView) -> list[str]:
    found = []
    lapse = view.options.get("mandatory_after_phase", "lapse") == "lapse"
    cases = _phase_end_cases(view)
    justified: set[str] = set()
    blocking = {"resolve_begin", "action_begin", "activation_begin", "choice", "step_begin"}
    for advance, t in cases:
        removed = view.unresolved.get(t)
        reason = view.entries[removed]["reason"] if removed is not None else None
        if lapse:
            justified.add(t)
            if reason != "expired":
                what = "activated later" if t in view.resolve_begin else (reason or "stayed pending")
                found.append(f"mandatory {view.describe_trigger(t)} was pending with its card gone when the phase "
                             f"ended at entry {advance}; it should lapse then (mandatory_after_phase=lapse), but "
                             f"{what}")
            elif any(view.entries[k]["kind"] in blocking for k in range(advance + 1, removed)):
                found.append(f"mandatory {view.describe_trigger(t)} lapsed at entry {removed}, not as the phase ended "
                             f"at entry {advance}")
        elif reason == "expired":
            justified.add(t)
            found.append(f"mandatory {view.describe_trigger(t)} lapsed at entry {removed} although "
                         f"mandatory_after_phase=persist keeps it waiting past the end of the phase")
    for t, i in view.unresolved.items():
        if view.entries[i]["reason"] == "expired" and t not in justified:
            found.append(f"{view.describe_trigger(t)} lapsed at entry {i}, but it was not a pending mandatory trigger "
                         f"whose card was gone when a phase ended")
    return found


def _removals(view: TraceView) -> int:
    return len(view.unresolved)


@invariant(
    passes=PASSES,
    key="red.removal-reason",
    ruleset=RULESET,
    rules=RULE,
    summary="A trigger leaves without activating only for a reason Redemption has, and one that fits it: declined or "
    "card gone (optional ones), card left (a mandatory one whose card says so), negated, or lapsed at a phase's end.",
    exercised=_removals,
)
def removal_reason(view: TraceView) -> list[str]:
    found = []
    for t, i in sorted(view.unresolved.items(), key=lambda item: item[1]):
        reason = view.entries[i]["reason"]
        if t not in view.triggers:
            continue
        optional = is_optional(view, t)
        if reason not in REDEMPTION_REASONS:
            found.append(f"{view.describe_trigger(t)} was removed at entry {i} for reason {reason!r}, which is not a "
                         f"Redemption reason (a triggered ability ends only by activating, by being negated, by lapsing "
                         f"at the end of a phase, or when its turn comes: declined, its card gone, or its card left)")
        elif reason in ("declined", "source_gone") and not optional:
            found.append(f"mandatory {view.describe_trigger(t)} was removed at entry {i} as {reason}, a reason only an "
                         f"optional trigger has")
        elif reason == "card_left" and (optional or not ability(view, t).get("ends_if_card_leaves")):
            found.append(f"{'optional' if optional else 'mandatory'} {view.describe_trigger(t)} was removed at entry "
                         f"{i} as card_left, but only a mandatory trigger whose card says it ends once the card is gone "
                         f"ends that way")
    return found
