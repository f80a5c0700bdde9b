"""Hearth Queue engines: the reference (a queue of 'whenever' triggers, play order within one event, newcomers at the
back), one faulty engine (newcomers at the front) and the permissive engine (every order left to an oracle)."""

from __future__ import annotations

from typing import Any

from reference_engine.common.faulty import mutant
from reference_engine.common.permissive import permuted
from reference_engine.common.recorder import Recorder
from reference_engine.kernel.engine import Engine, EngineInfo

RULESET, EDITIONS = "hearth-queue", ("toy-1",)


class Game:
    """Plays one scenario: every scripted action, then the queue until it is empty, step by step."""

    def __init__(self, scenario: dict[str, Any], chooser):
        self.scenario, self.chooser = scenario, chooser
        self.record = Recorder(scenario)
        self.queue: list[str] = []
        self.instances: dict[str, dict[str, Any]] = {}
        self.controller = {o["id"]: o.get("controller", o["owner"]) for o in scenario["objects"]}
        self.sources: dict[str, str] = {}

    def add(self, kind: str, **fields: Any) -> dict[str, Any]:
        return self.record.add(kind, **fields)

    def happen(self, action: dict[str, Any], cause: dict[str, Any], source: str | None) -> None:
        subject = action.get("object") if action["do"] == "ping" else action.get("subject", source)
        event, _ = self.record.event(action["do"], cause, subject=subject, name=action.get("name"))
        fresh = []
        for obj in self.scenario["objects"]:  # play order: the order of the scenario's objects
            if self.record.zones.zones.get(obj["id"]) != "field":
                continue
            for ability in obj.get("abilities", ()):
                pattern = ability["trigger"]
                wanted = pattern.get("subject", "any")
                if pattern["event"] == event["type"] and pattern.get("name", event.get("name")) == event.get("name") \
                        and (wanted == "any" or subject == (obj["id"] if wanted == "self" else wanted)):
                    trigger = self.add("trigger", id=self.record.new_id("T"), ability=ability["id"],
                                       source=obj["id"], controller=self.controller[obj["id"]], event=event["id"])
                    self.instances[trigger["id"]], self.sources[trigger["id"]] = ability, obj["id"]
                    fresh.append(trigger["id"])
        self.enqueue(self.order(fresh))

    def order(self, fresh: list[str]) -> list[str]:
        return fresh

    def enqueue(self, fresh: list[str]) -> None:
        self.queue.extend(fresh)

    def next_trigger(self) -> str:
        return self.queue.pop(0)

    def play(self) -> dict[str, Any]:
        for s, step in enumerate(self.scenario["script"]):
            self.add("step_begin", step=s)
            for a, action in enumerate(step["actions"]):
                self.add("action_begin", action=[s, a])
                for effect in action["effect"]:
                    self.happen(effect, {"action": [s, a]}, None)
                self.add("action_end", action=[s, a])
                while self.queue:
                    trigger = self.next_trigger()
                    self.add("resolve_begin", trigger=trigger)
                    for effect in self.instances[trigger]["effect"]:
                        self.happen(effect, {"resolution": trigger}, self.sources[trigger])
                    self.add("resolve_end", trigger=trigger)
                self.add("queue_empty")
            self.add("step_advance", **{"from": s})
        return self.record.trace()


class HearthQueueEngine(Engine):
    """The reference engine of the toy ruleset."""

    ruleset, editions, game_class = RULESET, EDITIONS, Game
    modifies_scenarios = False
    trusted_traces = True

    def __init__(self, max_trace_entries: int = 20_000):
        self.max_trace_entries = max_trace_entries

    @property
    def info(self) -> EngineInfo:
        return EngineInfo(name="reference", version="0.1.0", rulesets={RULESET: list(EDITIONS)})

    def run(self, scenario, chooser):
        game = self.game_class(scenario, chooser)
        game.record.max_entries = self.max_trace_entries
        return game.play()


class NewcomersFirstGame(Game):
    """Triggers that arise while another resolves go to the front of the queue, ahead of those already waiting."""

    def enqueue(self, fresh: list[str]) -> None:
        self.queue[:0] = fresh


MUTANTS = (mutant("hq-newcomers-first", HearthQueueEngine, NewcomersFirstGame, "hq.newcomers-wait", RULESET,
                  list(EDITIONS)),)


class PermissiveGame(Game):
    """Every order the text might leave open, asked of ``oracle`` (answer 0: the reference's)."""

    def __init__(self, scenario, chooser, oracle):
        super().__init__(scenario, chooser)
        self.oracle = oracle

    def order(self, fresh: list[str]) -> list[str]:
        return permuted(self.oracle, "event-order", "triggers of one event", fresh)

    def enqueue(self, fresh: list[str]) -> None:
        if self.queue and fresh and self.oracle.pick("newcomer-placement", "newcomers behind or ahead", 2):
            self.queue[:0] = fresh
        else:
            self.queue.extend(fresh)
