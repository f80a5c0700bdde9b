"""Branch points: every place a rules text leaves a decision open, one choice function for all of them.

A permissive engine (``reference_engine/<ruleset>/engines/permissive.py``) is a nondeterministic interpreter of its
text: wherever its reference engine decides something the text does not dictate (an order, a membership, a timing,
a look-back, whether something happens again), it calls :func:`choose` with a stable branch-point id and the
alternatives, the reference engine's reading first. A ruleset option that names a reading of silent text is one
such branch point (id ``reading:<option>``, first alternative the scenario's value), not a separate mechanism.

Each ruleset's ``judge/sentences.py`` holds ``BRANCH_POINTS``: id -> :class:`BranchPoint`, the sentence(s) it reads
and the option naming it, if any (exposed as ``Ruleset.branch_points``; tests/test_branch_points.py checks that the
table and the ids the permissive engine uses are the same). The editors' tools (``conformance.editors``) walk
every answer at every branch point and let the invariants alone say which are legal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence, TypeVar

T = TypeVar("T")


class Oracle(Protocol):
    def pick(self, kind: str, label: str, count: int, player: str | None = None) -> int:
        ...


@dataclass(frozen=True)
class BranchPoint:
    """One decision a rules text leaves open.

    ``id``: stable, the ``kind`` an oracle is asked with; ``sentences``: the rule numbers whose sentences it reads
    (each a key of the ruleset's ``SENTENCES``); ``question``: what is open, in words; ``option``: the ruleset
    option naming its readings (None: no option names it, a reading nobody has named is *new*); ``player``: True for
    a player's own choice (never an open reading of the rules)."""

    id: str
    sentences: tuple[str, ...]
    question: str
    option: str | None = None
    player: bool = False


# The players' own choices, branched by ``reference_engine.common.permissive.BranchingChooser`` in every ruleset: the
# kernel's two questions here; a unit's own questions (its ``choice_kinds``) are branch points ``player-<kind>``
# too, listed by :func:`player_points`.
PLAYER_POINTS: dict[str, BranchPoint] = {p.id: p for p in (
    BranchPoint("player-order", (), "the order a player gives their own triggers", player=True),
    BranchPoint("player-optional", (), "whether a player uses an optional ability", player=True),
)}


def player_point(kind) -> BranchPoint:
    """The branch point of a unit's :class:`reference_engine.kernel.choices.ChoiceKind` ``kind``: ``player-<name>``."""
    return BranchPoint(f"player-{kind.name}", (), kind.description, player=True)


def player_points(kinds=()) -> dict[str, BranchPoint]:
    """id -> point of every player choice of a ruleset: the kernel's (:data:`PLAYER_POINTS`) and those of its
    ``kinds`` (its unit's choice kinds, name -> ChoiceKind)."""
    return {**PLAYER_POINTS, **{p.id: p for p in map(player_point, dict(kinds).values())}}


def choose(oracle: Oracle, point: str, alternatives: Sequence[T], label: str, player: str | None = None, *,
           bookkeeping: bool = False) -> T:
    """One of ``alternatives`` (the reference engine's reading first), as ``oracle`` answers at the branch point
    ``point`` (a stable id of the ruleset's ``BRANCH_POINTS``, or of :data:`PLAYER_POINTS` with ``player`` set);
    ``label`` says in words what is being decided. ``bookkeeping``: here the alternatives differ in what no player
    sees, or are not expected to differ otherwise (a trigger put at the front or the end of a queue holding nothing
    else); still asked, so that a key judging that bookkeeping has each alternative to judge, and an oracle with a
    ``bookkeeping(point)`` method is told first (the editors' aimed sample does not count such a question as meeting
    the branch point). Raises ValueError
    for no alternative and IndexError for an oracle answer out of range."""
    if not alternatives:
        raise ValueError(f"branch point {point} with no alternative ({label})")
    if bookkeeping and hasattr(oracle, "bookkeeping"):
        oracle.bookkeeping(point)
    k = oracle.pick(point, label, len(alternatives), player)
    if not 0 <= k < len(alternatives):
        raise IndexError(f"branch point {point}: answer {k} of {len(alternatives)} ({label})")
    return alternatives[k]


def table(*points: BranchPoint) -> dict[str, BranchPoint]:
    """id -> point, for a ruleset's ``BRANCH_POINTS``. Raises ValueError for an id given twice."""
    found: dict[str, BranchPoint] = {}
    for point in points:
        if point.id in found:
            raise ValueError(f"branch point {point.id} listed twice")
        found[point.id] = point
    return found


def reading(option: str, sentences: tuple[str, ...], question: str) -> BranchPoint:
    """The branch point of a ruleset option naming the readings of silent text (id ``reading:<option>``)."""
    return BranchPoint(f"reading:{option}", sentences, question, option=option)


__all__ = ["BranchPoint", "Oracle", "PLAYER_POINTS", "choose", "player_point", "player_points", "reading", "table"]
