"""The one interface between the harness and an engine.

The harness never talks to an engine any other way: the bundled reference engine, a third-party Python
engine, a process speaking the JSON-lines protocol and every faulty engine used in tests all sit behind
:class:`Engine`.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Protocol


class Chooser(Protocol):
    """Answers the player choices an engine must ask for while it plays a scenario.

    The harness builds one per run from the scenario's ``choices`` (see :class:`reference_engine.kernel.choices.ScenarioChooser`),
    so that every answer is generated, and shrunk, with the scenario.
    """

    def order(self, player: str, triggers: list[dict[str, Any]]) -> list[int]:
        """Order simultaneous trigger instances of one player.

        ``triggers`` are the trace ``trigger`` entries being ordered (with ``ability``, ``source``, ``event``); the
        answer is a permutation of ``range(len(triggers))``: the order in which they should resolve.
        """

    def optional(self, player: str, trigger: dict[str, Any]) -> bool:
        """Answer whether ``player`` uses the optional triggered ability of trace entry ``trigger``."""

    def choose(self, kind: str, player: str, context: dict[str, Any], candidates: list[Any]) -> int:
        """A question of the ruleset's own, declared by its unit as a
        :class:`reference_engine.kernel.choices.ChoiceKind` named ``kind`` (e.g. the target an ability takes as it
        triggers): which of ``candidates`` (never empty) ``player`` picks, given the trace entry ``context``; an index
        into ``candidates``. The unit's page says what each of its kinds asks. The scenario's chooser raises KeyError
        for a kind the scenario's ruleset does not declare."""


@dataclass(frozen=True)
class EngineInfo:
    """What an engine says about itself: its name, version, and the rulesets and editions it implements."""

    name: str
    version: str
    rulesets: dict[str, list[str]] = field(default_factory=dict)

    def supports(self, ruleset: str, edition: str) -> bool:
        return edition in self.rulesets.get(ruleset, ())


class Skipped(Exception):
    """Raised by an engine (or its adapter) for a scenario it does not support; ``reason`` says why."""

    def __init__(self, reason: str, issue_url: str | None = None):
        self.reason = reason
        self.issue_url = issue_url
        super().__init__(reason)


class Engine(abc.ABC):
    """A rules engine under test.

    ``run`` plays one whole scenario and returns its trace (a dict matching ``schemas/trace.schema.json``).
    The scenario passed in always carries its full, resolved ``options`` (defaults filled in by the harness).
    An engine that cannot play a scenario raises :class:`Skipped`; any other exception is reported as the
    engine erroring on that scenario, and the run goes on.
    """

    #: Whether ``run`` may change the scenario it is given. The harness then hands it a private copy, so that what
    #: the engine edits cannot change what is judged, reported or replayed. Engines that never modify their input
    #: (the reference engines; tests check it) set this to False and save the copy.
    modifies_scenarios: bool = True

    @property
    @abc.abstractmethod
    def info(self) -> EngineInfo:
        """Name, version and supported rulesets of the engine."""

    @abc.abstractmethod
    def run(self, scenario: dict[str, Any], chooser: Chooser) -> dict[str, Any]:
        """Play ``scenario`` to the end, asking ``chooser`` for every player choice, and return the trace."""

    def generation_profile(self, ruleset: str) -> dict[str, Any] | None:
        """The part of ``ruleset``'s generated scenarios this engine can play, as the ruleset's builder understands it
        (``{"exclude": [feature, ...]}``, with the features of that ruleset's builder, its unit's
        ``profile_features``, listed in docs/checking.md, e.g. ``{"exclude": [a feature its engine lacks yet]}``), so
        that a run spends its examples on scenarios the engine can play and every rule it can exercise is exercised.
        None (the default): every scenario. A process engine declares the same in its handshake (``profiles``)."""
        return None

    def close(self) -> None:
        """Release the engine's resources (a process, a connection). Called once, at the end of a run."""
