"""Momon Wonder 1.0.0 mutants: the reference engine (reference_engine/engines/momon_wonder/engine.py) with one fault each."""

from __future__ import annotations

from reference_engine.engines.momon_wonder.engine import EDITIONS, RULESET, Game, MomonWonderEngine
from reference_engine.engines.mutants import Mutant, mutant


class LastInFirstOutGame(Game):
    """Resolves the Trigger Queue last in, first out (a stack), against 11.2.4."""

    def process_pending_work(self) -> None:
        while self.trigger_queue:
            kind, item = self.trigger_queue.pop()
            self.resolve(item) if kind == "trigger" else self.process_package(item)

    def process_package_queue(self, package) -> None:
        while package.queue:
            self.resolve(package.queue.pop())


class PackageBehindTriggersGame(Game):
    """Places every Summon package behind all ordinary triggers, whenever they occurred (11.2.4 forbids it)."""

    def process_pending_work(self) -> None:
        while self.trigger_queue:
            triggers = [entry for entry in self.trigger_queue if entry[0] == "trigger"]
            kind, item = triggers[0] if triggers else self.trigger_queue[0]
            self.trigger_queue.remove((kind, item))
            self.resolve(item) if kind == "trigger" else self.process_package(item)


class NestedPackageJoinsGame(Game):
    """A Summon during a package's processing does not defer its package: its triggers join the current processing
    queue as ordinary triggers (11.2.5 keeps nested packages deferred)."""

    def create_package(self, event, group) -> None:
        if self.package is not None:
            for trigger in self.order_group(group):
                self.enqueue(trigger)
            return
        super().create_package(event, group)


class NoStateBasedConditionsGame(Game):
    """Skips State-Based Conditions after a resolved ability (11.2.2 requires them after each one)."""

    def resolve(self, trigger_id: str) -> None:
        original = self.perform_state_based_conditions
        self.perform_state_based_conditions = lambda: None
        try:
            super().resolve(trigger_id)
        finally:
            self.perform_state_based_conditions = original


class InterruptingTriggerGame(Game):
    """Resolves a trigger the moment it triggers during a resolution, interrupting it (11.2.1)."""

    def resolve(self, trigger_id: str) -> None:
        self._resolving = getattr(self, "_resolving", 0) + 1
        try:
            super().resolve(trigger_id)
        finally:
            self._resolving -= 1

    def happen(self, type_, cause, **fields):
        event = super().happen(type_, cause, **fields)
        if getattr(self, "_resolving", 0) and type_ == "signal":
            _, group = self.waiting.pop()
            for trigger in group:
                self.record.add("enqueue", trigger=trigger, queue="main")
                self.resolve(trigger)
        return event


class DoubleEnqueueGame(Game):
    """Puts a trigger from a signal event into the queue twice (11.2.3 allows once per event)."""

    def happen(self, type_, cause, **fields):
        event = super().happen(type_, cause, **fields)
        if type_ == "signal":
            self.doubled = getattr(self, "doubled", set()) | set(self.waiting[-1][1])
        return event

    def enqueue(self, trigger: str, front: bool = False) -> None:
        super().enqueue(trigger, front)
        if trigger in getattr(self, "doubled", ()):
            super().enqueue(trigger, front)


def _mutant(name: str, game: type[Game], key: str) -> Mutant:
    return mutant(name, MomonWonderEngine, game, key, RULESET, EDITIONS)


MUTANTS = (
    _mutant("mw-lifo", LastInFirstOutGame, "mw.queue-fifo"),
    _mutant("mw-package-behind-triggers", PackageBehindTriggersGame, "mw.package-position"),
    _mutant("mw-nested-package-joins", NestedPackageJoinsGame, "mw.nested-package-deferred"),
    _mutant("mw-no-sbc-after-ability", NoStateBasedConditionsGame, "mw.sbc-after-completion"),
    _mutant("mw-trigger-interrupts", InterruptingTriggerGame, "mw.no-interruption"),
    _mutant("mw-double-enqueue", DoubleEnqueueGame, "mw.once-per-event"),
)
