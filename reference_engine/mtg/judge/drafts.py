"""Ready-made draft invariants for MTG, for the editors' ``diff`` and ``lint-rules`` (``--with
reference_engine.mtg.judge.drafts:NAP_FIRST``; ``diff --list-edits`` lists it).

:data:`NAP_FIRST` (key ``mtg.apnap-order``, replacing the published one): a draft that changes one reading of 603.3b:
in each pass of each run of abilities going on the stack, the non-active players' go first (in turn order), then the
active player's (so the active player's resolve first). Everything else 603.3b says stays as published, judged by the
published key's own code (``run_order_problems``): each run complete, 603.3b's two passes each ordered on its own
(the draft does not contradict the second pass), and each player's own abilities in the order that player chose
(the draft leaves a player's own order to the player). A draft that checked only who goes first dropped both, and
the editors' tools then reported a player's own order as an ambiguity and the second pass as a contradiction
(issue 28 item 4, tests/test_editors_false_findings.py).
"""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.traceview import TraceView
from reference_engine.mtg.judge.invariants.rule_603_3b import _multi_player_segments, run_order_problems
from reference_engine.mtg.judge.observations import PASSES


@invariant(passes=PASSES, key="mtg.apnap-order", ruleset="mtg", rules={"2026-02-27": "603.3b", "2021-02-24": "603.3b"},
           summary="DRAFT (a changed reading of 603.3b): in each pass of each run, the non-active players' triggered "
           "abilities go on the stack before the active player's, so the active player's resolve first; each "
           "player's own in the order they chose.", exercised=_multi_player_segments)
def NAP_FIRST(view: TraceView) -> list[str]:  # noqa: N802
    return run_order_problems(view, nap_first=True)
