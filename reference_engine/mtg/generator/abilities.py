"""Abilities: the triggered abilities random objects get (triggering on signals, zone changes, damage, life, players
leaving, states), their filters, their optional and intervening parts, and the abilities of cards in a graveyard and
watchers."""

from __future__ import annotations

from typing import Any

from reference_engine.mtg.generator.features import MAX_LEVEL, TOP


class Abilities:
    """Ability building for a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin)."""

    def ability(self, obj: dict[str, Any]) -> dict[str, Any]:
        aid = self.ability_id()
        self.current = obj if self.no else None
        kind = self.allowed(self.source.integer(0, 8), {
            0: "signals", 1: "signals", 2: "signals", 3: None, 4: None, 5: "event_triggers", 6: "state_triggers",
            7: "state_triggers", 8: "state_triggers"})
        ability: dict[str, Any] = {"id": aid}
        if kind <= 2:  # "Whenever sK happens" (a stand-in for casting, attacking, upkeep...)
            self.signal_ability(obj, ability)
        elif kind <= 4:  # dies / leaves / enters
            self.zone_ability(obj, ability)
        elif kind == 5:  # damage, life, a player leaving: answered with a top-level signal
            ability["trigger"] = {"event": self.source.pick(["damage", "damage", "life", "player_leaves"])}
            if ability["trigger"]["event"] == "life" and "life_triggers" in self.no:
                ability["trigger"]["event"] = "damage"
            if "filters" not in self.no and self.source.chance(60):  # "you gain life", "a source you control ..."
                self.filter_players(ability["trigger"])
            ability["effect"] = [{"do": "signal", "name": TOP}] if self.source.chance(70) else []
        else:  # a state trigger (603.8): "whenever X is in a graveyard, exile it"
            watched = self.some_creature()
            ability["trigger"] = {"event": "state", "state": {"test": "in_zone", "object": watched, "zone": "graveyard"}}
            ability["effect"] = ([{"do": "signal", "name": TOP}] if self.source.chance(60) else []) + [
                {"do": "move", "object": watched, "from": "graveyard", "to": "exile"}]
            if self.source.chance(60):  # 603.4 with 603.8: while false, the state trigger does not trigger
                ability["intervening_if"] = self.condition(None)
            return ability
        self.maybe_optional(obj, ability)
        looking_back = ability["trigger"]["event"] == "leave"  # 603.10: its 'if' is judged before the event
        if "zone_conditions" in self.no:
            if self.source.chance(40):
                ability["intervening_if"] = self.condition()
        elif self.source.chance(60 if looking_back else 40):
            ability["intervening_if"] = self.condition(self_weight=3 if looking_back else 1)
        return ability

    def signal_ability(self, obj: dict[str, Any], ability: dict[str, Any]) -> None:
        """"Whenever sK happens, ...", maybe targeted (a creature, 603.3d, or a player, 115.1)."""
        aid = ability["id"]
        level = self.source.integer(1, MAX_LEVEL)
        ability["trigger"] = {"event": "signal", "name": f"s{level}"}
        ability["effect"] = self.effect(level)
        for action in ability["effect"]:
            if action["do"] == "create_delayed":
                self.delayed_sites.append((obj["id"], f"s{level}", action["ability"]["trigger"]))
        if level < MAX_LEVEL and self.source.chance(35) and "targets" not in self.no:
            ability["target"] = {"candidates": [c for c in self.creatures() if self.source.chance(50)]
                                 or [self.some_creature()]}
            hand = [o["id"] for o in self.objects if o["zone"] == "hand"]
            if self.source.chance(35):  # 603.3d: one that may well have no legal target when it triggers
                ability["target"]["candidates"] = hand[:1] or ability["target"]["candidates"][:1]
            ability["effect"] = [{"do": "move_target", "to": "graveyard"}] + ability["effect"]
            if "player_targets" not in self.no and self.source.chance(40):  # "... target player" (115.1)
                ability["target"] = {"players": [p for p in self.vulnerable if self.source.chance(60)]
                                     or [self.some_player()]}
                ability["effect"][0] = self.at_target_player()
            self.targeted_ids.append(aid)

    def zone_ability(self, obj: dict[str, Any], ability: dict[str, Any]) -> None:
        """A creature entering, leaving or dying (or a zone change from anywhere), maybe filtered, maybe targeted on
        enter/leave abilities (without ``untargeted_zone_triggers``)."""
        event = self.source.pick(["leave", "leave", "enter"])
        ability["trigger"] = {"event": event, "subject": self.source.pick(["any", "any", "self", "other"])}
        if event == "leave" and self.source.chance(60):
            ability["trigger"]["to"] = "graveyard"
        # "put into exile from anywhere": drawn whether the feature is on or not, so that shrinking can turn it
        # off without shifting the draws that follow
        anywhere, to = self.source.chance(30), self.source.pick(["exile", "graveyard", "hand", "deck"])
        if "zone_changes" not in self.no and anywhere:
            ability["trigger"] = {"event": "zone_change", "subject": ability["trigger"]["subject"], "to": to}
        if "filters" not in self.no and self.source.chance(60):  # "a nontoken creature you control dies"
            self.filter_objects(ability["trigger"])
        ability["effect"] = self.effect(0)
        if "untargeted_zone_triggers" in self.excluded and self.source.chance(35):
            self.aim_zone_ability(obj, ability)
        if "repeated_delayed_creations" in self.excluded and any(
                a["do"] == "create_delayed" for a in ability["effect"]):  # narrower shape: created at most once
            ability["trigger"]["subject"] = "self"
        if "scripted_delayed_triggers" in self.excluded and any(
                a["do"] == "create_delayed" for a in ability["effect"]):  # narrower shape: a death to see
            self.killers.append((obj, ability["trigger"]))

    def aim_zone_ability(self, obj: dict[str, Any], ability: dict[str, Any]) -> None:
        """Without ``untargeted_zone_triggers``: "target player" (every player), "target creature" (every object) or
        one object, in the first instruction; without ``stray_targets``, on its own source's zone change."""
        aid = ability["id"]
        ability["target"] = {"players": list(self.all_players)}
        aimed = ({"do": "damage", "amount": self.source.integer(1, 3), "target": True} if self.source.chance(50)
                 else {"do": "life", "amount": -self.source.integer(1, 3), "target": True})
        if self.source.chance(50):  # "target creature" (every object) or one object ("target Elf")
            everyone = [o["id"] for o in self.objects]
            field = [o["id"] for o in self.objects if o["zone"] == "field" and o is not obj]
            # one object: rarely one in a hand (no legal target while it is there, 603.3d)
            ability["target"] = {"candidates": everyone if self.source.chance(40) else [
                self.source.pick(everyone if self.source.chance(25) or not field else field)]}
            if ability["target"]["candidates"] is everyone:  # "target creature": objects added later count too
                self.any_object_targets.append(ability["target"])
            exile = "graveyard" if "exile" in self.no else "exile"
            aimed = self.source.pick([{"do": "move_target", "to": "graveyard"},
                                      {"do": "move_target", "to": exile},
                                      {"do": "damage", "amount": self.source.integer(1, 3), "target": True}])
        ability["effect"] = [aimed] + ability["effect"]
        self.targeted_ids.append(aid)
        if "stray_targets" in self.excluded:  # narrower shape: on its own source's zone change (once)
            ability["trigger"]["subject"] = "self"
            aims = ability["target"].get("candidates") or []
            if len(aims) == 1 and next(o for o in self.objects if o["id"] == aims[0])["zone"] == "hand":
                self.strays.append((obj, ability))  # with no legal target: see stray_siblings

    def maybe_optional(self, obj: dict[str, Any], ability: dict[str, Any]) -> None:
        """Maybe "you may ..." (603.5), maybe with a reflexive ability ("you may ...; when you do, ...", 603.12)."""
        aid = ability["id"]
        if self.source.chance(25) and not ("delayed_anywhere" in self.excluded and any(
                a["do"] == "create_delayed" for a in ability["effect"])) and not (  # (narrower: a delayed one closes it)
                "reflexive_anywhere" in self.excluded and ability["effect"]
                and ability["effect"][-1]["do"] == "reflexive") and not (  # (narrower: nor a reflexive one)
                "optional_for_others" in self.excluded and self.about_others(obj, ability["effect"])):
            ability["optional"] = True
            self.optional_ids.append(aid)
            if self.source.chance(55) and "reflexive" not in self.no \
                    and "reflexive_anywhere" not in self.excluded:  # "you may ...; when you do, ..." (603.12)
                victim = self.some_creature()
                ability["effect"] = ability["effect"] + [self.destroy(victim) | {"to": "graveyard"}, {
                    "do": "reflexive", "ability": {"id": self.ability_id("R"), "trigger": {
                        "event": "leave", "subject": victim, "to": "graveyard"},
                        # (a profile leaving out empty effects gets an effect every time)
                        "effect": [self.destroy()] if self.source.chance(50) or "empty_effects" in self.excluded
                        else []}}]
                if self.source.chance(20):  # 603.4 with 603.12
                    ability["effect"][-1]["ability"]["intervening_if"] = self.condition()

    def filter_objects(self, trigger: dict[str, Any]) -> None:
        """Filters on the event's object: who controls it (relative to the ability's controller), a card type, not a
        token (603.2; 603.3a for "you")."""
        if self.source.chance(60):
            trigger["controller"] = self.source.pick(["you", "opponent"])
        if self.source.chance(45):
            trigger["type"] = self.source.pick(["creature", "creature", "artifact"])
        if self.source.chance(30):
            trigger["nontoken"] = True

    def filter_players(self, trigger: dict[str, Any]) -> None:
        """Filters of a damage, life or leaving event: the player it happens to, relative to the ability's controller;
        a damage source you (an opponent) control; life gained."""
        if trigger["event"] == "damage" and self.source.chance(50):
            trigger["controller"] = self.source.pick(["you", "opponent"])  # "a source you control deals damage"
        else:
            trigger["player"] = self.source.pick(["you", "opponent"])
        if trigger["event"] == "life" and self.source.chance(60):
            trigger["change"] = "gain"

    def graveyard_ability(self, card: dict[str, Any]) -> None:
        """Give ``card``, a permanent a set piece hands to another player and that may then die, an ability working
        from its owner's graveyard: once it is there it triggers under its owner's control, since control does not
        outlive the battlefield (400.7, 108.4a, 603.3a). A state trigger exiling the card (603.8, so it cannot loop).
        It draws nothing and is numbered apart (G1, G2, ...), last in the trigger order, so that the rest of the
        scenario (choices included) is as without it."""
        if "state_triggers" in self.no or any(a.get("active_in") == ["graveyard"]
                                               for a in card.get("abilities") or ()):
            return
        self.graveyard_ids.append(f"G{len(self.graveyard_ids) + 1}")
        card.setdefault("abilities", []).append({
            "id": self.graveyard_ids[-1], "active_in": ["graveyard"],
            "trigger": {"event": "state", "state": {"test": "in_zone", "object": "self", "zone": "graveyard"}},
            "effect": [{"do": "move", "object": card["id"], "from": "graveyard", "to": "exile"}]})

    def graveyard_card(self, owner: str) -> dict[str, Any]:
        """A card in its owner's graveyard with an ability that triggers on cards leaving a graveyard, which looks
        back in time (603.10a): leaving together with other cards, it sees them all leave."""
        ability: dict[str, Any] = {"id": self.ability_id(), "trigger": {
            "event": "zone_change" if "zone_changes" not in self.no and self.source.chance(40) else "move",
            "from": "graveyard", "subject": self.source.pick(["any", "other", "self"])},
            "active_in": ["graveyard"],
            "effect": [self.source.pick([{"do": "signal", "name": TOP},
                                         {"do": "life", "player": owner, "amount": 1}])]}
        if self.source.chance(35):
            ability["intervening_if"] = ({"test": "in_zone", "object": "self", "zone": "graveyard"}
                                         if "zone_conditions" not in self.no else self.condition())
        return {"id": f"C{len(self.objects) + 1}", "owner": owner, "zone": "graveyard", "abilities": [ability]}

    def watcher(self, watched: str) -> dict[str, Any]:
        """An ability triggering on another object's ability triggering (603.3b's second pass) or, rarely, being put
        on the stack."""
        event = "ability_stacked" if self.source.chance(15) else "ability_triggered"
        effect = [self.destroy()] if self.source.chance(30) else []
        return {"id": self.ability_id(), "trigger": {"event": event, "subject": watched}, "effect": effect}
