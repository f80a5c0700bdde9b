"""What a ruleset is, as the harness and the judge see it: editions, documented options and invariants."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Callable, Iterable
from typing import Any, Mapping

from reference_engine.kernel.invariant import Invariant
from reference_engine.kernel.sentence_alignment import Alignment, align
from reference_engine.kernel.situations import SizeGoals
from reference_engine.kernel.ruletext import sentence_digest, split_sentences


class OptionError(ValueError):
    """An option name or value the ruleset does not know."""


@dataclass(frozen=True)
class Option:
    """A named assumption where the rule text is silent, ambiguous or missing.

    ``stands_for`` names the unavailable or ambiguous text (e.g. "Section 11.3"); ``values`` maps each allowed value
    to a one-line description; ``default`` is one of them.
    """

    name: str
    default: Any
    values: dict[Any, str]
    stands_for: str
    doc: str


@dataclass(frozen=True)
class Vocabulary:
    """The words of the scenario format (schemas/scenario.schema.json) that a ruleset gives a meaning to.

    The scenario schema is shared by every ruleset; a word another ruleset owns (another game's action or ability
    field) would otherwise be ignored in silence by an engine and by the judge alike. Each field is a set of allowed names: ``actions`` (an action's ``do``), ``action_fields`` (per
    action, its allowed keys), ``trigger_events`` (a trigger condition's ``event``), ``trigger_fields``,
    ``ability_fields``, ``object_fields``, ``scenario_fields`` (top-level keys), ``condition_tests``,
    ``choice_fields``, ``zones`` and ``step_fields`` (a script step's keys). Two facts about its zones, which the
    derived situations read (reference_engine/kernel/derived.py): ``ability_zones``, the zones an ability may work
    from (an ability's ``active_in``; None: every zone), and ``final_zones``, the zones no object ever leaves.
    """

    actions: frozenset[str]
    action_fields: dict[str, frozenset[str]]
    trigger_events: frozenset[str]
    trigger_fields: frozenset[str]
    ability_fields: frozenset[str]
    object_fields: frozenset[str]
    scenario_fields: frozenset[str]
    condition_tests: frozenset[str]
    choice_fields: frozenset[str]
    zones: frozenset[str]
    step_fields: frozenset[str] = frozenset({"step", "actions"})  # a script step's keys (a ruleset may add some)
    #: The ruleset's own zone-change event types beyond the kernel's ``enter`` and ``leave``: event type -> where its
    #: subject comes from, ``"in play"``, ``"out of play"`` or ``"anywhere"`` (an ability watching such an event
    #: watches every zone change). Read by the derived situations (:mod:`reference_engine.kernel.derived`).
    zone_changes: dict[str, str] = field(default_factory=dict, hash=False)
    #: ``shown(view) -> iterable of (category, word)``: the words a trace shows through the ruleset's own entry kinds
    #: (an effect performed by something other than a trigger's resolution, a timing an entry names), which the
    #: kernel's reading of a trace cannot know (None: none).
    shown: Callable[[Any], Iterable[tuple[str, str]]] | None = None
    #: Where an ability may work from (an ability's ``active_in``); None: every zone. Read by the derived situations.
    ability_zones: frozenset[str] | None = None
    #: The zones no object ever leaves (out of the game). Read by the derived situations.
    final_zones: frozenset[str] = frozenset()

    def foreign_words(self, scenario: dict[str, Any]) -> list[str]:
        """Every use in a schema-valid ``scenario`` of a word this ruleset does not define, as
        ``"$.objects[0].abilities[1].target: ..."`` (JSON path first). Empty when the scenario speaks this ruleset."""
        found: list[str] = []

        def check(where: str, kind: str, word: str, allowed: frozenset[str]) -> None:
            if word not in allowed:
                found.append(f"{where}: {kind} {word!r} is not part of this ruleset's vocabulary "
                             f"(allowed: {', '.join(sorted(allowed))})")

        def zone(where: str, value: Any) -> None:
            if isinstance(value, str):
                check(where, "zone", value, self.zones)

        def condition(where: str, cond: dict[str, Any]) -> None:
            check(f"{where}.test", "condition test", cond["test"], self.condition_tests)
            zone(f"{where}.zone", cond.get("zone"))

        def actions(where: str, listed: list[dict[str, Any]]) -> None:
            for n, action in enumerate(listed):
                here = f"{where}[{n}]"
                check(f"{here}.do", "action", action["do"], self.actions)
                for key in action:
                    check(f"{here}.{key}", f"field of {action['do']}", key,
                          self.action_fields.get(action["do"], frozenset({"do"})))
                for key in ("from", "to"):
                    zone(f"{here}.{key}", action.get(key))
                for key, value in action.items():  # an action that holds actions (what it causes later...)
                    if isinstance(value, list) and value and all(isinstance(v, dict) and "do" in v for v in value):
                        actions(f"{here}.{key}", value)

        for key in scenario:
            check(f"$.{key}", "scenario field", key, self.scenario_fields)
        for key in scenario.get("choices", {}):
            check(f"$.choices.{key}", "choice", key, self.choice_fields)
        for n, obj in enumerate(scenario["objects"]):
            where = f"$.objects[{n}]"
            for key in obj:
                check(f"{where}.{key}", "object field", key, self.object_fields)
            zone(f"{where}.zone", obj["zone"])
            for key, value in obj.items():  # a game-state test held by an object field
                if isinstance(value, dict) and "test" in value:
                    condition(f"{where}.{key}", value)
            for m, ability in enumerate(obj.get("abilities", ())):
                here = f"{where}.abilities[{m}]"
                for key in ability:
                    check(f"{here}.{key}", "ability field", key, self.ability_fields)
                trigger = ability["trigger"]
                check(f"{here}.trigger.event", "trigger event", trigger["event"], self.trigger_events)
                for key in trigger:
                    check(f"{here}.trigger.{key}", "trigger condition field", key, self.trigger_fields)
                for key in ("from", "to"):
                    zone(f"{here}.trigger.{key}", trigger.get(key))
                for key, value in ability.items():  # a game-state test held by an ability field
                    if isinstance(value, dict) and "test" in value:
                        condition(f"{here}.{key}", value)
                for k, value in enumerate(ability.get("active_in", ())):
                    zone(f"{here}.active_in[{k}]", value)
                    if isinstance(value, str) and self.ability_zones is not None and value in self.zones:
                        check(f"{here}.active_in[{k}]", "zone an ability works from", value, self.ability_zones)
                actions(f"{here}.effect", ability["effect"])
        for s, step in enumerate(scenario["script"]):
            for key in step:
                check(f"$.script[{s}].{key}", "step field", key, self.step_fields)
            for a, action in enumerate(step["actions"]):
                actions(f"$.script[{s}].actions[{a}].effect", action["effect"])
        return found


# The words every ruleset shares: a scenario's frame, objects with abilities, signals and zone changes.
COMMON_SCENARIO_FIELDS = frozenset({"format", "id", "description", "ruleset", "edition", "options", "players",
                                    "active_player", "objects", "script", "choices"})
COMMON_OBJECT_FIELDS = frozenset({"id", "name", "owner", "zone", "abilities"})
COMMON_ABILITY_FIELDS = frozenset({"id", "text", "trigger", "effect", "optional"})
COMMON_ACTION_FIELDS = {"signal": frozenset({"do", "name", "subject"}), "move": frozenset({"do", "object", "from", "to"})}


@dataclass(frozen=True)
class Ruleset:
    """A rule system as the judge knows it: its name (``hearth-queue``), editions, options and invariants.

    The reference engine that plays it lives in :mod:`reference_engine.kernel.registry` and is never imported here."""

    name: str
    title: str
    editions: tuple[str, ...]
    options: tuple[Option, ...]
    invariants: tuple[Invariant, ...]
    vocabulary: Vocabulary | None = None
    situations: tuple = ()  # reference_engine.kernel.situations.Situation: what coverage measures
    # The median size (events, nesting) its generated scenarios must reach (coverage reports it against this).
    size_goals: SizeGoals = SizeGoals()
    # Numbered rules of the text in scope that no rule key encodes, each with the reason (tests/test_rule_texts.py).
    unencoded: tuple[tuple[str, str], ...] = ()
    # Rule number -> its sentences as ``(sentence_digest, keys encoding it)``, as read when the keys were written
    # (each ruleset's sentences.py; reference_engine.kernel.ruletext): an edited sentence makes its keys stale.
    sentences: Mapping[str, tuple[tuple[str, tuple[str, ...]], ...]] = field(default_factory=dict)
    # Branch-point id -> reference_engine.kernel.branching.BranchPoint: every decision the text leaves open to the
    # permissive engine, with the sentences it reads and the option naming it (each ruleset's BRANCH_POINTS).
    branch_points: Mapping[str, Any] = field(default_factory=dict)

    @property
    def default_edition(self) -> str:
        return self.editions[0]

    def invariants_for(self, edition: str) -> tuple[Invariant, ...]:
        return tuple(inv for inv in self.invariants if inv.applies_to(edition))

    def invariant(self, key: str) -> Invariant:
        for inv in self.invariants:
            if inv.key == key:
                return inv
        raise KeyError(key)

    def stale_keys(self, paragraphs: Mapping[str, str]) -> list[Alignment]:
        """What changed, sentence by sentence, between :attr:`sentences` and ``paragraphs`` (rule number ->
        paragraph, e.g. an editor's draft read by the ruleset's rule-text reader), aligned as
        :mod:`reference_engine.kernel.sentence_alignment` does it: every recorded sentence changed, merged, split,
        removed or moved, and every new sentence, in rule order (unchanged sentences are left out; only those whose
        :attr:`~Alignment.drops_keys` holds make their keys stale). Rules ``paragraphs`` lacks are not judged here
        unless their sentences moved elsewhere; a paragraph cut short with an ellipsis (an index page) is judged only
        on the sentences it has in full, each against the recorded sentence in its place."""
        found: list[Alignment] = []
        whole = {}
        for number, paragraph in paragraphs.items():
            now = split_sentences(paragraph)
            recorded = self.sentences.get(number, ())
            if now and now[-1].endswith("…") and recorded:
                found += [Alignment(number, k, tuple(recorded[k - 1][1]), "changed", s, (k,), number)
                          for k, s in enumerate(now[:-1], 1)
                          if k <= len(recorded) and recorded[k - 1][0] != sentence_digest(s)]
                continue
            whole[number] = paragraph
        kept = {n: listed for n, listed in self.sentences.items() if n in whole or n not in paragraphs}
        found += [a for a in align(kept, whole) if a.what != "unchanged"
                  and (a.what != "new" or a.number in self.sentences)]  # other rules' sentences are no one's
        return sorted(found, key=lambda a: (a.number, a.what == "new", a.index))

    def resolve_options(self, overrides: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``overrides``. Raises OptionError naming an unknown option or an invalid value."""
        resolved = {option.name: option.default for option in self.options}
        for name, value in (overrides or {}).items():
            option = next((o for o in self.options if o.name == name), None)
            if option is None:
                known = ", ".join(o.name for o in self.options)
                raise OptionError(f"ruleset {self.name} has no option {name!r} (known: {known})")
            # Compare types too: 1 == True in Python, but "1" is not a value of a yes/no option.
            if not any(value == v and type(value) is type(v) for v in option.values):
                allowed = ", ".join(json.dumps(v) for v in option.values)
                raise OptionError(f"option {name} of ruleset {self.name} cannot be {json.dumps(value)} "
                                  f"(allowed: {allowed})")
            resolved[name] = value
        return resolved

