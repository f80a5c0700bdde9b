"""Permissive reference engines: every order the rule texts might leave open becomes a branch point.

Each module here subclasses one reference engine's ``Game`` (as the faulty engines in
``reference_engine/engines/mutants`` do) and, wherever the reference engine settles an order or a timing by its
reading of the rules (which waiting trigger, group or package goes next, the order within one event's group or one
APNAP batch, when a state check happens, where a restored trigger goes), asks an :class:`Oracle` instead. Player
choices can be branched too (:class:`BranchingChooser`). The permissive engines know no rule key: which branches
make a legal trace is decided by the judge, in ``conformance.editors`` (enumeration of every trace the rules allow).

An oracle answers ``pick(kind, label, count, player=None) -> int`` in ``range(count)``; ``kind`` names the sort of
open order (stable, e.g. ``"queue-next"``), ``label`` says in words what is being decided, ``player`` is set for a
player's choice. Answer 0 is always the reference engine's own reading where there is one.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from conformance.adapters.base import Chooser


class Oracle(Protocol):
    def pick(self, kind: str, label: str, count: int, player: str | None = None) -> int:
        ...


class FirstOracle:
    """Always answers 0: the permissive engine then plays as its reference engine does."""

    def pick(self, kind: str, label: str, count: int, player: str | None = None) -> int:
        return 0


def permuted(oracle: Oracle, kind: str, label: str, items: list, preferred: list | None = None,
             player: str | None = None) -> list:
    """One permutation of ``items`` chosen by ``oracle``, one branch point per place (which of the remaining items
    comes next), so that a tree of n items has n! leaves but a pruned prefix cuts whole subtrees. Answering 0
    everywhere gives ``preferred`` (default: ``items`` as given)."""
    remaining = list(preferred) if preferred is not None else list(items)
    chosen = []
    while len(remaining) > 1:
        k = oracle.pick(kind, f"{label}: place {len(chosen) + 1}", len(remaining), player)
        chosen.append(remaining.pop(k))
    return chosen + remaining


class BranchingChooser:
    """A :class:`Chooser` whose every answer is a branch of ``oracle`` (kind ``player-*``, with the player); answer
    0 is what ``fallback`` (the scenario's own chooser) says."""

    def __init__(self, oracle: Oracle, fallback: Chooser):
        self.oracle = oracle
        self.fallback = fallback

    def order(self, player: str, triggers: list[dict[str, Any]]) -> list[int]:
        preferred = list(self.fallback.order(player, triggers))
        names = ", ".join(t["id"] for t in triggers)
        return permuted(self.oracle, "player-order", f"{player} orders {names}", preferred, preferred, player)

    def optional(self, player: str, trigger: dict[str, Any]) -> bool:
        preferred = bool(self.fallback.optional(player, trigger))
        k = self.oracle.pick("player-optional", f"{player} uses optional {trigger['id']} or not", 2, player)
        return preferred if k == 0 else not preferred

    def target(self, player: str, trigger: dict[str, Any], candidates: list[str]) -> int:
        first = self.fallback.target(player, trigger, candidates)
        order = [first] + [k for k in range(len(candidates)) if k != first]
        return order[self.oracle.pick("player-target", f"{player} targets for {trigger['id']}", len(order), player)]

    def occurrence(self, player: str, delayed: dict[str, Any], events: list[dict[str, Any]]) -> int:
        first = self.fallback.occurrence(player, delayed, events)
        order = [first] + [k for k in range(len(events)) if k != first]
        label = f"{player} picks the occurrence for {delayed.get('id', delayed.get('ability'))}"
        return order[self.oracle.pick("player-occurrence", label, len(order), player)]


def game_factory(ruleset: str) -> Callable[[dict[str, Any], Chooser, Oracle], Any]:
    """The permissive ``Game`` class of ``ruleset``: ``cls(scenario, chooser, oracle).play() -> trace``, and
    ``.record.trace()`` is the trace so far at any branch point. Raises KeyError for an unknown ruleset."""
    if ruleset == "momon-wonder":
        from reference_engine.engines.permissive.momon_wonder import PermissiveGame
    elif ruleset == "mtg":
        from reference_engine.engines.permissive.mtg import PermissiveGame
    elif ruleset == "redemption":
        from reference_engine.engines.permissive.redemption import PermissiveGame
    else:
        raise KeyError(ruleset)
    return PermissiveGame


__all__ = ["BranchingChooser", "FirstOracle", "Oracle", "game_factory", "permuted"]
