"""Reference engine for Momon Wonder CR 1.0.0, section 11.2: how triggers wait in the Queue.

Read it top to bottom: a game plays the scenario's script step by step (11.2.6), each action completes before
anything that triggered during it is placed (11.2.1, 11.2.2), trigger groups and Effect-Based Summon packages
take their event's chronological place (11.2.3, 11.2.5), and the Trigger Queue resolves first in, first out
(11.2.4). Where 11.2 relies on text that is not available, the step names the option it follows (options.py).
Correctness comes before speed: this engine is the oracle.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from reference_engine.kernel.engine import Chooser
from reference_engine.common.recorder import Recorder
from reference_engine.common.reference import ReferenceEngine
from reference_engine.common.vocabulary import IN_PLAY, condition_holds, movement_event

RULESET = "momon-wonder"
EDITIONS = ["1.0.0"]
SUMMONABLE_ZONES = ("hand", "deck")


@dataclass
class Package:
    """An Effect-Based Summon package (Section 9.3, as assumed in options.py): created at its Summon event's position."""

    id: str
    event: dict[str, Any]
    on_summon: list[str]
    snatch_check: list[dict[str, Any]]
    queue: deque = field(default_factory=deque)  # its processing queue, distinct from the deferred Trigger Queue
    phase: str = "waiting"


class MomonWonderEngine(ReferenceEngine):
    """The bundled reference engine for ``momon-wonder`` 1.0.0, behind the same adapter interface as any engine."""

    trusted_traces = True  # its traces skip the schema and structure checks (conformance.running.checking.trusts)

    ruleset = RULESET
    editions = tuple(EDITIONS)


