"""Effects: what abilities do, by the level of the signal that triggered them (the module docstring of
:mod:`reference_engine.mtg.generator` says why this terminates), and the helpers every part of the builder draws
with (objects, players, destroys, damage, intervening conditions, delayed abilities)."""

from __future__ import annotations

from typing import Any

from reference_engine.mtg.generator.features import MAX_LEVEL, TOP


class Effects:
    """Effects and drawing helpers of a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin)."""

    def ability_id(self, prefix: str = "A") -> str:
        self.next_ability += 1
        return f"{prefix}{self.next_ability}"

    def creatures(self) -> list[str]:
        return [o["id"] for o in self.objects if o["zone"] == "field" or o.get("castable")]

    def some_creature(self) -> str:
        return self.source.pick(self.creatures())

    def destroy(self, obj: str | None = None) -> dict[str, Any]:
        if "other_objects" in self.no and self.current is not None:
            obj = self.current["id"]
        obj = obj or self.some_creature()
        to = self.source.pick(["graveyard", "graveyard", "exile"])
        return {"do": "move", "object": obj, "from": "field", "to": "graveyard" if "exile" in self.no else to}

    def some_player(self) -> str:
        if ("other_players" in self.no or "other_players_multiplayer" in self.no and self.player_count > 2) \
                and self.current is not None:
            return self.current["owner"]
        return self.source.pick(self.vulnerable)

    def damage(self) -> dict[str, Any]:
        action: dict[str, Any] = {"do": "damage", "amount": self.source.integer(1, 3)}
        if self.source.chance(50):
            action["object"] = (self.current["id"] if "other_objects" in self.no and self.current is not None
                                else self.some_creature())
        else:
            action["player"] = self.some_player()
        if self.source.chance(45) and "prevented" not in self.no:
            action["prevented"] = True
        return action

    def condition(self, self_zone: str | None = "field", self_weight: int = 1) -> dict[str, Any]:
        """An intervening 'if' (603.4): about zones (unless the profile excludes them) or a life total; ``self``
        conditions (the source in ``self_zone``) ``self_weight`` times as likely as each other kind."""
        life = {"test": "life_at_least", "player": "controller", "value": self.source.integer(15, 20)}
        if "zone_conditions" in self.no:
            return life
        own = [{"test": "in_zone", "object": "self", "zone": self_zone}] * self_weight if self_zone else []
        mine = [c for c in self.creatures() if self.current is not None
                and next(o["owner"] for o in self.objects if o["id"] == c) == self.current["owner"]]
        gone = self.source.pick(mine) if "foreign_graveyard_conditions" in self.no and mine else self.some_creature()
        return self.source.pick(own + [
            {"test": "in_zone", "object": self.some_creature(), "zone": "field"},
            {"test": "not_in_zone", "object": gone, "zone": "graveyard"},
            life,
        ])

    def allowed(self, kind: int, allowed: dict[int, str | None]) -> int | None:
        """Under a profile, ``kind`` if its feature is allowed, else another allowed kind (None: none is)."""
        if not self.no or allowed.get(kind) not in self.no:
            return kind
        ok = [k for k, feature in allowed.items() if feature not in self.no]
        return self.source.pick(ok) if ok else None

    def effect(self, level: int, allow_created: bool = True) -> list[dict[str, Any]]:
        """An effect of an ability triggered by signal s<level> (level 0: by a zone change, or a script)."""
        if level >= MAX_LEVEL:
            return [self.destroy()] if self.source.chance(40) else []
        actions: list[dict[str, Any]] = []
        for _ in range(self.source.count(1 if "empty_effects" in self.no else 0, 3)):
            kind = self.allowed(self.source.integer(0, 10), {
                0: "signals", 1: "signals", 2: None, 3: None, 4: None, 5: "move_together",
                6: "delayed" if allow_created else "-", 7: "reflexive" if allow_created else "-", 8: "signals",
                9: "delayed" if allow_created else "-", 10: "other_objects"})
            if kind is None:
                break
            if kind in (0, 1, 8) and any(a["do"] == "signal" for a in actions):
                kind = 2  # one signal per effect: chains grow deep, not exponentially wide
            if kind in (6, 9) and "scripted_delayed_triggers" in self.excluded and "exile" in self.no:
                kind = 2  # narrower shape: the script's removals could not exile, so no delayed ability
            if kind <= 1:
                actions.append(self.next_signal(level))
            elif kind == 10:  # "put a creature card from your hand onto the battlefield": it enters mid-resolution
                actions.append(self.put_onto_field())
            elif kind == 2:
                actions.append(self.destroy())
            elif kind == 3:
                actions.append(self.damage())
            elif kind == 4:
                if self.doomed and self.source.chance(25) and "concede_effects" not in self.no:
                    # "target player loses the game", mid-resolution (800.4a)
                    actions.append({"do": "concede", "player": self.source.pick(self.doomed)})
                    continue
                actions.append({"do": "life", "player": self.some_player(),
                                "amount": self.source.pick([-1, -2, -3, 2])})
            elif kind == 5:
                field = self.creatures()
                together = [o for o in field if self.source.chance(60)] or field[:2]
                actions.append({"do": "move_together", "objects": together, "from": "field", "to": "graveyard"})
            elif kind in (6, 9) and allow_created:
                actions.append(self.delayed(level))
                if "delayed_anywhere" in self.excluded:  # narrower shape: the delayed ability closes the effect
                    break
            elif kind == 7 and allow_created:
                victim = self.some_creature()
                actions.append(self.destroy(victim) | {"to": "graveyard"})
                rid = self.ability_id("R")
                follow = ({"do": "signal", "name": f"s{self.source.integer(level + 1, MAX_LEVEL)}"}
                          if self.source.chance(50) and "signals" not in self.no else self.damage())
                reflexive: dict[str, Any] = {
                    "id": rid, "trigger": {"event": "leave", "subject": victim if self.source.chance(70) else "any",
                                           "to": "graveyard"}, "effect": [follow]}
                if self.source.chance(40):  # 603.4 with 603.12: checked as it is created, and on resolution
                    reflexive["intervening_if"] = self.condition()
                if "reflexive_anywhere" in self.excluded:  # narrower shape: "destroy X. When you do, ..."
                    named = {a.get("object") for a in actions[:-1]} | {
                        o for a in actions[:-1] for o in a.get("objects", ())}
                    if actions[-1]["object"] in named:  # an object no earlier instruction names
                        free = [c for c in self.creatures() if c not in named]
                        if not free or "other_objects" in self.no:
                            actions.pop()
                            break
                        actions[-1]["object"] = self.source.pick(free)
                    reflexive["trigger"]["subject"] = actions[-1]["object"]
                    reflexive.pop("intervening_if", None)
                    actions.append({"do": "reflexive", "ability": reflexive})
                    break
                actions.append({"do": "reflexive", "ability": reflexive})
            else:
                actions.append({"do": "signal", "name": TOP})
        return actions

    def next_signal(self, level: int) -> dict[str, Any]:
        """A signal above ``level``, most often the next one up (so that chains of resolutions grow deep)."""
        if level < MAX_LEVEL - 1 and self.source.chance(60):
            return {"do": "signal", "name": f"s{level + 1}"}
        up = self.source.integer(level + 1, MAX_LEVEL)
        return {"do": "signal", "name": f"s{up}"}

    def at_target_player(self) -> dict[str, Any]:
        """'deals N damage to target player' or 'target player loses (gains) N life'."""
        if self.source.chance(50):
            return {"do": "damage", "amount": self.source.integer(1, 3), "target": True}
        return {"do": "life", "amount": self.source.pick([-1, -2, -3, 2]), "target": True}

    def put_onto_field(self) -> dict[str, Any]:
        """A card put from a hand onto the battlefield (objects only move forward: at most once), else a destroy."""
        hand = [o["id"] for o in self.objects if o["zone"] == "hand"]
        if not hand:
            return self.destroy()
        return {"do": "move", "object": self.source.pick(hand), "from": "hand", "to": "field"}

    def delayed(self, level: int) -> dict[str, Any]:
        did = self.ability_id("D")
        self.delayed_ids.append(did)
        duration = self.source.pick([None, None, None, "step", "turn"] +
                                    ([] if "turns" in self.no else ["next_turn", "until_your_next_turn"]))
        if self.source.chance(50) or "signals" in self.no:
            subject = self.source.pick(["self", self.some_creature(), "any", "any", "any"])
            trigger = {"event": "leave", "subject": subject}
            effect = [{"do": "signal", "name": TOP}] if self.source.chance(60) else []
        else:
            j = self.source.integer(level + 1, MAX_LEVEL)
            trigger = {"event": "signal", "name": f"s{j}"}
            # one lasting a step or a turn triggers on every signal: it signals nothing, or scenarios balloon
            effect = ([self.destroy()] if self.source.chance(40) else []) if duration else self.effect(
                j, allow_created=False)
        ability: dict[str, Any] = {"id": did, "trigger": trigger, "effect": effect}
        if self.source.chance(65):  # 603.4 applies to delayed triggered abilities too
            ability["intervening_if"] = self.condition()
        if "delayed_anywhere" in self.excluded:  # narrower shape: "whenever a creature dies this turn, ..."
            duration = "turn"
            ability.pop("intervening_if", None)
            if trigger.get("event") != "leave" or trigger["subject"] == "self":
                ability["trigger"] = trigger = {"event": "leave", "subject": "any"}
            if self.source.chance(50) or "scripted_delayed_triggers" in self.excluded:
                trigger["to"] = "graveyard"
            owner = self.current["owner"] if self.current is not None else self.all_players[0]
            ability["effect"] = [self.source.pick([self.destroy(), {"do": "life", "player": owner,
                                                                     "amount": self.source.pick([1, 2, -1])}])]
        action: dict[str, Any] = {"do": "create_delayed", "ability": ability}
        self.made_delayed = True
        if duration:
            action["duration"] = duration
        return action
