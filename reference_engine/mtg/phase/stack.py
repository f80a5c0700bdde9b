"""Reading back, the stack: phase's stack entries (bottom to top, each naming its source, controller,
``printed_index`` and ``trigger_event``) turned into trigger instances and stack pushes, placed right after the
event that triggered them; delayed (603.7) and reflexive (603.12) abilities told apart from printed ones."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.events import ZONES, delayed_effect
from reference_engine.mtg.phase.render import FOLLOWS_ALIKE, FOLLOWS_CONTROLLER, card_name, reflexive_victim

class StackReader:
    """Trigger instances read from phase's stack, for a :class:`~reference_engine.mtg.phase.play.Play` (a mixin)."""

    def ability_of(self, source: str, printed_index: int) -> str:
        abilities = self.objects[source].get("abilities", ())
        if printed_index >= len(abilities):
            raise EngineError("errored", f"phase names ability {printed_index} of {source}, which has "
                                         f"{len(abilities)}")
        return abilities[printed_index]["id"]

    def ability_index(self, source: str, ability: str) -> int:
        """phase's printed_index of ``ability`` of ``source`` (a reflexive ability's: its parent's)."""
        ability = self.parent_of.get(ability, ability)
        return [a["id"] for a in self.objects[source].get("abilities", ())].index(ability)

    def match_ability(self, source: str, description: str, taken: dict[tuple[str, int], int]) -> str:
        """The ability of ``source`` with this text. Identical lines of one card are told apart in the order offered
        (the least used first); one ability may be offered several times (it triggered on several events)."""
        lines = [n for n, text in enumerate(self.descriptions[source]) if text == description]
        if not lines:
            raise EngineError("errored", f"phase asked to order a trigger of {source} the adapter cannot name: "
                                         f"{description!r}")
        n = min(lines, key=lambda k: (taken.get((source, k), 0), k))
        taken[(source, n)] = taken.get((source, n), 0) + 1
        return self.objects[source]["abilities"][n]["id"]

    def find_event(self, trigger_event: dict[str, Any] | None, source: str, ability: str) -> str | None:
        """The trace event standing for the phase event a stack entry names as its trigger event: the latest one
        that matches and did not trigger this ability already (phase's payloads of two damage events dealt alike in
        one resolution are identical: each gets its own)."""
        if not trigger_event:
            return None
        kind, data = trigger_event.get("type"), trigger_event.get("data") or {}
        if kind == "ZoneChanged":
            want = {"subject": self.to_scenario.get(data["object_id"]), "from": ZONES.get(data["from"]),
                    "to": ZONES.get(data["to"])}
        elif kind == "DamageDealt":
            target = data.get("target") or {}
            want = {"type": "damage", "subject": self.to_scenario.get(data.get("source_id")), "amount": data.get("amount")}
            if "Player" in target:
                want["player"] = self.players[target["Player"]]
            else:
                want["target"] = self.to_scenario.get(target.get("Object"))
        elif kind == "LifeChanged":
            want = {"type": "life", "player": self.players[data["player_id"]], "amount": data.get("amount")}
        elif kind in ("LandPlayed", "CardDrawn") and data.get("object_id") in self.signal_events:  # signals.py
            want = {"id": self.signal_events[data["object_id"]]}
        elif kind == "CombatDamageDealtToPlayer" and data.get("source_amounts"):  # combat.py: one or more, once
            want = {"type": "damage", "player": self.players[data["player_id"]],
                    "subject": self.to_scenario.get(data["source_amounts"][0][0])}
        elif kind == "PhaseChanged" and data.get("phase") in self.phase_events:  # signals.py: phase's steps
            want = {"id": self.phase_events[data["phase"]]}
        elif kind in ("PlayerLost", "PlayerEliminated"):
            want = {"type": "player_leaves", "player": self.players[data["player_id"]]}
        else:
            return None
        used = Counter(t["event"] for t in self.triggers.values() if t["source"] == source and t["ability"] == ability)
        wants = [want] + ([want | {"to": "removed"}] if want.get("to") == "exile" else [])  # a departure's exile
        for want in wants:
            for entry in reversed(self.entries):
                if entry["kind"] == "event" and used[entry["id"]] < 1 + self.additional_times(source, entry) \
                        and all(entry.get(k) == v for k, v in want.items()):
                    return entry["id"]
        return None

    def additional_times(self, source: str, event: dict[str, Any]) -> int:
        """603.2d: how many additional times an ability of ``source`` triggers on the trace event ``event``, from
        the objects with ``additional_triggers`` (rendered: once, on entering) on the battlefield under the
        controller of ``source``, as phase's DoubleTriggers static applies it."""
        if event.get("type") != "enter":
            return 0
        return sum(o["additional_triggers"]["times"] for o in self.objects.values()
                   if o.get("additional_triggers") and self.zones.get(o["id"]) == "field"
                   and self.control.get(o["id"]) == self.control.get(source))

    def insert_trigger(self, entry: dict[str, Any]) -> None:
        """Place a trigger entry right after the event that triggered it (after triggers already placed there).
        Raises Skipped when its ability's intervening "if" names a player rendered "you" (render.render_condition)
        who is not the ability's controller as it triggered."""
        cond = self.specs[entry["ability"]].get("intervening_if") or {} if entry.get("ability") else {}
        if cond.get("player", "controller") not in ("controller", entry["controller"]):
            raise Skipped(f"phase adapter: {entry['ability']}'s intervening 'if' names {cond['player']}, rendered "
                          f"'you', but {entry['controller']} controls it")
        at = len(self.entries)
        for n, e in enumerate(self.entries):
            if e["kind"] == "event" and e["id"] == entry["event"]:
                at = n + 1
                while at < len(self.entries) and "group" in e and self.entries[at].get("group") == e["group"]:
                    at += 1  # after every event of its group (one event, several occurrences)
                while at < len(self.entries) and self.entries[at]["kind"] == "trigger":
                    at += 1
                break
        self.entries.insert(at, entry)

    def spec(self, trigger: dict[str, Any]) -> dict[str, Any]:
        """The scenario's ability of a trigger entry (or of any dict naming an ``ability``)."""
        return self.specs[trigger["ability"]]

    def phase_effect(self, entry: dict[str, Any]) -> str | None:
        """The effect phase gives a delayed trigger entry's ability (as JSON), from the live delayed abilities."""
        return next((d["effect"] for d in self.live_delayed if d["create"] == entry.get("delayed")), None)

    def take_pushes(self) -> list[dict[str, Any]]:
        """New entries on phase's stack (bottom to top: the order they were put there) become trigger instances
        and stack pushes; returns phase's stack as read. Abilities that phase put there without asking their
        controller for an order because their text is identical (phase asks only when a player's waiting abilities
        differ) are interchangeable when the text names no object through "this creature" and they triggered on the
        same event: their identities are mapped onto phase's stack entries in the order the chooser wants (see
        ``interchange``)."""
        unasked: list[tuple[dict[str, Any], str]] = []
        stack = self.game.stack()
        for item in stack:
            if item["id"] in self.known_stack:
                continue
            if item["kind"]["type"] != "TriggeredAbility":
                raise EngineError("errored", f"phase put a {item['kind']['type']} on the stack")
            if item["kind"]["data"]["ability"].get("trigger_definition_ref") is None \
                    and item["kind"]["data"].get("condition") is not None \
                    and item["kind"]["data"].get("trigger_event") is None:  # a state trigger (603.8)
                self.push_state(item)
            elif item["kind"]["data"]["ability"].get("trigger_definition_ref") is None:  # a delayed ability
                self.push_delayed(item)
            elif self.is_reflexive(self.to_scenario.get(item["source_id"]), item["kind"]["data"]["ability"]):
                self.push_reflexive(item)
            else:
                self.push_printed(item, unasked)
        self.interchange(unasked)
        if self.waiting["type"] == "Priority":  # phase is done putting abilities on the stack
            self.removed_unplaced()
        return stack

    def push_delayed(self, item: dict[str, Any]) -> None:
        """phase's stack entry ``item`` of a delayed ability (no printed trigger): its trigger and stack push."""
        source = self.to_scenario.get(item["source_id"])
        if source is None:
            raise EngineError("errored", f"phase put an ability of unknown object {item['source_id']} on "
                                         f"the stack")
        entry = next((e for e in self.pending if e["source"] == source and "delayed" in e
                      and e["ability"] in {d["ability"] for d in self.live_delayed}
                      and self.phase_effect(e) == json.dumps(item["kind"]["data"]["ability"].get("effect"),
                                                             sort_keys=True)), None)
        if entry is not None:  # named as phase asked for the order
            self.pending.remove(entry)
        else:
            entry = {"kind": "trigger", "id": self.new_id("T"), "ability": None, "source": source,
                     "controller": self.players[item["controller"]], "event": None}
            self.name_delayed(entry, item["kind"]["data"]["ability"], item["kind"]["data"].get("trigger_event"))
        self.known_stack[item["id"]] = entry["id"]
        self.add("stack_push", trigger=entry["id"])

    def push_state(self, item: dict[str, Any]) -> None:
        """phase's stack entry ``item`` of a state trigger (603.8; issue 32 item 3: "When there are no Goblins on the
        battlefield, ..."), named by its text: its trigger, placed after the latest event that made its state true
        (its object leaving the battlefield; phase names no event), and its stack push."""
        data = item["kind"]["data"]
        source = self.to_scenario.get(item["source_id"])
        abilities = [a for a in (self.objects[source].get("abilities", ()) if source else ())
                     if a["trigger"].get("event") == "state"]
        if len(abilities) > 1:  # phase's description names its source "~"
            abilities = [a for a in abilities
                         if self.texts[a["id"]].replace("this creature", "~") == data.get("description")]
        if len(abilities) != 1:
            raise EngineError("errored", f"phase put a state trigger of {source} the adapter cannot name: "
                                         f"{data.get('description')!r}")
        ability = abilities[0]["id"]
        watched = abilities[0]["trigger"]["state"]["object"]
        made_true = next((e["id"] for e in reversed(self.entries) if e["kind"] == "event"
                          and e.get("subject") == watched and e.get("from") == "field"), None)
        if made_true is None:
            raise EngineError("errored", f"phase triggered {ability} of {source} with {watched} never leaving")
        entry = next((e for e in self.pending if e["source"] == source and e["ability"] == ability), None)
        if entry is not None:  # named as phase asked for the order
            self.pending.remove(entry)
        else:
            entry = {"kind": "trigger", "id": self.new_id("T"), "ability": ability, "source": source,
                     "controller": self.players[item["controller"]], "event": made_true}
            self.insert_trigger(entry)
        self.triggers[entry["id"]] = entry
        self.known_stack[item["id"]] = entry["id"]
        self.add("stack_push", trigger=entry["id"])

    def push_reflexive(self, item: dict[str, Any]) -> None:
        """phase's stack entry ``item`` of a reflexive ability ("When you do"): its trigger and stack push."""
        source = self.to_scenario[item["source_id"]]
        entry = next((e for e in self.pending if e["source"] == source and "delayed" in e
                      and self.parent_of.get(e["ability"]) is not None
                      and any(a.get("do") == "reflexive" and a["ability"]["id"] == e["ability"]
                              for a in self.specs[self.parent_of[e["ability"]]]["effect"])), None)
        if entry is not None:  # named as phase asked for the order
            self.pending.remove(entry)
        else:
            entry = {"kind": "trigger", "id": self.new_id("T"), "ability": None, "source": source,
                     "controller": self.players[item["controller"]], "event": None}
            self.name_reflexive(entry, item["kind"]["data"]["ability"])
        self.known_stack[item["id"]] = entry["id"]
        self.add("stack_push", trigger=entry["id"])

    def push_printed(self, item: dict[str, Any], unasked: list[tuple[dict[str, Any], str]]) -> None:
        """phase's stack entry ``item`` of a printed ability: its trigger (placed after its event) and stack push
        (with the target phase chose itself, if any). One phase put there without asking for an order is added to
        ``unasked`` with its text."""
        data = item["kind"]["data"]
        source = self.to_scenario.get(item["source_id"])
        if source is None:
            raise EngineError("errored", f"phase put an ability of unknown object {item['source_id']} on the stack")
        index = data["ability"]["trigger_definition_ref"]["occurrence"]["data"]["printed_index"]
        ability = self.ability_of(source, index)
        entry = next((e for e in self.pending if e["source"] == source and e["ability"] == ability), None)
        if entry is not None:
            self.pending.remove(entry)
        else:
            entry = {"kind": "trigger", "id": self.new_id("T"), "ability": ability, "source": source,
                     "controller": self.players[item["controller"]], "event": None}
            unasked.append((entry, self.descriptions[source][index]))
        entry["controller"] = self.players[item["controller"]]
        owner = self.objects[source].get("controller", self.objects[source]["owner"])  # whom the text was worded for
        if entry["controller"] != owner and FOLLOWS_CONTROLLER.search(FOLLOWS_ALIKE.sub("", self.texts[ability])):
            # "you" is the new controller where the scenario names the player the text was worded for, its starting
            # controller (an intervening "if" about "your graveyard" can only have been true for the new controller
            # if it was true for the owner too)
            raise Skipped(f"phase adapter: {source} changed hands and its ability {ability} names a player "
                          f"through its controller: {self.texts[ability]!r}")
        entry["event"] = self.find_event(data.get("trigger_event"), source, ability)
        if entry["event"] is None:
            raise EngineError("errored", f"phase's trigger of {source} names an event the trace does not hold: "
                                         f"{json.dumps(data.get('trigger_event'))[:200]}")
        self.insert_trigger(entry)
        self.triggers[entry["id"]] = entry
        self.known_stack[item["id"]] = entry["id"]
        push = self.add("stack_push", trigger=entry["id"])
        chosen = self.phase_targets(data)
        if chosen:  # phase chose the only legal target as it put the ability on the stack
            push["target"] = chosen[0]

    def phase_targets(self, data: dict[str, Any]) -> list[str]:
        """The scenario players (or objects) a phase stack entry targets, in phase's order (empty: none yet)."""
        out = []
        for t in data["ability"].get("targets") or []:
            if "Player" in t:
                out.append(self.players[t["Player"]])
            elif "Object" in t and t["Object"] in self.to_scenario:
                out.append(self.to_scenario[t["Object"]])
            else:
                raise EngineError("errored", f"phase's ability targets {t!r}, which the adapter cannot name")
        return out

    def is_reflexive(self, source: str, ability: dict[str, Any]) -> bool:
        """Whether phase's ability (a stack entry's or a pending one's) is the "When you do" of its printed ability:
        its effect is that sub-ability's and nothing follows it (the parent's chain always goes on to it)."""
        index = ability["trigger_definition_ref"]["occurrence"]["data"]["printed_index"]
        want = self.reflexive_effects.get((source, index))
        return want is not None and ability.get("sub_ability") is None \
            and json.dumps(ability.get("effect"), sort_keys=True) == want

    def name_reflexive(self, entry: dict[str, Any], ability: dict[str, Any]) -> bool:
        """If phase's ``ability`` is a reflexive ability waiting since the resolution that created it (``reflexive``),
        give trigger ``entry`` its identity: the reflexive ability, its creation, the death it triggered on; it is
        placed right after its creation. Whether it was."""
        if not self.is_reflexive(entry["source"], ability):
            return False
        index = ability["trigger_definition_ref"]["occurrence"]["data"]["printed_index"]
        made = next((w for w in self.reflexive_waiting if w["key"] == (entry["source"], index)), None)
        if made is None:  # e.g. an optional ability whose choice was made, its "destroy" destroying nothing
            raise Skipped(f"phase adapter: phase triggered a 'When you do' ability of {entry['source']} with no death "
                          f"in the resolution that created it: phase's 'When you do' does not watch a death")
        self.reflexive_waiting.remove(made)
        entry.update(ability=made["ability"], controller=made["controller"], event=made["event"],
                     delayed=made["create"])
        at = next(n for n, e in enumerate(self.entries) if e["kind"] == "delayed_create" and e["id"] == made["create"])
        self.entries.insert(at + 1, entry)
        self.triggers[entry["id"]] = entry
        return True

    def removed_unplaced(self) -> None:
        """Abilities phase offered in an ``OrderTriggers`` prompt, that have a target, and that it never put on its
        stack once it gives priority again: phase removed them as they would go on the stack, no legal target
        being left (603.3d). Each is written where the order put it: its trigger after its event, its stack_push
        (no target) among the pushes of its prompt, removed for ``no_target`` right after."""
        for entry in [e for e in self.pending if e["id"] in self.offered_events and "target" in self.spec(e)]:
            entry["event"] = self.find_event(self.offered_events[entry["id"]], entry["source"], entry["ability"])
            if entry["event"] is None:
                raise EngineError("errored", f"phase's pending {entry['ability']} names an event the trace does not "
                                             f"hold: {json.dumps(self.offered_events[entry['id']])[:200]}")
            self.pending.remove(entry)
            order = next(o for o in self.push_orders if entry["id"] in o)
            after = order[order.index(entry["id"]) + 1:]
            at = next((n for n, e in enumerate(self.entries) if e["kind"] == "stack_push" and e["trigger"] in after),
                      len(self.entries))
            self.entries[at:at] = [{"kind": "stack_push", "trigger": entry["id"]},
                                   {"kind": "removed", "trigger": entry["id"], "reason": "no_target"}]
            self.insert_trigger(entry)
            self.triggers[entry["id"]] = entry

    def created_delayed(self, trigger: str) -> None:
        """phase reported the creation of a delayed ability (``EffectResolved`` of kind ``CreateDelayedTrigger``) as
        ``trigger`` resolves: the next ``create_delayed`` instruction of its ability, written where phase did it
        (603.7a)."""
        parent = self.triggers[trigger]
        made = [a for a in self.spec(parent)["effect"] if a.get("do") == "create_delayed"]
        n = self.creations.get(trigger, 0)
        if n >= len(made):
            raise EngineError("errored", f"phase created more delayed abilities than {trigger}'s effect says")
        self.creations[trigger] = n + 1
        create = self.add("delayed_create", id=self.new_id("D"), ability=made[n]["ability"]["id"],
                          source=parent["source"], controller=parent["controller"], created_by=trigger,
                          **({"duration": made[n]["duration"]} if "duration" in made[n] else {}))
        index = self.ability_index(parent["source"], parent["ability"])
        effect = delayed_effect(self.faces[card_name(parent["source"]).lower()]["triggers"][index]["execute"], n)
        self.live_delayed.append({"create": create["id"], "ability": made[n]["ability"]["id"],
                                  "source": parent["source"], "controller": parent["controller"],
                                  "trigger": made[n]["ability"]["trigger"], "once": "duration" not in made[n],
                                  "effect": json.dumps(effect, sort_keys=True)})

    def name_delayed(self, entry: dict[str, Any], ability: dict[str, Any], trigger_event: Any) -> None:
        """A phase ability with no printed trigger (``trigger_definition_ref`` null): a delayed ability of
        ``entry``'s source, told apart from that source's other live ones by its effect. Gives ``entry`` its
        identity and event, and places it after that event."""
        mine = [d for d in self.live_delayed if d["source"] == entry["source"] and not d.get("ended")
                and d["effect"] == json.dumps(ability.get("effect"), sort_keys=True)]
        if not mine:
            raise EngineError("errored", f"phase put an ability of {entry['source']} with no printed trigger on the "
                                         f"stack, and no delayed ability of it is waiting: {ability.get('effect')}")
        if len({d["ability"] for d in mine}) > 1:
            raise Skipped(f"phase adapter: {entry['source']} has several live delayed abilities doing the same: "
                          f"which one phase triggered cannot be told")
        made = mine[0] if len(mine) == 1 else None
        if made is None:  # several creations of one ability: interchangeable but for their creation
            raise Skipped(f"phase adapter: {entry['source']}'s delayed ability {mine[0]['ability']} was created "
                          f"{len(mine)} times: which creation phase triggered cannot be told")
        entry.update(ability=made["ability"], controller=made["controller"], delayed=made["create"])
        entry["event"] = self.find_event(trigger_event, entry["source"], made["ability"])
        if entry["event"] is None:
            raise EngineError("errored", f"phase's delayed ability of {entry['source']} names an event the trace "
                                         f"does not hold: {json.dumps(trigger_event)[:200]}")
        self.insert_trigger(entry)
        self.triggers[entry["id"]] = entry
        if made["once"]:
            self.ended_once(entry, made)

    def ended_once(self, entry: dict[str, Any], made: dict[str, Any]) -> None:
        """A delayed ability with no duration has triggered (603.7b: once): when phase no longer holds it among its
        delayed triggers, its ``delayed_end`` (triggered) is written right after ``entry``, its trigger; when phase
        still holds it, nothing is written (the judge says it never ended)."""
        phase_id = self.to_phase[entry["source"]]
        held = [d for d in self.game.state()["state"].get("delayed_triggers") or ()
                if (d.get("ability") or {}).get("source_id") == phase_id
                and json.dumps((d.get("ability") or {}).get("effect"), sort_keys=True) == made["effect"]]
        made["ended"] = True  # kept in live_delayed: push_delayed names a prompt's pending entry from it
        if not held:
            at = next(n for n, e in enumerate(self.entries) if e is entry)
            self.entries.insert(at + 1, {"kind": "delayed_end", "delayed": made["create"], "reason": "triggered"})

    def reflexive(self, trigger: str, spec: dict[str, Any]) -> None:
        """The reflexive ability of ``spec`` created at the end of ``trigger``'s resolution (603.12: its last
        instruction). If its object died in that resolution it triggers: its trigger entry is written once phase
        shows it, on its stack or in an ``OrderTriggers`` prompt (``name_reflexive``), right after this creation;
        if phase never does, the trace has the creation alone and the judge says what is missing."""
        made = spec["effect"][-1]["ability"]
        parent = self.triggers[trigger]
        create = self.new_id("D")
        self.add("delayed_create", id=create, ability=made["id"], source=parent["source"],
                 controller=parent["controller"], created_by=trigger, reflexive=True)
        victim = reflexive_victim(spec["effect"])
        died = [e["id"] for e in self.entries if e["kind"] == "event" and e["cause"] == {"resolution": trigger}
                and e["type"] == "leave" and e.get("subject") == victim and e.get("to") == "graveyard"]
        if died:  # it triggers; phase puts it on the stack, or offers it for ordering, afterwards (name_reflexive)
            self.reflexive_waiting.append({"key": (parent["source"], self.ability_index(parent["source"],
                                                                                        parent["ability"])),
                                           "ability": made["id"], "controller": parent["controller"],
                                           "event": died[0], "create": create})
