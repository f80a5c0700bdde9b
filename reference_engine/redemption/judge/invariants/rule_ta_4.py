"""Redemption TA.4: of several mandatory triggers that fire together, every one the active player controls is
resolved first, in an order that player picks; the other players follow one after another in turn order, each
picking the order of their own.

Mandatory and optional triggers that become free together share one order (reference_engine/redemption/docs.md), so this
paragraph judges every pair in which at least one trigger is mandatory; TA.5 judges pairs of optional ones. A pair is
a trigger that took its turn and one free in the same batch that was still waiting then, whatever became of the latter
afterwards (it may never take its turn: negated or lapsed meanwhile), so the order the paragraph sets holds for
every trigger, not only for those that both activated (issue 9)."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.redemption.judge.invariants._ordering import (
    involves_mandatory, own_order_occasions, own_order_problems, seat_occasions, seat_problems,
)
from reference_engine.redemption.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView

RULESET = "redemption"
RULE = {"reg-glossary": "TA.4"}


@invariant(
    passes=PASSES,
    key="red.active-player-first",
    ruleset=RULESET,
    rules=RULE,
    summary="Of triggers free at the same time (at least one mandatory), all the active player's activate first, then "
    "each inactive player's in turn order; the order holds for a trigger still waiting even if it is later negated, "
    "lapses or is declined.",
    exercised=lambda view: seat_occasions(view, involves_mandatory),
)
def active_player_first(view: TraceView) -> list[str]:
    return seat_problems(view, involves_mandatory, "triggers")


@invariant(
    passes=PASSES,
    key="red.mandatory-own-order",
    ruleset=RULESET,
    rules=RULE,
    summary="Each player's simultaneous triggers (at least one mandatory) activate in the order that player chose, "
    "whatever later happens to those still waiting.",
    exercised=lambda view: own_order_occasions(view, involves_mandatory),
)
def mandatory_own_order(view: TraceView) -> list[str]:
    return own_order_problems(view, involves_mandatory, "triggers")