class Game:
    """One play of a scenario. ``options`` are the resolved ruleset options carried by the scenario."""

    def __init__(self, scenario: dict[str, Any], chooser: Chooser):
        self.scenario = scenario
        self.options = scenario["options"]
        self.chooser = chooser
        self.record = Recorder(scenario)
        self.objects = {obj["id"]: obj for obj in scenario["objects"]}
        self.ability_order = {
            (obj["id"], ab["id"]): (n, m)
            for n, obj in enumerate(scenario["objects"])
            for m, ab in enumerate(obj.get("abilities", ()))
        }
        self.abilities: dict[tuple[str, str], dict[str, Any]] = {}  # (source, ability id) -> its first such ability
        for obj in scenario["objects"]:
            for ab in obj.get("abilities", ()):
                self.abilities.setdefault((obj["id"], ab["id"]), ab)
        self.trigger_queue: deque[tuple[str, Any]] = deque()  # ("trigger", id) or ("package", Package)
        self.package: Package | None = None
        self.waiting: list[tuple[dict | None, list[str]]] = []  # trigger groups not yet placed, chronological
        self.restored_for_front: list[str] = []
        self.instances: dict[str, dict[str, Any]] = {}
        self.marked_for_defeat: list[str] = []
        self.snatch_checks: dict[str, list[dict[str, Any]]] = {}
        self.summoned: dict[str, list[str]] = {}  # Summon event id -> the monsters it summoned

    @property
    def zones(self) -> dict[str, str]:
        return self.record.zones.zones

    # -- The turn (11.2.6) -----------------------------------------------------------------------------------

    def play(self) -> dict[str, Any]:
        for step_index, step in enumerate(self.scenario["script"]):
            self.record.add("step_begin", step=step_index)
            for action_index, action in enumerate(step["actions"]):
                ref = [step_index, action_index]
                self.record.add("action_begin", action=ref)
                self.perform(action["effect"], cause={"action": ref}, source=None, player=action["by"])
                self.record.add("action_end", action=ref)
                self.after_completion()
                self.process_pending_work()
            # 11.2.6: the Trigger Queue and pending packages are empty here, so the step may advance.
            self.record.add("step_advance", **{"from": step_index})
        return self.record.trace()

    def process_pending_work(self) -> None:
        """11.2.4: first in, first out within pending event order, packages included at their positions."""
        while self.trigger_queue:
            kind, item = self.trigger_queue.popleft()
            if kind == "trigger":
                self.resolve(item)
            else:
                self.process_package(item)

    # -- Performing actions; triggering (11.2.1) ---------------------------------------------------------------

    def perform(self, effect: list[dict[str, Any]], cause: dict[str, Any], source: str | None, player: str | None) -> None:
        """Perform primitive actions in order. Abilities that trigger wait (11.2.1): nothing is placed or resolved here."""
        for action in effect:
            do = action["do"]
            if do == "signal":
                self.happen("signal", cause, subject=action.get("subject", source), name=action["name"], player=player)
            elif do == "summon":
                self.summon(action, cause, player)
            elif do == "move":
                obj, to = action["object"], action["to"]
                if obj in self.zones and self.zones[obj] != to:
                    frm = self.zones[obj]
                    self.happen(movement_event(frm, to), cause, subject=obj, player=player, **{"from": frm, "to": to})
            elif do == "mark_defeat":
                if self.zones.get(action["object"]) == IN_PLAY and action["object"] not in self.marked_for_defeat:
                    self.marked_for_defeat.append(action["object"])
            elif do == "remedy_missed_trigger":
                self.restore_missed_trigger(action["source"], action["ability"])

    def summon(self, action: dict[str, Any], cause: dict[str, Any], player: str | None) -> None:
        """An Effect-Based Summon. It summons those of its monsters (``object``, then ``also``) that are in hand or
        deck, all in one Summon event; with none, or if it does not succeed, it fails."""
        monsters = self.summonable(action)
        if action["succeeds"] and monsters:
            event = self.happen_together("summon", cause, monsters, player)
            self.snatch_checks[event["id"]] = action.get("snatch_check", [])
            self.summoned[event["id"]] = monsters
        elif self.options["failed_summon_event"] == "ordinary-event":
            self.happen("summon_failed", cause, subject=action["object"], player=player)

    def summonable(self, action: dict[str, Any]) -> list[str]:
        """The monsters of a Summon action (``object``, then ``also``, once each) that are in hand or deck now."""
        return [obj for obj in dict.fromkeys((action["object"], *action.get("also", ())))
                if self.zones.get(obj) in SUMMONABLE_ZONES]

    def happen(self, type_: str, cause: dict[str, Any], **fields: Any) -> dict[str, Any]:
        """Record an event and every ability it triggers (11.2.1); the group waits to be collected (11.2.3)."""
        event, before = self.record.event(type_, cause, **fields)
        self.waiting.append((event, self.collect_triggers([(event, before)])))
        return event

    def happen_together(self, type_: str, cause: dict[str, Any], subjects: list[str], player: str | None) -> dict:
        """One event that moves several objects into play at once: one trace event per object, sharing a ``group``
        (the first one's id). Abilities are judged once all have moved, and each triggers once for the whole event
        (11.2.3), naming the first occurrence that satisfies it. Returns the first occurrence."""
        occurrences = []
        for subject in subjects:
            fields = {"subject": subject, "player": player, "from": self.zones[subject], "to": IN_PLAY}
            if occurrences:
                fields["group"] = occurrences[0][0]["id"]
            occurrences.append(self.record.event(type_, cause, **fields))
        if len(occurrences) > 1:
            occurrences[0][0]["group"] = occurrences[0][0]["id"]
        self.waiting.append((occurrences[0][0], self.collect_triggers(occurrences)))
        return occurrences[0][0]

    def collect_triggers(self, occurrences: list[tuple[dict[str, Any], dict[str, str]]]) -> list[str]:
        """The trigger instances of one event (its occurrences with what each moved): once per ability."""
        triggered: list[str] = []
        seen: set[tuple[str, str]] = set()
        for event, before in occurrences:
            for source, ability in self.record.zones.satisfied_abilities(event, self.scenario, before):
                if (source, ability["id"]) in seen:
                    continue
                seen.add((source, ability["id"]))
                trigger = self.new_trigger(source, ability["id"], event["id"])
                if ability.get("optional") and self.options["optional_choice"] == "on-trigger":
                    if not self.ask_optional(trigger):
                        self.record.add("removed", trigger=trigger["id"], reason="declined")
                        continue
                triggered.append(trigger["id"])
        return triggered

    def new_trigger(self, source: str, ability: str, event: str | None, **extra: Any) -> dict[str, Any]:
        obj = self.objects[source]
        trigger = self.record.add("trigger", id=self.record.new_id("T"), ability=ability, source=source,
                                  controller=obj.get("controller", obj["owner"]), event=event, **extra)
        self.instances[trigger["id"]] = trigger
        return trigger

    def restore_missed_trigger(self, source: str, ability: str) -> None:
        """The Missed Trigger Remedy: front placement only in sanctioned play (option sanctioned_play, 11.2.4)."""
        trigger = self.new_trigger(source, ability, None, remedy=True)
        optional = any(ab.get("optional") for ab in self.objects[source].get("abilities", ()) if ab["id"] == ability)
        if optional and self.options["optional_choice"] == "on-trigger" and not self.ask_optional(trigger):
            # Restored, it triggers anew: under on-trigger its controller chooses now, as for any trigger.
            self.record.add("removed", trigger=trigger["id"], reason="declined")
            return
        if self.options["sanctioned_play"]:
            self.restored_for_front.append(trigger["id"])
        else:
            self.waiting.append((None, [trigger["id"]]))

    # -- After each completed action or ability (11.2.2, 11.2.3, 11.2.5) -------------------------------------------

    def after_completion(self) -> None:
        """11.2.2: perform State-Based Conditions; then 11.2.3/11.2.5: place the waiting groups in event order."""
        self.perform_state_based_conditions()
        self.place_waiting_groups()

    def perform_state_based_conditions(self) -> None:
        """State-Based Conditions (option sbc_events): marked objects still in play are defeated."""
        check = self.record.new_id("S")
        self.record.add("sbc_check", id=check)
        marked, self.marked_for_defeat = self.marked_for_defeat, []
        if not self.options["sbc_events"]:
            return
        for obj in self.defeat_order([obj for obj in marked if self.zones.get(obj) == IN_PLAY]):
            if self.zones.get(obj) == IN_PLAY:
                self.happen("defeated", {"sbc": check}, subject=obj, **{"from": IN_PLAY, "to": "graveyard"})

    def defeat_order(self, marked: list[str]) -> list[str]:
        """The order in which one State-Based Conditions pass defeats several objects (option sbc_defeat_order; the
        text gives events caused at once no chronological order): as they were marked, or as the scenario lists them."""
        if len(marked) > 1 and self.options["sbc_defeat_order"] == "object-order":
            listed = {obj["id"]: n for n, obj in enumerate(self.scenario["objects"])}
            return sorted(marked, key=lambda obj: listed.get(obj, len(listed)))
        return list(marked)

    def place_waiting_groups(self) -> None:
        """11.2.3 and 11.2.5: each group keeps its event's chronological position, after work already pending.

        A successful Summon event becomes a package in the Trigger Queue (deferred while another package is being
        processed, 11.2.5); an ordinary group enters the current queue: the processing queue of the package being
        processed, or the Trigger Queue.
        """
        waiting, self.waiting = self.waiting, []
        for event, group in waiting:
            if event is not None and event["type"] == "summon":
                self.create_package(event, group)
            else:
                for trigger in self.order_group(group):
                    self.enqueue(trigger)
        if self.restored_for_front:
            front, self.restored_for_front = self.restored_for_front, []
            for trigger in reversed(front):
                self.enqueue(trigger, front=True)

    def create_package(self, event: dict[str, Any], group: list[str]) -> None:
        """11.2.3: a successful Effect-Based Summon creates its package at the Summon event's position."""
        summoned = set(self.summoned.get(event["id"], [event["subject"]]))
        if self.options["package_contents"] == "summoned-object-triggers":
            inside = [t for t in group if self.instances[t]["source"] in summoned]
        else:
            inside = list(group)
        package = Package(self.record.new_id("K"), event, self.order_group(inside), self.snatch_checks.pop(event["id"], []))
        self.record.add("package_create", package=package.id, event=event["id"])
        self.trigger_queue.append(("package", package))
        kept = set(inside)
        for trigger in self.order_group([t for t in group if t not in kept]):
            self.enqueue(trigger)

    def current_queue(self) -> tuple[str, deque]:
        """The queue new ordinary triggers use (11.2.5): the package's processing queue while it processes them."""
        package = self.package
        if package is not None:
            if package.phase in ("on_summon", "post_snatch"):
                return package.id, package.queue
            if package.phase == "snatch_check" and self.options["snatch_check_triggers"] == "post-snatch":
                return package.id, package.queue
        return "main", self.trigger_queue

    def enqueue(self, trigger: str, front: bool = False) -> None:
        name, queue = self.current_queue()
        item = trigger if queue is not self.trigger_queue else ("trigger", trigger)
        if front:
            queue.appendleft(item)
            self.record.add("enqueue", trigger=trigger, queue=name, placement="front")
        else:
            queue.append(item)
            self.record.add("enqueue", trigger=trigger, queue=name)

    def order_group(self, group: list[str]) -> list[str]:
        """Section 11.3 is not available: the order within one event's group follows option same_event_order."""
        if len(group) < 2:
            return list(group)
        if self.options["same_event_order"] == "object-order":
            return sorted(group, key=lambda t: self.ability_order[(self.instances[t]["source"], self.instances[t]["ability"])])
        ordered: list[str] = []
        for player in self.players_from_active():
            mine = [t for t in group if self.instances[t]["controller"] == player]
            if len(mine) > 1:
                among = list(mine)  # in the group's order
                permutation = self.chooser.order(player, [self.instances[t] for t in mine])
                mine = [mine[k] for k in permutation]
                self.record.add("choice", player=player, decision="order", among=among, chosen=list(mine))
            ordered.extend(mine)
        return ordered

    def players_from_active(self) -> list[str]:
        players = self.scenario["players"]
        start = players.index(self.scenario["active_player"])
        return players[start:] + players[:start]

    # -- Resolving (11.2.4) -----------------------------------------------------------------------------------

    def resolve(self, trigger_id: str) -> None:
        """11.2.4: resolve the ability completely; 11.2.5: what it caused is placed only after it and SBC."""
        trigger = self.instances[trigger_id]
        ability = self.abilities.get((trigger["source"], trigger["ability"])) or next(
            a for a in self.objects[trigger["source"]]["abilities"] if a["id"] == trigger["ability"])  # (raises)
        if self.options["intervening_recheck"] and not condition_holds(
            ability.get("intervening_if"), self.zones, trigger["source"]
        ):
            self.record.add("removed", trigger=trigger_id, reason="intervening_if")
            return
        if ability.get("optional") and self.options["optional_choice"] == "on-resolution":
            if not self.ask_optional(trigger):
                self.record.add("removed", trigger=trigger_id, reason="declined")
                return
        self.record.add("resolve_begin", trigger=trigger_id)
        self.perform(ability["effect"], cause={"resolution": trigger_id}, source=trigger["source"], player=trigger["controller"])
        self.record.add("resolve_end", trigger=trigger_id)
        self.after_completion()

    def ask_optional(self, trigger: dict[str, Any]) -> bool:
        answer = bool(self.chooser.optional(trigger["controller"], trigger))
        self.record.add("choice", player=trigger["controller"], decision="optional", among=[trigger["id"]], chosen=answer)
        return answer

    # -- Effect-Based Summon packages (11.2.4, 11.2.5; Section 9.3 as assumed) -----------------------------------

    def process_package(self, package: Package) -> None:
        """11.2.4: On Summon processing, Snatch Check, State-Based Conditions, post-Snatch processing, in full."""
        self.package = package
        self.record.add("package_open", package=package.id)

        self.record.add("on_summon_begin", package=package.id)
        package.phase = "on_summon"
        for trigger in package.on_summon:
            self.enqueue(trigger)
        self.process_package_queue(package)
        self.record.add("on_summon_end", package=package.id)

        self.record.add("snatch_check_begin", package=package.id)
        package.phase = "snatch_check"
        summoned = package.event["subject"]
        self.perform(package.snatch_check, cause={"snatch_check": package.id}, source=summoned,
                     player=package.event.get("player"))
        self.record.add("snatch_check_end", package=package.id)
        self.after_completion()  # State-Based Conditions, then placement per option snatch_check_triggers

        self.record.add("post_snatch_begin", package=package.id)
        package.phase = "post_snatch"
        self.process_package_queue(package)
        self.record.add("post_snatch_end", package=package.id)

        self.record.add("package_close", package=package.id)
        package.phase = "closed"
        self.package = None

    def process_package_queue(self, package: Package) -> None:
        """The package's ordinary triggers use the same first-in, first-out rule (11.2.4)."""
        while package.queue:
            self.resolve(package.queue.popleft())


MomonWonderEngine.game_class = Game
