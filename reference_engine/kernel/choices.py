"""Answering player choices from a scenario's ``choices``, keyed by content rather than by the order of asking.

Two engines that ask for the same decisions in a different order get the same answers, so a difference in their
traces is a difference in the rules they follow, not in the questions they happened to ask first.

Every game asks two questions, the kernel's (:data:`KERNEL_CHOICES`): ``order`` (simultaneous trigger instances of
one player, ``Chooser.order``) and ``optional`` (``Chooser.optional``). Any other question is a ruleset's own: its
unit declares it as a :class:`ChoiceKind` (the manifest's ``choice_kinds``), its engines ask it with
``Chooser.choose(kind, player, context, candidates)``, and :class:`ScenarioChooser` answers it from the scenario
``choices`` key the declaration names. A new game adds a question with no edit of the kernel.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any, Mapping

from reference_engine.kernel.unit import UnitError, units

#: The questions every game asks, answered by ``Chooser`` methods of the same names; no unit may declare them.
KERNEL_CHOICES = ("order", "optional")


@dataclass(frozen=True)
class ChoiceKind:
    """A question a ruleset unit's engines ask: which of ``candidates`` (never empty) ``player`` picks, given the trace
    entry ``context``; the answer is an index into ``candidates``
    (``Chooser.choose(name, player, context, candidates)``).

    ``name``: the decision, as the trace ``choice`` entry's ``decision`` and the process protocol's ``decision`` name
    it. ``key``: the scenario ``choices`` key holding the answers, ``{context[by]: [preferred, ...]}``: the answer is
    the first preferred value among the candidates (compared by their field ``match``, or whole when None), else the
    first candidate. ``context``, ``candidates``: the protocol's names of the question's two fields (a ``choose``
    message carries ``{context: ..., candidates: [...]}`` under these names). ``description``: what the player
    decides, in words (docs, branch points). ``label``: the branch point's label, formatted with ``player`` and
    ``id`` (the context's id)."""

    name: str
    key: str
    context: str
    candidates: str
    description: str
    by: str = "ability"
    match: str | None = None
    label: str = "{player} answers for {id}"

    def answer(self, choices: Mapping[str, Any], context: dict[str, Any], candidates: list[Any]) -> int:
        """The scenario's answer (an index into ``candidates``) from its ``choices``."""
        preferred = choices.get(self.key, {}).get(context.get(self.by), ())
        offered = candidates if self.match is None else [c.get(self.match) for c in candidates]
        return _first_preferred(preferred, offered)

    def branch_label(self, player: str, context: dict[str, Any]) -> str:
        """The label of this question's branch point (see :mod:`reference_engine.kernel.branching`)."""
        return self.label.format(player=player, id=context.get("id", context.get(self.by)))


def kind_table(*kinds: ChoiceKind) -> dict[str, ChoiceKind]:
    """name -> kind, for a unit's ``choice_kinds``. Raises ValueError for a name given twice or one of the kernel's."""
    found: dict[str, ChoiceKind] = {}
    for kind in kinds:
        if kind.name in found or kind.name in KERNEL_CHOICES:
            raise ValueError(f"choice kind {kind.name!r} declared twice, or one of the kernel's ({KERNEL_CHOICES})")
        found[kind.name] = kind
    return found


@functools.lru_cache(maxsize=None)
def unit_choice_kinds(ruleset: str | None = None) -> dict[str, ChoiceKind]:
    """The choice kinds installed unit ``ruleset`` declares (its manifest's ``choice_kinds``; None: every installed
    unit's, the first declaration of a name in listing order winning), name -> ChoiceKind. Imports the declarations'
    module only (no judge, no engine): the judge, the engines and the process protocol may ask. The registry checks the
    declarations when it loads the unit. Raises UnitError for declarations that cannot be loaded; a ruleset not
    installed declares none."""
    found: dict[str, ChoiceKind] = {}
    for manifest in units().values():
        if manifest.choice_kinds and ruleset in (None, manifest.name):
            module, _, attribute = manifest.choice_kinds.partition(":")
            try:
                value: Any = importlib.import_module(module)
                for name in attribute.split(".") if attribute else ():
                    value = getattr(value, name)
            except (ImportError, AttributeError) as error:
                raise UnitError(f"ruleset unit {manifest.name!r}: its choice kinds {manifest.choice_kinds!r} cannot "
                                f"be loaded: {error}") from error
            for name, kind in dict(value).items():
                found.setdefault(name, kind)
    return found


class ScenarioChooser:
    """A :class:`reference_engine.kernel.engine.Chooser` built from ``scenario["choices"]``.

    Ordering: each trigger instance ranks by its ability's place in ``choices.trigger_order`` (unlisted abilities
    after every listed one), then by its source's place in the scenario, then by the order the engine offered them.
    Optional abilities: ``choices.optional[ability id]``, yes when absent. A unit's own question: its
    :class:`ChoiceKind`'s ``answer``; ``kinds`` (name -> kind) are those of the scenario's ruleset when None
    (:func:`unit_choice_kinds`, read at the first such question).
    """

    def __init__(self, scenario: dict[str, Any], kinds: Mapping[str, ChoiceKind] | None = None):
        # The scenario it answers from: a process engine speaking protocol version 2 may be given the same rules to
        # answer with, and its answers are checked against these (conformance/adapters/process/wire.py).
        self.answers_from = scenario
        choices = self._choices = scenario.get("choices", {})
        preferred = choices.get("trigger_order", [])
        self._rank = {ability: n for n, ability in enumerate(preferred)}
        self._unlisted = len(preferred)
        self._object_rank = {obj["id"]: n for n, obj in enumerate(scenario["objects"])}
        self._optional = choices.get("optional", {})
        self._kinds = kinds

    def _key(self, trigger: dict[str, Any]) -> tuple[int, int]:
        return (self._rank.get(trigger["ability"], self._unlisted), self._object_rank.get(trigger["source"], len(self._object_rank)))

    def order_key(self, trigger: dict[str, Any]) -> tuple[int, int]:
        """How strongly the scenario prefers ``trigger`` to resolve early (smaller first); equal keys are ties."""
        return self._key(trigger)

    def order(self, player: str, triggers: list[dict[str, Any]]) -> list[int]:
        return sorted(range(len(triggers)), key=lambda k: (self._key(triggers[k]), k))

    def optional(self, player: str, trigger: dict[str, Any]) -> bool:
        return bool(self._optional.get(trigger["ability"], True))

    def kind(self, name: str) -> ChoiceKind:
        """The declaration of the unit's question ``name``. Raises KeyError naming the known ones."""
        if self._kinds is None:
            self._kinds = unit_choice_kinds(self.answers_from.get("ruleset", ""))
        if name not in self._kinds:
            raise KeyError(f"no choice kind {name!r} in ruleset {self.answers_from.get('ruleset')!r} (known: "
                           f"{', '.join(self._kinds) or 'none'})")
        return self._kinds[name]

    def choose(self, kind: str, player: str, context: dict[str, Any], candidates: list[Any]) -> int:
        """The scenario's answer to the unit's question ``kind`` (see :class:`ChoiceKind`); raises KeyError for a kind
        the scenario's ruleset does not declare."""
        return self.kind(kind).answer(self._choices, context, candidates)


def _first_preferred(preferred, offered: list) -> int:
    for item in preferred:
        if item in offered:
            return offered.index(item)
    return 0
