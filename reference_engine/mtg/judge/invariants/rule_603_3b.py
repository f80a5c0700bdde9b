"""MTG 603.3b (with 101.4): triggered abilities waiting when a player would receive priority go on the stack player
by player in APNAP order, each player's in the order they choose. From the 2021-04-19 rules (edition 2026-02-27)
this happens in two passes, abilities that trigger on another ability triggering going in the second; the
2021-02-24 edition has one pass.

The judge does not take the engine's word for what went on the stack together. Its placements
(observations.placements) hold every ability that had triggered, and was neither on the stack nor removed, when the
first of them was put on the stack: the whole of that set goes on in one run, in APNAP order over the whole set.
An ability missing from the run (put on later, after another check of state-based actions) breaks the rule, and
so does one put on in the run that triggered only during it (it waits for the next run)."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import (
    PASSES, born_at, catalog, ended_before, chooser, describe, placements, specs, turns,
)
from reference_engine.kernel.traceview import TraceView, memoized


# 603.3b's two-part process dates from the rules update of 2021-04-19.
TWO_PASS_EDITIONS = frozenset({"2026-02-27"})


def _second_pass(view: TraceView, trigger: str) -> bool:
    """Whether a trigger instance of the trace belongs to 603.3b's second part (Reading.second_pass)."""
    return trigger in _second_pass_triggers(view)


@memoized
def _second_pass_triggers(view: TraceView) -> frozenset[str]:
    """The trigger instances of the trace that belong to 603.3b's second part, found once per trace."""
    cat, membership = catalog(view), view.options.get("pass_two_membership", "triggering-only")
    table = specs(view)
    return frozenset(t for t in view.triggers if cat.second_pass(table.get(t), membership))


def _segments(view: TraceView):
    """The pushes APNAP order applies to: each pass of each batch (the whole batch in a one-pass edition)."""
    two_pass = view.edition in TWO_PASS_EDITIONS
    second = _second_pass_triggers(view) if two_pass else frozenset()
    for placement in placements(view):
        triggers = [t for t in placement.pushed if t in view.triggers]
        if two_pass:
            yield [t for t in triggers if t not in second]
            yield [t for t in triggers if t in second]
        else:
            yield triggers


def _multi_player_segments(view: TraceView) -> int:
    """Passes mixing players, plus runs gathering abilities that triggered at different moments (e.g. during a
    resolution and in the state-based actions after it)."""
    mixed = sum(1 for seg in _segments(view) if len({view.triggers[t]["controller"] for t in seg}) > 1)
    return mixed + sum(1 for p in placements(view) if len({born_at(view, t) for t in p.waiting}) > 1)


@invariant(
    passes=PASSES,
    key="mtg.apnap-order",
    ruleset="mtg",
    rules={"2026-02-27": "603.3b", "2021-02-24": "603.3b"},
    summary="Every triggered ability waiting when abilities start going on the stack goes on in that one run (the "
    "judge computes the run), the active player's first, then each other player's in turn order, each player's in "
    "the order they chose.",
    exercised=_multi_player_segments,
)
def apnap_order(view: TraceView) -> list[str]:
    return run_order_problems(view)


def run_order_problems(view: TraceView, nap_first: bool = False) -> list[str]:
    """603.3b's runs judged with the players in APNAP order (``nap_first``: the non-active players in turn order,
    then the active player, a draft's reading, conformance.editors' ``reference_engine.mtg.judge.drafts``): each
    pass of each run complete, the players' abilities in that order, each player's own in the order they chose."""
    found = _incomplete_placements(view)
    plan = turns(view)
    prefer = chooser(view)
    for segment in _segments(view):
        # 101.4 from the active player of the turn the run happens in (500.1)
        active = plan.active.get(plan.turn_at(view.trigger_index[segment[0]]), view.active_player) if segment \
            else view.active_player
        order = catalog(view).apnap(active=active)
        if nap_first:
            order = [p for p in order if p != active] + [p for p in order if p == active]
        rank = {p: n for n, p in enumerate(order)}
        highest = None
        for t in segment:
            controller = view.triggers[t]["controller"]
            if highest is not None and rank.get(controller, 99) < rank.get(highest[1], 99):
                found.append(f"{t} (controlled by {controller}) went on the stack after {highest[0]} (controlled by "
                             f"{highest[1]}), but {controller} comes first in "
                             + (f"the draft's order, non-active players first, from the active player {active}"
                                if nap_first else f"APNAP order from the active player {active}"))
                break
            if highest is None or rank.get(controller, 99) > rank.get(highest[1], 99):
                highest = (t, controller)
        for player in rank:
            mine = [t for t in segment if view.triggers[t]["controller"] == player]
            keys = [prefer.order_key(view.triggers[t]) for t in mine]
            for a in range(len(mine) - 1):
                if keys[a] < keys[a + 1]:
                    found.append(f"{player} chose to have {mine[a]} resolve before {mine[a + 1]}, yet {mine[a]} went "
                                 f"on the stack first (the last put on the stack resolves first)")
                    break
    return found


def _incomplete_placements(view: TraceView) -> list[str]:
    found = []
    for placement in placements(view):
        waiting, pushed = set(placement.waiting), set(placement.pushed)
        cut_short = ended_before(view, placement.end + 1)  # the game ended in the middle of the run (104.4b)
        left_out = [] if cut_short else [t for t in placement.waiting if t not in pushed]
        if left_out:
            found.append(f"{', '.join(describe(view, t) for t in left_out)} had triggered and was waiting when "
                         f"triggered abilities were put on the stack at entry {placement.begin}, but was left out of "
                         f"that run (it ended at entry {placement.end}); every ability that triggered since a player "
                         f"last received priority goes on the stack together")
        early = [t for t in placement.pushed if t not in waiting and t in view.triggers]
        if early:
            found.append(f"{', '.join(early)} went on the stack in the run that began at entry {placement.begin} "
                         f"though it triggered only during that run; it waits until state-based actions have been "
                         f"checked again")
    return found


def _mixed_batches(view: TraceView) -> int:
    count = 0
    for placement in placements(view):
        kinds = {_second_pass(view, t) for t in placement.pushed if t in view.triggers}
        count += len(kinds) == 2
    return count


@invariant(
    passes=PASSES,
    key="mtg.trigger-on-trigger-last",
    ruleset="mtg",
    rules={"2026-02-27": "603.3b"},
    summary="Abilities that trigger on another ability triggering go on the stack after every other waiting ability "
    "(603.3b's second pass).",
    exercised=_mixed_batches,
)
def trigger_on_trigger_last(view: TraceView) -> list[str]:
    found = []
    for placement in placements(view):
        first_second = None
        for t in placement.pushed:
            if t not in view.triggers:
                continue
            if _second_pass(view, t):
                first_second = first_second or t
            elif first_second is not None:
                found.append(f"{t} (ability {view.triggers[t]['ability']}, controlled by {view.triggers[t]['controller']}) "
                             f"went on the stack after {first_second}, which triggers on another ability triggering and "
                             f"belongs to the second pass")
                break
    return found
