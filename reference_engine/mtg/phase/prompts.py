"""Driving, prompts: phase's ``OrderTriggers`` and ``TriggerTargetSelection`` prompts answered from the harness's
chooser, and the order of abilities phase put on its stack itself (identical texts) given by the chooser too."""

from __future__ import annotations

import json
from typing import Any

from reference_engine.kernel.errors import EngineError

class PromptAnswers:
    """Answers to phase's prompts, for a :class:`~reference_engine.mtg.phase.play.Play` (a mixin)."""

    def answer_order(self, prompt: dict[str, Any]) -> list[dict[str, Any]]:
        seat = prompt["player"]
        player = self.players[seat]
        offered = []
        taken: dict[tuple[str, int], int] = {}
        waiting = self.phase_pending(seat, prompt) if self.live_delayed else None
        for n, t in enumerate(prompt["triggers"]):
            source = self.to_scenario[t["source_id"]]
            entry = {"kind": "trigger", "id": self.new_id("T"), "ability": None, "source": source,
                     "controller": player, "event": None}
            if waiting is not None and waiting[n]["ability"].get("trigger_definition_ref") is None:
                self.name_delayed(entry, waiting[n]["ability"], waiting[n].get("trigger_event"))
            else:
                entry["ability"] = self.match_ability(source, t["description"], taken)
            offered.append(entry)
        targeted = any("target" in self.spec(e) for e in offered)
        if targeted or self.reflexive_waiting:
            waiting = waiting or self.phase_pending(seat, prompt)
            for entry, pending in zip(offered, waiting):
                if "delayed" not in entry:
                    self.name_reflexive(entry, pending["ability"])
            if targeted:
                self.note_offered_events(offered, waiting)
        resolve = self.chooser.order(player, offered)
        push = list(reversed(resolve))
        self.pending.extend(offered)
        if targeted:
            self.push_orders.append([offered[k]["id"] for k in push])
        self.add("choice", player=player, decision="order", among=[e["id"] for e in offered],
                 chosen=[offered[k]["id"] for k in resolve])
        return self.apply(seat, {"type": "OrderTriggers", "data": {"order": push}})

    def phase_pending(self, seat: int, prompt: dict[str, Any]) -> list[dict[str, Any]]:
        """phase's pending abilities behind an ``OrderTriggers`` prompt to ``seat`` (``pending_trigger_order`` in
        phase's state, in the prompt's order), each with its ``ability`` and ``trigger_event``: read only for prompts
        where the adapter needs more than the prompt says."""
        groups = self.game.state()["state"].get("pending_trigger_order") or {}
        waiting = [t["pending"] for g in groups.get("groups") or () if g.get("controller") == seat
                   for t in g.get("triggers") or ()]
        if len(waiting) != len(prompt["triggers"]) or any(
                pending["ability"]["source_id"] != item["source_id"]
                for pending, item in zip(waiting, prompt["triggers"])):
            raise EngineError("errored", f"phase's pending abilities ({len(waiting)}) do not match the "
                                         f"{len(prompt['triggers'])} it asked {self.players[seat]} to order")
        return waiting

    def note_offered_events(self, offered: list[dict[str, Any]], waiting: list[dict[str, Any]]) -> None:
        """The event each ability offered in an ``OrderTriggers`` prompt triggered on, as phase's pending abilities
        say (read for prompts offering a targeted ability): phase may remove such an ability as it would go on the
        stack, with no legal target (603.3d), and then names its event nowhere else."""
        for entry, pending in zip(offered, waiting):
            ability = pending["ability"]
            if "delayed" in entry:
                continue
            index = ability["trigger_definition_ref"]["occurrence"]["data"]["printed_index"]
            if self.ability_index(entry["source"], entry["ability"]) != index:
                raise EngineError("errored", f"phase's pending abilities are not in the order of its prompt: "
                                             f"{ability['description']!r} for {entry['ability']}")
            self.offered_events[entry["id"]] = pending.get("trigger_event")

    def answer_target(self, prompt: dict[str, Any]) -> list[dict[str, Any]]:
        """phase's ``TriggerTargetSelection``: the harness's chooser picks among the legal targets phase offers (the
        players still in the game, or creatures on the battlefield), listed in the scenario's order. Asked before
        anyone received priority since the push, the target is the push's (603.3d); asked after a priority pass with
        the ability already on the stack (phase-rs/phase#1287), the choice is written where phase asked for it, and
        the ability's ``stack_push`` keeps no target (mtg.no-legal-target reads that as 603.3d broken;
        docs/engines/phase.md)."""
        seat = prompt["player"]
        player = self.players[seat]
        legal = prompt["selection"]["current_legal_targets"]
        if len(prompt["target_slots"]) != 1 or any(not ("Player" in t or t.get("Object") in self.to_scenario)
                                                    for t in legal):
            raise EngineError("errored", f"phase asked for targets the adapter cannot name: {legal!r}")
        before = {s["id"]: self.phase_targets(s["kind"]["data"]) for s in self.game.stack()
                  if s["kind"]["type"] == "TriggeredAbility"}
        named = [self.players[t["Player"]] if "Player" in t else self.to_scenario[t["Object"]] for t in legal]
        untargeted = [self.known_stack[i] for i, got in before.items() if not got and i in self.known_stack
                      and "target" in self.spec(self.triggers[self.known_stack[i]])]
        source = self.to_scenario.get(prompt.get("source_id"))
        asked = [t for t in untargeted if self.triggers[t]["source"] == source and prompt.get("description") in
                 (None, self.descriptions[source][self.ability_index(source, self.triggers[t]["ability"])])]
        untargeted = asked or untargeted
        if not untargeted:
            raise EngineError("errored", "phase asked for a target, but every ability on its stack has one")
        # the chooser is asked about the ability phase asks for, known only after the answer: the topmost untargeted one
        # stands for it in the question (the answer depends only on the candidates and the player); the candidates in
        # the order the scenario lists them (its objects, then its players), as the reference engine offers them
        asking = self.triggers[untargeted[-1]]
        aim = self.spec(asking).get("target") or {}
        listed = list(aim.get("candidates") or ()) + list(aim.get("players") or ())
        among = sorted(named, key=lambda c: (listed.index(c) if c in listed else len(listed), named.index(c)))
        k = self.chooser.choose("target", player, dict(asking), among) if len(among) > 1 else 0
        events = self.apply(seat, {"type": "ChooseTarget", "data": {"target": legal[named.index(among[k])]}})
        after = {s["id"]: self.phase_targets(s["kind"]["data"]) for s in self.game.stack()
                 if s["kind"]["type"] == "TriggeredAbility"}
        got = [i for i, t in after.items() if t and not before.get(i) and i in self.known_stack]
        if len(got) != 1 or after[got[0]] != [among[k]]:
            raise EngineError("errored", f"phase's ChooseTarget did not target {among[k]} for one known ability")
        trigger = self.known_stack[got[0]]
        self.chosen_targets[trigger] = among[k]
        push = max(n for n, e in enumerate(self.entries) if e["kind"] == "stack_push" and e["trigger"] == trigger)
        if not any(e["kind"] == "priority" for e in self.entries[push:]):
            # asked before anyone received priority: chosen as the ability went on the stack (603.3d)
            self.entries[push]["target"] = among[k]
        self.add("choice", player=player, decision="target", among=among, chosen=[among[k]])
        return events

    def interchange(self, unasked: list[tuple[dict[str, Any], str]]) -> None:
        """Give phase's self-ordered pushes of interchangeable abilities the identities the chooser orders: the first
        pushed gets the identity the chooser wants to resolve last. Interchangeable: one controller, the same text
        naming no object as "this creature" (``~`` in phase's description), and one event: the same occurrence, or
        occurrences of one event (two tokens created at once) when the ability reads nothing of its occurrence (no
        target, no "that much", nothing it creates refers back to it); the occurrence is then part of the identity.
        Nothing else is touched: those pushes do the same thing whichever identity they are told to have."""
        groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for entry, description in unasked:
            if "~" not in description:
                event = entry["event"] if self.reads_its_occurrence(entry) else self.event_group(entry["event"])
                groups.setdefault((entry["controller"], event, description), []).append(entry)
        for (player, _, _), group in groups.items():
            if len(group) < 2:
                continue
            identities = [(e["source"], e["ability"], e["event"]) for e in group]
            resolve = self.chooser.order(player, [dict(e) for e in group])
            for entry, k in zip(group, reversed(resolve)):
                entry["source"], entry["ability"], entry["event"] = identities[k]

    def reads_its_occurrence(self, trigger: dict[str, Any]) -> bool:
        """Whether what a trigger's ability does may depend on the occurrence that triggered it (a target, an amount
        of "that much", a delayed or reflexive ability it creates): conservatively, any of those words."""
        spec = json.dumps(self.spec(trigger))
        return any(word in spec for word in ('"target"', '"that_many"', '"create_delayed"', '"reflexive"', '"move_target"'))

    def event_group(self, event: str) -> str:
        """The id of the event whose occurrence ``event`` is (its ``group``; itself when it stands alone)."""
        found = next((e for e in self.entries if e["kind"] == "event" and e["id"] == event), None)
        return (found or {}).get("group", event)
