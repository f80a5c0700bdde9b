"""Answering player choices from a scenario's ``choices``, keyed by content rather than by the order of asking.

Two engines that ask for the same decisions in a different order get the same answers, so a difference in their
traces is a difference in the rules they follow, not in the questions they happened to ask first.
"""

from __future__ import annotations

from typing import Any


class ScenarioChooser:
    """A :class:`reference_engine.kernel.engine.Chooser` built from ``scenario["choices"]``.

    Ordering: each trigger instance ranks by its ability's place in ``choices.trigger_order`` (unlisted abilities
    after every listed one), then by its source's place in the scenario, then by the order the engine offered them.
    Optional abilities: ``choices.optional[ability id]``, yes when absent.
    """

    def __init__(self, scenario: dict[str, Any]):
        # The scenario it answers from: a process engine speaking protocol version 2 may be given the same rules to
        # answer with, and its answers are checked against these (conformance/adapters/process/wire.py).
        self.answers_from = scenario
        choices = scenario.get("choices", {})
        preferred = choices.get("trigger_order", [])
        self._rank = {ability: n for n, ability in enumerate(preferred)}
        self._unlisted = len(preferred)
        self._object_rank = {obj["id"]: n for n, obj in enumerate(scenario["objects"])}
        self._optional = choices.get("optional", {})
        self._targets = choices.get("targets", {})
        self._occurrence = choices.get("occurrence", {})

    def _key(self, trigger: dict[str, Any]) -> tuple[int, int]:
        return (self._rank.get(trigger["ability"], self._unlisted), self._object_rank.get(trigger["source"], len(self._object_rank)))

    def order_key(self, trigger: dict[str, Any]) -> tuple[int, int]:
        """How strongly the scenario prefers ``trigger`` to resolve early (smaller first); equal keys are ties."""
        return self._key(trigger)

    def order(self, player: str, triggers: list[dict[str, Any]]) -> list[int]:
        return sorted(range(len(triggers)), key=lambda k: (self._key(triggers[k]), k))

    def optional(self, player: str, trigger: dict[str, Any]) -> bool:
        return bool(self._optional.get(trigger["ability"], True))

    def target(self, player: str, trigger: dict[str, Any], candidates: list[str]) -> int:
        """MTG: the first of ``choices.targets[ability id]`` that is a legal candidate, else the first candidate."""
        return _first_preferred(self._targets.get(trigger["ability"], ()), candidates)

    def occurrence(self, player: str, delayed: dict[str, Any], events: list[dict[str, Any]]) -> int:
        """MTG: the first event whose subject ``choices.occurrence[ability id]`` prefers, else the first event."""
        return _first_preferred(self._occurrence.get(delayed["ability"], ()), [e.get("subject") for e in events])


def _first_preferred(preferred, offered: list) -> int:
    for item in preferred:
        if item in offered:
            return offered.index(item)
    return 0
