"""The script: steps of scripted actions by the active player, the set pieces' actions placed in them, a scripted
event moving several objects to different zones, and what the script must keep out."""

from __future__ import annotations

from typing import Any

from reference_engine.mtg.generator.features import MAX_LEVEL, TOP


class Script:
    """The script of a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin)."""

    def script_steps(self, players: list[str], active: str, doomed: list[str]) -> list[dict[str, Any]]:
        """One to three steps of one to three random actions each, maybe in later turns (500.1)."""
        src = self.source
        steps = []
        conceded: list[str] = []
        turn = 1
        for s in range(src.count(1, 3)):
            actions = []
            for _ in range(src.count(1, 3)):
                actions.append({"by": active, "effect": [self.script_action(players, active, doomed, conceded)]})
            steps.append({"step": ["upkeep", "main", "combat"][s], "actions": actions})
            if s and "turns" not in self.no and src.chance(45):  # this step begins a later turn (500.1)
                turn += src.pick([1, 1, 2])
                steps[-1]["turn"] = turn
        return steps

    def move_each(self, players: list[str], doomed: list[str], active: str, last: list[dict[str, Any]]) -> None:
        """One scripted event moving a fresh permanent off the battlefield and maybe graveyard cards, each to its own
        zone, watched by a fresh permanent (603.6, 603.10a); appended to ``last``."""
        src = self.source
        if "zone_changes" not in self.no and src.chance(80):
            # one event moving a fresh permanent off the battlefield and maybe graveyard cards, each to its own zone,
            # watched by a fresh permanent's "whenever a card or permanent is put into <zone> from anywhere" (603.6,
            # 603.10a); fresh, so that nothing else in the scenario moves them first
            stayers = [p for p in players if p not in doomed]
            holder = {"id": f"C{len(self.objects) + 1}", "owner": src.pick(stayers), "zone": "field"}
            self.objects.append(holder)
            moved = {"id": f"C{len(self.objects) + 1}", "owner": src.pick(players), "zone": "field"}
            self.objects.append(moved)
            first = src.pick(["hand", "deck"] + ([] if "exile" in self.no else ["exile"]))
            moves = [{"object": moved["id"], "from": "field", "to": first}]
            moves += [{"object": o["id"], "from": "graveyard", "to": src.pick(["exile", "hand", "deck"])}
                      for o in self.objects if o["zone"] == "graveyard" and src.chance(35)]
            if src.chance(50):  # and another fresh permanent to another zone
                also = {"id": f"C{len(self.objects) + 1}", "owner": src.pick(players), "zone": "field"}
                self.objects.append(also)
                moves.append({"object": also["id"], "from": "field",
                              "to": src.pick([z for z in ("graveyard", "hand", "deck") if z != first])})
            trigger: dict[str, Any] = {"event": "zone_change", "to": first}
            if src.chance(30):
                trigger = {"event": "zone_change", "from": src.pick(["field", "graveyard"])}
            effect = [{"do": "signal", "name": TOP}] if src.chance(50) and "signals" not in self.no else []
            if not effect and "empty_effects" in self.no:
                effect = [self.destroy(holder["id"])]
            holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger, "effect": effect}]
            last.append({"by": active, "effect": [{"do": "move_each", "moves": src.permutation(moves)}]})

    def place_first(self, steps: list[dict[str, Any]], active: str, chain: str | None, gone: Any,
                    mine: dict[str, Any] | None, handoff: list[dict[str, Any]] | None, shield: dict[str, Any] | None,
                    departure: str | None) -> None:
        """The actions of the set pieces that go first in the script (or anywhere in it)."""
        src = self.source
        if chain:  # most often first, while its holders are all still there
            where = steps[0]["actions"] if src.chance(70) else src.pick(steps)["actions"]
            where.insert(0 if src.chance(70) else src.integer(0, len(where)), {"by": active, "effect": [
                {"do": "signal", "name": chain}]})
        if gone:
            signal, aimed, killer, victim = gone
            steps[0]["actions"].insert(0, {"by": active, "effect": [{"do": "signal", "name": signal}]})
        if self.gone_player:
            steps[0]["actions"].insert(0, {"by": active, "effect": [{"do": "signal", "name": self.gone_player[0]}]})
        if mine:
            steps[0]["actions"].insert(0, {"by": active, "effect": [mine]})
        if handoff:
            where = src.pick(steps)["actions"]
            at = src.integer(0, len(where))
            where[at:at] = [{"by": active, "effect": [action]} for action in handoff]
        if shield:
            steps[0]["actions"].append({"by": active, "effect": [shield]})
        if departure:
            steps[0]["actions"].insert(0, {"by": active, "effect": [{"do": "signal", "name": departure}]})

    def place_last(self, steps: list[dict[str, Any]], last: list[dict[str, Any]], active: str, players: list[str],
                   once: tuple[str, str, str] | None, graveyard: bool, casting: list[dict[str, Any]],
                   batching: list[dict[str, Any]]) -> None:
        """The actions of the set pieces that go last in the script, then the casts and the batching actions."""
        src = self.source
        if once:
            signal, holder_id, owner = once
            field = [o["id"] for o in self.objects if o["zone"] == "field"]
            last.append({"by": active, "effect": [{"do": "signal", "name": signal}]})
            if src.chance(50) and "gain_control" not in self.no:  # its source changes hands first (603.7e)
                last.append({"by": active, "effect": [{"do": "gain_control", "object": holder_id,
                                                       "player": src.pick([p for p in players if p != owner])}]})
                self.graveyard_ability(next(o for o in self.objects if o["id"] == holder_id))
            dying = [o for o in field if src.chance(70)] or field
            last.append({"by": active, "effect": [{"do": "move_together", "objects": dying, "from": "field",
                                                   "to": "graveyard"}]})
        if graveyard and src.chance(80) and "move_together" not in self.no:
            # exile every graveyard: the cards in it leave together (603.10a)
            last.append({"by": active, "effect": [{"do": "move_together", "objects": [o["id"] for o in self.objects],
                                                   "from": "graveyard", "to": "exile"}]})
        if self.delayed_sites and src.chance(85) and "gain_control" not in self.no:
            # the source of a delayed ability changes control before it triggers: the ability stays its creator's
            # controller's (603.7e)
            holder, signal, trigger = src.pick(self.delayed_sites)
            owner = next(o["owner"] for o in self.objects if o["id"] == holder)
            last.append({"by": active, "effect": [{"do": "signal", "name": signal}]})
            last.append({"by": active, "effect": [
                {"do": "gain_control", "object": holder, "player": src.pick([p for p in players if p != owner])}]})
            self.graveyard_ability(next(o for o in self.objects if o["id"] == holder))
            if trigger["event"] == "signal":
                last.append({"by": active, "effect": [{"do": "signal", "name": trigger["name"]}]})
            elif trigger.get("subject", "any") == "any" and "move_together" not in self.no:
                # several leave at once: a once-only one picks one (603.7b)
                field = [o["id"] for o in self.objects if o["zone"] == "field"]
                last.append({"by": active, "effect": [{"do": "move_together", "objects": field, "from": "field",
                                                       "to": "graveyard"}]})
            elif trigger["subject"] != "any":
                victim = holder if trigger["subject"] == "self" else trigger["subject"]
                last.append({"by": active, "effect": [{"do": "move", "object": victim, "from": "field",
                                                       "to": "graveyard"}]})
        where = src.pick(steps)["actions"]
        where[0:0] = [{"by": active, "effect": [action]} for action in casting]
        for action in batching:  # cards entering together first, while their watcher is surely there
            if action["do"] == "move_together":
                steps[0]["actions"].insert(0, {"by": active, "effect": [action]})
            else:
                last.append({"by": active, "effect": [action]})

    def late_turn(self, steady: list[dict[str, Any]], steps: list[dict[str, Any]], active: str) -> None:
        """A delayed ability lasting "this turn" ("next turn", "until your next turn") created in turn 1, and its
        event in that turn and again in a later one (603.7b): it must not outlive its duration."""
        src = self.source
        if not {"turns", "delayed", "signals"} & self.no and steady and src.chance(70):
            # a delayed ability lasting "this turn" ("next turn", "until your next turn") created in turn 1, and its
            # event in that turn and again in a later one (603.7b): it must not outlive its duration
            holder = src.pick(steady)
            did = self.ability_id("D")
            self.delayed_ids.append(did)
            effect = [{"do": "signal", "name": TOP}] if src.chance(50) or "empty_effects" in self.no else []
            duration = src.pick(["turn", "turn", "turn", "next_turn", "until_your_next_turn"])
            create = {"do": "create_delayed", "duration": duration, "ability": {
                "id": did, "trigger": {"event": "signal", "name": "late"}, "effect": effect}}
            holder.setdefault("abilities", []).append({
                "id": self.ability_id(), "trigger": {"event": "signal", "name": "dawn"}, "effect": [create]})
            steps[0]["actions"][:0] = [{"by": active, "effect": [{"do": "signal", "name": "dawn"}]},
                                       {"by": active, "effect": [{"do": "signal", "name": "late"}]}]
            later = max(step.get("turn", 1) for step in steps) + src.pick([1, 1, 2])
            steps.append({"step": "main", "turn": later, "actions": [
                {"by": active, "effect": [{"do": "signal", "name": "late"}]}]})

    def finish_script(self, steps: list[dict[str, Any]], doomed: list[str]) -> None:
        """What the scenario leaves out kept out of the script (and of the narrower shapes)."""
        if self.no & {"signals", "empty_effects"}:
            self.keep_out(steps)
        if self.made_delayed and "scripted_delayed_triggers" in self.excluded:  # narrower shape: the script exiles
            for step in steps:
                for action in step["actions"]:
                    for effect in action["effect"]:
                        if effect["do"] == "move" and effect["from"] == "field":
                            effect["to"] = "exile"
        if "stray_targets" in self.excluded:
            self.shelter_targets(steps, doomed)

    def keep_out(self, steps: list[dict[str, Any]]) -> None:
        """Keep what the scenario leaves out out of its last corners: without ``signals``, a signal some effect
        would emit (an answer at the top level) becomes its source's destruction and a scripted one a destroy;
        without ``empty_effects``, an effect that would do nothing destroys its source. Zone changes only move
        forward, so the scenario still terminates."""

        def patch(effect: list[dict[str, Any]], source: str) -> list[dict[str, Any]]:
            kill = {"do": "move", "object": source, "from": "field", "to": "graveyard"}
            if "signals" in self.no:
                effect = [kill if a["do"] == "signal" else a for a in effect]
            for action in effect:
                if isinstance(action.get("ability"), dict):
                    action["ability"]["effect"] = patch(action["ability"]["effect"], source)
            return effect or ([kill] if "empty_effects" in self.no else [])

        for obj in self.objects:
            for ability in obj.get("abilities", ()):
                ability["effect"] = patch(ability["effect"], obj["id"])
        if "signals" in self.no:
            for step in steps:
                for action in step["actions"]:
                    action["effect"] = [self.destroy() if a["do"] == "signal" else a for a in action["effect"]]

    def script_action(self, players, active, doomed, conceded) -> dict[str, Any]:
        src = self.source
        kind = self.allowed(src.integer(0, 8), {
            0: "signals", 1: "signals", 2: "move_together", 3: "move_together", 4: None, 5: None,
            6: "script_damage", 7: "gain_control", 8: "players_leaving"})
        field = [o["id"] for o in self.objects if o["zone"] == "field"]
        if kind <= 1:
            return {"do": "signal", "name": f"s{src.integer(1, MAX_LEVEL)}"}
        if kind <= 3:  # destroy all: permanents leaving the battlefield together (603.10a)
            return {"do": "move_together", "objects": [o for o in field if src.chance(75)] or field, "from": "field",
                    "to": "graveyard"}
        if kind == 4:
            return self.destroy()
        if kind == 5:
            hand = [o["id"] for o in self.objects if o["zone"] == "hand"]
            if not hand:
                return self.destroy() if "script_damage" in self.no else self.damage()
            return {"do": "move", "object": src.pick(hand), "from": "hand", "to": "field"}
        if kind == 6:
            return self.damage()
        if kind == 7 and "hand_control_changes" in self.excluded:
            # narrower shape: a permanent, to a player who stays, preferably one whose abilities name no player through
            # their controller
            takers = [p for p in players if p not in doomed]
            held = [o for o in self.objects if o["zone"] == "field" and any(p != o["owner"] for p in takers)]
            if not held:
                return self.destroy()
            quiet = [o for o in held if o.get("abilities") and not self.names_controller(o)]
            obj = src.pick(quiet or held)
            return {"do": "gain_control", "object": obj["id"], "player": src.pick([p for p in takers
                                                                                    if p != obj["owner"]])}
        if kind == 7:
            obj = src.pick(self.objects)
            return {"do": "gain_control", "object": obj["id"], "player": src.pick([p for p in players if p != obj["owner"]])}
        candidates = [p for p in doomed if p not in conceded]
        if candidates:
            conceded.append(candidates[0])
            return {"do": "concede", "player": candidates[0]}
        return {"do": "signal", "name": "s1"}
