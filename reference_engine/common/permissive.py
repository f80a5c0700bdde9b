"""Permissive reference engines: every order the rule texts might leave open becomes a branch point.

Each module here subclasses one reference engine's ``Game`` (as the faulty engines in
``reference_engine/<ruleset>/engines/faulty.py`` do) and, wherever the reference engine settles an order or a timing by its
reading of the rules (which waiting trigger, group or package goes next, the order within one event's group or one
APNAP batch, when a state check happens, where a restored trigger goes), asks an :class:`Oracle` instead. Player
choices can be branched too (:class:`BranchingChooser`). The permissive engines know no rule key: which branches
make a legal trace is decided by the judge, in ``conformance.editors`` (enumeration of every trace the rules allow).

Every branch goes through :func:`reference_engine.kernel.branching.choose`: an oracle answers ``pick(kind, label,
count, player=None) -> int`` in ``range(count)``; ``kind`` is the stable branch-point id (e.g. ``"queue-next"``,
listed with the sentences it reads in the ruleset's ``BRANCH_POINTS``), ``label`` says in words what is being
decided, ``player`` is set for a player's choice. Answer 0 is always the reference engine's own reading.

Where a ruleset option settles what the text leaves silent (an order or an outcome), the permissive engine plays
every documented reading: its options are a :class:`Readings` mapping, and the first time a game needs one of those
readings (only where it can matter: a failed Summon for ``failed_summon_event``, an object marked for defeat for
``sbc_events``...) it asks the oracle, kind ``reading:<option>``, answer 0 being the scenario's value. The reading
then holds for the rest of that play. Which reading a rule set's keys accept is, again, the judge's to say.
"""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.branching import Oracle, choose
from reference_engine.kernel.engine import Chooser


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
        k = choose(oracle, kind, range(len(remaining)), f"{label}: place {len(chosen) + 1}", player)
        chosen.append(remaining.pop(k))
    return chosen + remaining


class Readings(dict):
    """A game's resolved options in which some readings are branch points.

    ``values``: option name -> every value the engine can play (the ruleset's documented readings, in the engine's
    own terms: the engines may not import the rulesets). A name in ``on_read`` is decided by :meth:`decide` when the
    game first reads it (``self.options[name]`` or ``.get``); other names in ``values`` only when the game calls
    :meth:`decide` itself (where their reading can matter). Once decided, a reading holds for the rest of the play.
    Raises KeyError from :meth:`decide` for an option the scenario's options lack.
    """

    def __init__(self, options: dict[str, Any], oracle: Oracle, values: dict[str, tuple], on_read=()):
        super().__init__(options)
        self.oracle = oracle
        self.values = values
        self.on_read = frozenset(on_read)
        self.decided: set[str] = set()

    def decide(self, name: str, why: str = "", bookkeeping: bool = False) -> Any:
        """The reading of ``name``, asked the first time (``bookkeeping``: asked where its answer is not seen yet,
        :func:`~reference_engine.kernel.branching.choose`)."""
        if name not in self.decided:
            self.decided.add(name)
            current = dict.__getitem__(self, name)
            order = [current] + [v for v in self.values[name] if v != current]
            label = f"reading of {name}{f' ({why})' if why else ''}: " + " or ".join(str(v) for v in order)
            self[name] = choose(self.oracle, f"reading:{name}", order, label, bookkeeping=bookkeeping)
        return dict.__getitem__(self, name)

    def __getitem__(self, name: str) -> Any:
        if name in self.on_read:
            return self.decide(name)
        return dict.__getitem__(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        if name in self.on_read and name in self:
            return self.decide(name)
        return dict.get(self, name, default)


class BranchingChooser:
    """A :class:`Chooser` whose every answer is a branch of ``oracle`` (kind ``player-*``, with the player: ``player-order``,
    ``player-optional``, and ``player-<kind>`` for a unit's own question); answer 0 is what ``fallback`` (the scenario's
    own chooser, whose ``kind(name)`` gives the question's label) says."""

    def __init__(self, oracle: Oracle, fallback: Chooser):
        self.oracle = oracle
        self.fallback = fallback

    def order(self, player: str, triggers: list[dict[str, Any]]) -> list[int]:
        preferred = list(self.fallback.order(player, triggers))
        names = ", ".join(t["id"] for t in triggers)
        return permuted(self.oracle, "player-order", f"{player} orders {names}", preferred, preferred, player)

    def optional(self, player: str, trigger: dict[str, Any]) -> bool:
        preferred = bool(self.fallback.optional(player, trigger))
        return choose(self.oracle, "player-optional", (preferred, not preferred),
                      f"{player} uses optional {trigger['id']} or not", player)

    def choose(self, kind: str, player: str, context: dict[str, Any], candidates: list[Any]) -> int:
        """A unit's own question ``kind``: branch point ``player-<kind>``, answer 0 the fallback's."""
        first = self.fallback.choose(kind, player, context, candidates)
        order = [first] + [k for k in range(len(candidates)) if k != first]
        declared = getattr(self.fallback, "kind", None)
        label = declared(kind).branch_label(player, context) if declared else f"{player} answers {kind}"
        return choose(self.oracle, f"player-{kind}", order, label, player)


__all__ = ["BranchingChooser", "FirstOracle", "Oracle", "Readings", "permuted"]
