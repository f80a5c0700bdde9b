"""Draft invariants an editor might write, kept to show what ``lint-rules --with`` finds (docs/editors.md, tests).

* :data:`STRICT_FIFO` (key ``mw.queue-fifo``, replacing the published one): Momon Wonder 11.2.4's first-in,
  first-out sentence read strictly, without the exception its last sentence makes for the Missed Trigger Remedy in
  sanctioned play: every entry is appended (no front placement), and in every queue what was enqueued first
  leaves first.
* :data:`AHEAD_OF_PENDING` (key ``mw.draft-ahead-of-pending``): a reading 11.2.5 contradicts: a trigger that arises
  while an ability resolves leaves its queue before every trigger already waiting there.
* ``reference_engine.mtg.judge.drafts:NAP_FIRST`` (key ``mtg.apnap-order``, replacing the published one; with the
  ruleset, as it reuses the published key's judging of runs, passes and each player's chosen order): MTG 603.3b read
  with the non-active players' abilities on the stack first.

* ``reference_engine.redemption.judge.drafts:SEAT_ORDER`` (with the ruleset, since the harness reaches a ruleset's
  judge only through the registry): Redemption TA.4 and TA.5 read with seat order instead of turn order.

All are real invariants (they fail on traces that break them; tests/test_editors_analysis.py shows each failing),
not stubs: ``--with conformance.editors.drafts:STRICT_FIFO``. :data:`READY_MADE` lists them by ruleset for
``diff --list-edits``.
"""

from __future__ import annotations

from collections import defaultdict

from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.traceview import TraceView


def _queues(view: TraceView) -> dict[str, list[tuple[int, str]]]:
    """Queue name -> (enqueue entry index, trigger id), in the order of the enqueue entries."""
    queues: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for i in view.by_kind["enqueue"]:
        entry = view.entries[i]
        queues[entry["queue"]].append((i, entry["trigger"]))
    return queues


def _contested(view: TraceView) -> int:
    return sum(1 for items in _queues(view).values() if len(items) > 1)


@invariant(key="mw.queue-fifo", ruleset="momon-wonder", rules={"1.0.0": "11.2.4"},
           summary="DRAFT: every queue is strictly first in, first out, front placement notwithstanding.",
           exercised=_contested)
def STRICT_FIFO(view: TraceView) -> list[str]:  # noqa: N802 - a module-level invariant named as a constant
    found = []
    for i in view.by_kind["enqueue"]:
        if view.entries[i].get("placement") == "front":
            found.append(f"{view.describe_trigger(view.entries[i]['trigger'])} was put at the front of "
                         f"{view.entries[i]['queue']} at entry {i}; a strictly first-in, first-out queue only appends")
    for queue, items in _queues(view).items():
        for n, (entered, first) in enumerate(items):
            for later_entered, later in items[n + 1:]:
                left_first, left_later = view.left_at(first), view.left_at(later)
                if left_later is not None and (left_first is None or left_later < left_first):
                    found.append(f"{view.describe_trigger(later)} entered {queue} at entry {later_entered}, after "
                                 f"{view.describe_trigger(first)} (entry {entered}), yet left it first (entry "
                                 f"{left_later}); strictly first in, first out forbids it")
    return found


def _arisen_during_resolution(view: TraceView) -> list[str]:
    return [t for t, trigger in view.triggers.items() if trigger.get("event")
            and "resolution" in view.events[trigger["event"]]["cause"]]


def _first_enqueues(view: TraceView) -> dict[str, int]:
    """Trigger id -> the index of its first enqueue entry."""
    first: dict[str, int] = {}
    for i in view.by_kind.get("enqueue", ()):
        first.setdefault(view.entries[i]["trigger"], i)
    return first


@invariant(key="mw.draft-ahead-of-pending", ruleset="momon-wonder", rules={"1.0.0": "11.2.5"},
           summary="DRAFT (contradicts 11.2.5): a trigger arising during a resolution goes before every trigger "
           "already waiting in its queue.", exercised=lambda view: len(_arisen_during_resolution(view)))
def AHEAD_OF_PENDING(view: TraceView) -> list[str]:  # noqa: N802
    found = []
    arisen = set(_arisen_during_resolution(view))
    enqueued = _first_enqueues(view)
    for queue, items in _queues(view).items():
        for n, (entered, waiting) in enumerate(items):
            for _, later in items[n + 1:]:
                if later not in arisen or waiting in arisen:
                    continue
                left_waiting, left_later = view.left_at(waiting), view.left_at(later)
                if left_waiting is not None and left_waiting < enqueued[later]:
                    continue  # it had already left when the new trigger arrived
                if left_later is None or (left_waiting is not None and left_waiting < left_later):
                    found.append(f"{view.describe_trigger(later)} arose during a resolution but left {queue} after "
                                 f"{view.describe_trigger(waiting)}, which was already waiting; the draft puts it "
                                 "ahead")
    return found


# The ready-made drafts by ruleset: ``--with`` spec -> what it changes (``diff --list-edits``).
READY_MADE: dict[str, dict[str, str]] = {
    "momon-wonder": {"conformance.editors.drafts:STRICT_FIFO":
                     "11.2.4 read strictly first in, first out (the remedy's exception dropped)",
                     "conformance.editors.drafts:AHEAD_OF_PENDING":
                     "11.2.5 reversed: triggers arising during a resolution go first"},
    "mtg": {"reference_engine.mtg.judge.drafts:NAP_FIRST":
            "603.3b with the non-active players' abilities on the stack first"},
    "redemption": {"reference_engine.redemption.judge.drafts:SEAT_ORDER":
                   "TA.4 and TA.5 in seat order from the first seat instead of turn order from the active player"},
}
