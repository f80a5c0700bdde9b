"""Random Momon Wonder scenarios: nested Effect-Based Summons, Summons of several monsters at once, failed Summons,
several players, several triggers on one event, triggers arising inside packages and during Snatch Checks,
State-Based Conditions that defeat objects, optional triggers, intervening conditions and the Missed Trigger Remedy.

Shaped for shrinking: every list is drawn as "another one?" followed by the whole element, so Hypothesis can delete
an object, an ability or an action by deleting one contiguous run of answers. References to objects are drawn as
indexes and resolved modulo the final object list, so deleting an object never leaves a dangling reference.

Every scenario terminates: an object is summoned at most once (nothing returns to hand or deck), leaves play at most
once (nothing but a Summon puts it back), a signal ``sK`` only triggers abilities that emit signals of a higher
level, and an ability triggered by a failed Summon neither summons nor signals.
"""

from __future__ import annotations

from typing import Any

from conformance.generation.source import ChoiceSource

MAX_LEVEL = 3
MAX_OBJECTS = 10
MAX_ABILITIES = 2
MAX_ACTIONS = 3
REFERENCE_RANGE = 15  # object references are drawn in [0, REFERENCE_RANGE) and taken modulo the object count


class _Builder:
    def __init__(self, source: ChoiceSource, edition: str):
        self.source = source
        self.edition = edition
        self.next_ability = 0

    def more(self, have: int, most: int, percent: int) -> bool:
        """Whether a list that has ``have`` elements gets another (never beyond ``most``)."""
        return have < most and self.source.chance(percent)

    # -- Actions (object references stay symbolic until the object list is final) -----------------------------------

    def signal(self, above: int) -> dict[str, Any]:
        return {"do": "signal", "name": f"s{self.source.integer(above + 1, MAX_LEVEL)}"}

    def reference(self) -> int:
        return self.source.integer(0, REFERENCE_RANGE - 1)

    def summon(self, with_snatch: bool = True) -> dict[str, Any]:
        action: dict[str, Any] = {"do": "summon", "object": ("hand", self.reference()),
                                  "succeeds": not self.source.chance(20)}
        if self.source.chance(35):
            # One Summon of several monsters: one event with an occurrence per monster, and one package.
            action["also"] = [("hand", self.reference()) for _ in range(self.source.count(1, 2))]
        if with_snatch and self.source.chance(45):
            snatch: list[dict[str, Any]] = []
            while not snatch or self.more(len(snatch), 2, 35):
                kind = self.source.integer(0, 2)
                if kind == 0:
                    snatch.append(self.signal(-1))
                elif kind == 1:
                    snatch.append({"do": "mark_defeat", "object": ("any", self.reference())})
                else:
                    snatch.append(self.summon(with_snatch=False))
            action["snatch_check"] = snatch
        return action

    def action(self, level: int, quiet: bool) -> dict[str, Any]:
        """One action of an effect triggered at signal ``level``; ``quiet`` effects neither summon nor signal."""
        kind = self.source.integer(0, 4)
        if kind == 1 and not quiet:
            return self.summon()
        if kind == 2:
            return {"do": "mark_defeat", "object": ("any", self.reference())}
        if kind == 3:
            return {"do": "move", "object": ("any", self.reference()), "to": self.source.pick(["exile", "graveyard"])}
        if quiet or level >= MAX_LEVEL:
            return {"do": "mark_defeat", "object": ("any", self.reference())}
        return self.signal(level)

    # -- Abilities ------------------------------------------------------------------------------------------------

    def trigger_condition(self, in_hand: bool) -> tuple[dict[str, Any], int]:
        """A trigger condition and the signal level it reacts to (0 for other events)."""
        kind = self.source.integer(0, 7)
        if kind == 0:
            # A monster in hand may react to another monster summoned with it ("other").
            subject = self.source.pick(["self", "other"]) if in_hand else "other"
            return {"event": "summon", "subject": subject}, 0
        if kind == 1:
            return {"event": "summon", "subject": self.source.pick(["any", "other"])}, 0
        if kind in (2, 3):
            level = self.source.integer(0, MAX_LEVEL)
            return {"event": "signal", "name": f"s{level}"}, level
        if kind == 4:
            return {"event": "defeated", "subject": self.source.pick(["any", "self"])}, 0
        if kind == 5:
            return {"event": "summon_failed"}, 0
        if kind == 6:
            return {"event": "leave", "subject": "any"}, 0
        return {"event": "defeated", "subject": "self"}, 0  # "when this is defeated": it looks back

    def ability(self, in_hand: bool) -> dict[str, Any]:
        if in_hand and self.source.chance(50):
            # An On Summon ability that summons in turn: chains of these nest packages several levels deep.
            trigger, level = {"event": "summon", "subject": "self"}, 0
            effect: list[dict[str, Any]] = [self.summon()] if self.source.chance(60) else []
        else:
            trigger, level = self.trigger_condition(in_hand)
            # A signal-triggered ability that summons: a package created while an ordinary ability resolves.
            effect = [self.summon()] if trigger["event"] == "signal" and self.source.chance(35) else []
        quiet = trigger["event"] == "summon_failed"
        while self.more(len(effect), MAX_ACTIONS, 60):
            effect.append(self.action(level, quiet))
        self.next_ability += 1
        ability: dict[str, Any] = {"id": f"A{self.next_ability}", "trigger": trigger, "effect": effect}
        if self.source.chance(18):
            ability["optional"] = True
        if self.source.chance(30):
            # "if this is still in play", or "if that other object is still in play": effects that defeat or move
            # objects make either fail by the time the trigger would resolve.
            watched = "self" if self.source.chance(50) else ("field", self.reference())
            ability["intervening_if"] = {"test": "in_zone", "object": watched, "zone": "field"}
        return ability

    # -- The scenario ---------------------------------------------------------------------------------------------

    def build(self) -> dict[str, Any]:
        source = self.source
        players = [f"P{n + 1}" for n in range(source.count(1, 4))]
        active = players[source.integer(0, len(players) - 1)]
        objects: list[dict[str, Any]] = []
        while not objects or self.more(len(objects), MAX_OBJECTS, 75):
            zone = source.pick(["hand", "field", "deck"])
            obj: dict[str, Any] = {"owner": players[source.integer(0, len(players) - 1)], "zone": zone}
            abilities: list[dict[str, Any]] = []
            while self.more(len(abilities), MAX_ABILITIES, 60 if abilities else 80):
                abilities.append(self.ability(in_hand=zone != "field"))
            if abilities:
                obj["abilities"] = abilities
            objects.append(obj)
        script: list[dict[str, Any]] = []
        while not script or self.more(len(script), 2, 30):
            actions: list[dict[str, Any]] = []
            while not actions or self.more(len(actions), 2, 30):
                effect = [self.summon()] if not source.chance(40) else [self.signal(-1), self.summon()]
                while self.more(len(effect), MAX_ACTIONS, 45):
                    kind = source.integer(0, 4)
                    if kind <= 1:
                        effect.append(self.summon())
                    elif kind == 2:
                        effect.append(self.signal(-1))
                    elif kind == 3:
                        effect.append({"do": "mark_defeat", "object": ("any", self.reference())})
                    else:
                        effect.append({"do": "remedy_missed_trigger", "source": ("ability", self.reference())})
                actions.append({"by": players[source.integer(0, len(players) - 1)], "effect": effect})
            script.append({"step": f"step-{len(script) + 1}", "actions": actions})

        names = self.name_objects(objects)
        for obj in objects:
            for ability in obj.get("abilities", ()):
                ability["effect"] = self.resolve(ability["effect"], objects, names)
                condition = ability.get("intervening_if")
                if condition and isinstance(condition["object"], tuple):
                    in_play = [n for n, o in zip(names, objects) if o["zone"] == "field"] or names
                    condition["object"] = in_play[condition["object"][1] % len(in_play)]
        for step in script:
            for action in step["actions"]:
                action["effect"] = self.resolve(action["effect"], objects, names)

        abilities = [ab["id"] for obj in objects for ab in obj.get("abilities", ())]
        choices: dict[str, Any] = {"trigger_order": source.permutation(abilities)}
        declined = {ab["id"]: False for obj in objects for ab in obj.get("abilities", ())
                    if ab.get("optional") and source.chance(40)}
        if declined:
            choices["optional"] = declined
        return {
            "format": "trigger-conformance/scenario/1",
            "ruleset": "momon-wonder",
            "edition": self.edition,
            "players": players,
            "active_player": active,
            "objects": objects,
            "script": script,
            "choices": choices,
        }

    @staticmethod
    def name_objects(objects: list[dict[str, Any]]) -> list[str]:
        counters = {"hand": 0, "deck": 0, "field": 0}
        names = []
        for obj in objects:
            counters[obj["zone"]] += 1
            prefix = {"hand": "H", "deck": "D", "field": "F"}[obj["zone"]]
            obj["id"] = f"{prefix}{counters[obj['zone']]}"
            names.append(obj["id"])
        for obj in objects:  # put id first, for readers
            obj_items = dict(obj)
            obj.clear()
            obj.update({"id": obj_items.pop("id"), **obj_items})
        return names

    def resolve(self, actions: list[dict[str, Any]], objects: list[dict[str, Any]], names: list[str]) -> list:
        """Turn symbolic references into object ids; drop a remedy when no object has an ability to restore."""
        summonable = [n for n, obj in zip(names, objects) if obj["zone"] != "field"] or names
        with_abilities = [obj for obj in objects if obj.get("abilities")]
        out = []
        for action in actions:
            action = dict(action)
            if action["do"] == "remedy_missed_trigger":
                if not with_abilities:
                    continue
                obj = with_abilities[action["source"][1] % len(with_abilities)]
                action = {"do": "remedy_missed_trigger", "source": obj["id"],
                          "ability": obj["abilities"][action["source"][1] % len(obj["abilities"])]["id"]}
            elif "object" in action:
                pool, index = action["object"]
                pool_names = summonable if pool == "hand" else names
                action["object"] = pool_names[index % len(pool_names)]
                if "also" in action:
                    also = [summonable[i % len(summonable)] for _, i in action["also"]]
                    also = [name for n, name in enumerate(also) if name != action["object"] and name not in also[:n]]
                    if also:
                        action["also"] = also
                    else:
                        del action["also"]
            if "snatch_check" in action:
                action["snatch_check"] = self.resolve(action["snatch_check"], objects, names)
            out.append(action)
        return out


def build_scenario(source: ChoiceSource, edition: str = "1.0.0") -> dict[str, Any]:
    """Build one Momon Wonder scenario (without ``options``) from ``source``'s answers."""
    return _Builder(source, edition).build()
