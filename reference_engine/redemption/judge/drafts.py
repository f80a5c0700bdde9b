"""Ready-made draft invariants for Redemption, for the editors' ``diff`` and ``lint-rules`` (``--with
reference_engine.redemption.judge.drafts:SEAT_ORDER``; ``diff --list-edits`` lists it).

:data:`SEAT_ORDER` (keys ``red.active-player-first`` and ``red.optional-active-player-first``, replacing the published
ones): TA.4 and TA.5 read with seat order instead of turn order: after the active player, the other players take their
simultaneous triggers in the order of the table from its first seat (the ``players`` list), not in turn order from the
active player. The two differ with three or four players and the active player in a middle seat.
"""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.traceview import TraceView
from reference_engine.redemption.judge.invariants._ordering import (
    both_optional, involves_mandatory, seat_occasions, seat_problems,
)
from reference_engine.redemption.judge.observations import PASSES


def _seats_from_first_seat(view: TraceView) -> dict[str, int]:
    """Player -> place: the active player first, then the others in the order of the table from its first seat."""
    others = [p for p in view.players if p != view.active_player]
    return {p: n for n, p in enumerate([view.active_player] + others)}


def _seat_draft(key: str, summary: str, keep, what: str):
    @invariant(key=key, ruleset="redemption", rules={"reg-glossary": "TA.4" if "optional" not in key else "TA.5"},
               summary=summary, exercised=lambda view: seat_occasions(view, keep), passes=PASSES)
    def check(view: TraceView) -> list[str]:
        return seat_problems(view, keep, what, seats=_seats_from_first_seat(view))
    return check


def _seat_order() -> list:
    return [_seat_draft("red.active-player-first", "DRAFT (seat order for TA.4): of triggers free at the same time "
                        "(at least one mandatory), the active player's activate first, then the others' in seat order "
                        "from the first seat.", involves_mandatory, "triggers"),
            _seat_draft("red.optional-active-player-first", "DRAFT (seat order for TA.5): of optional triggers free "
                        "at the same time, the active player's first, then the others' in seat order from the first "
                        "seat.", both_optional, "optional triggers")]


SEAT_ORDER = _seat_order()
