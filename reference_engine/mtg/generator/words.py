"""Set pieces for the vocabulary of issue 22, item 1, each on fresh objects that nothing else in the scenario names, its
scripted actions put first in the script's last step (after every other set piece is drawn, so the stream of the
others is as without them): ownership filters ("a creature you own dies", "a card is put into your graveyard"),
amounts taken from the trigger event ("you gain that much life", "deals that much damage"), an ability that "triggers
only once each turn"; and those of issue 31, drawn after them: a spell creating delayed triggered abilities, an
ability triggering on the permanent dealt damage, one damage event with several occurrences, creating tokens, an activated ability whose cost (a sacrifice, a
discard, life) triggers abilities, combat damage as distinct from noncombat damage, "that player"."""

from __future__ import annotations

from typing import Any

ONCE = "once"  # the named signal of the "triggers only once each turn" set piece, which nothing else sends
# the named signal the damage set pieces' abilities send, which nothing listens to: an answer that changes no life
# total and deals no damage, so that no ability watching damage feeds itself through another's "that much"
HURT = "hurt"
DRAW = "draw"  # the named signal standing for drawing a card in the "that player" set piece, given by the drawer


class VocabularyPieces:
    """The issue 22 set pieces of a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin)."""

    def fresh(self, owner: str) -> dict[str, Any]:
        """A new permanent of ``owner`` on the battlefield, with no ability yet."""
        obj: dict[str, Any] = {"id": f"C{len(self.objects) + 1}", "owner": owner, "zone": "field"}
        self.objects.append(obj)
        return obj

    def vocabulary_pieces(self, last: list[dict[str, Any]], active: str, players: list[str],
                          doomed: list[str]) -> None:
        """Draw the set pieces, in order, and put their scripted actions first in ``last``."""
        stayers = [p for p in players if p not in doomed]
        actions = self.ownership(stayers)
        actions += self.event_amounts(stayers)
        effects = [[action] for action in actions] + self.triggers_once(stayers)
        placed = [{"by": active, "effect": effect} for effect in effects]
        placed += self.spell_delayed(stayers)  # issue 31: drawn after every issue 22 piece
        placed += self.dealt_damage(stayers)
        placed += self.damage_occurrences(stayers)
        placed += self.tokens(stayers)
        placed += self.activated(stayers)
        placed += self.combat_damage(stayers)
        placed += self.that_player(stayers)
        last[0:0] = placed

    def ownership(self, stayers: list[str]) -> list[dict[str, Any]]:
        """"Whenever a creature you (an opponent) own(s) dies" or "whenever a card is put into your (an opponent's)
        graveyard from anywhere" (108.3, 400.3), then a permanent, often first given to another player, dies: the
        ability reads who owns it, not who controlled it (a dies trigger looks back, 603.10a, to a controller that is
        not its owner). The actions: the control change, if any, and the death."""
        src = self.source
        if "ownership" in self.no or not src.chance(60):
            return []
        holder = self.fresh(src.pick(stayers))
        you = holder["owner"]
        victim = self.fresh(you if src.chance(60) else src.pick([p for p in stayers if p != you]))
        anywhere = src.chance(35) and "zone_changes" not in self.no  # "put into your graveyard from anywhere"
        trigger = {"event": "zone_change" if anywhere else "leave", "to": "graveyard",
                   "owner": src.pick(["you", "opponent"])}
        holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger,
                                "effect": [{"do": "life", "player": you, "amount": 1}]}]
        actions: list[dict[str, Any]] = []
        if "gain_control" not in self.no and src.chance(75):
            others = [p for p in stayers if p != victim["owner"]]
            taker = you if you in others and src.chance(60) else src.pick(others)
            actions.append({"do": "gain_control", "object": victim["id"], "player": taker})
        return actions + [{"do": "move", "object": victim["id"], "from": "field", "to": "graveyard"}]

    def event_amounts(self, stayers: list[str]) -> list[dict[str, Any]]:
        """"Whenever this deals damage, you gain (lose) that much life", or "whenever a player gains or loses life,
        this deals that much damage to that opponent" (``that_many``), then the scripted damage or life change of 2 or
        3, the instruction's printed amount being 1. A damage answers a life change and a life change damage, so
        nothing feeds itself. The action: the damage or the life change."""
        src = self.source
        if {"event_amounts", "event_triggers"} & self.no or not src.chance(60):
            return []
        holder = self.fresh(src.pick(stayers))
        you = holder["owner"]
        hurt, much = src.pick(stayers), src.integer(2, 3)
        on_life = (src.chance(50) or "script_damage" in self.no) and "life_triggers" not in self.no
        if on_life:
            holder["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "life"}, "effect": [
                {"do": "damage", "player": src.pick([p for p in stayers if p != you]), "amount": 1,
                 "that_many": True}]}]
            return [{"do": "life", "player": hurt, "amount": src.pick([much, -much])}]
        if "script_damage" in self.no:
            return []
        holder["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "damage", "subject": "self"},
                                "effect": [{"do": "life", "player": you, "amount": src.pick([1, -1]),
                                            "that_many": True}]}]
        return [{"do": "damage", "source": holder["id"], "player": hurt, "amount": much}]

    def triggers_once(self, stayers: list[str]) -> list[list[dict[str, Any]]]:
        """"Whenever ``once`` happens, you gain 1 life. This ability triggers only once each turn."
        (``triggers_once_each_turn``), then the signal twice in one scripted effect (the second comes before the first
        instance could resolve: it triggers once), or once, then its source leaves the battlefield and comes back (a
        new object, 400.7) and the signal again (it triggers again), or both. The effects, each a list of actions."""
        src = self.source
        if {"triggers_once", "signals"} & self.no or not src.chance(60):
            return []
        holder = self.fresh(src.pick(stayers))
        signal = {"do": "signal", "name": ONCE}
        holder["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "signal", "name": ONCE},
                                "triggers_once_each_turn": True,
                                "effect": [{"do": "life", "player": holder["owner"], "amount": 1}]}]
        shape = src.pick(["together", "new_object", "both"])
        effects = [[signal, dict(signal)] if shape != "new_object" else [signal]]
        if shape != "together":
            away = "exile" if "exile" not in self.no and src.chance(50) else "graveyard"
            effects += [[{"do": "move", "object": holder["id"], "from": "field", "to": away}],
                        [{"do": "move", "object": holder["id"], "from": away, "to": "field"}], [dict(signal)]]
        return effects

    def spell_delayed(self, stayers: list[str]) -> list[dict[str, Any]]:
        """A spell creating delayed triggered abilities (603.7a, 603.7d): a card in the hand of one player (often not
        the active one), "Whenever a creature dies this turn, you gain 1 life" and/or "When <a fresh creature> dies,
        you gain 2 life"; a fresh creature dies before the cast (nothing waits for it yet), the spell is cast by its
        owner, then the watched creature (and maybe another) dies. The scripted actions, each with its player."""
        src = self.source
        if {"spell_delayed", "spells", "delayed"} & self.no or not src.chance(60):
            return []
        caster = src.pick(stayers)
        early, watched = self.fresh(src.pick(stayers)), self.fresh(src.pick(stayers))
        gain = [{"do": "life", "player": caster, "amount": 1}]
        kinds = src.pick([("turn",), ("named",), ("turn", "named")])
        made: list[dict[str, Any]] = []
        if "turn" in kinds:
            made.append({"do": "create_delayed", "duration": "turn", "ability": {
                "id": self.ability_id(), "trigger": {"event": "leave", "subject": "any", "to": "graveyard"},
                "effect": gain}})
        if "named" in kinds:
            made.append({"do": "create_delayed", "ability": {
                "id": self.ability_id(), "trigger": {"event": "leave", "subject": watched["id"], "to": "graveyard"},
                "effect": [dict(gain[0], amount=2)]}})
        card = {"id": f"C{len(self.objects) + 1}", "owner": caster, "zone": "hand", "spell": {"effect": made}}
        self.objects.append(card)
        together = src.chance(40) and "move_together" not in self.no
        dying = [watched["id"]] + ([self.fresh(src.pick(stayers))["id"]] if together else [])
        killer = src.pick(stayers)
        death = {"do": "move_together", "objects": dying, "from": "field", "to": "graveyard"} if len(dying) > 1 else \
            {"do": "move", "object": watched["id"], "from": "field", "to": "graveyard"}
        return [{"by": killer, "effect": [{"do": "move", "object": early["id"], "from": "field", "to": "graveyard"}]},
                {"by": caster, "effect": [{"do": "cast", "object": card["id"]}]}, {"by": killer, "effect": [death]}]

    def dealt_damage(self, stayers: list[str]) -> list[dict[str, Any]]:
        """"Whenever this is dealt damage, <signal hurt>" (``dealt_damage``, subject self), or, with filters,
        "whenever a creature you (an opponent) control(s) is dealt damage": two fresh permanents of two players deal 1
        damage to each other in turn (toughness 4: none dies), so that the permanent dealt damage and the source differ each
        time (120.3). The scripted actions, each with its player."""
        src = self.source
        if {"dealt_damage", "event_triggers", "script_damage", "signals"} & self.no or not src.chance(60):
            return []
        first = self.fresh(src.pick(stayers))
        second = self.fresh(src.pick([p for p in stayers if p != first["owner"]]))  # so a filter tells them apart
        for thing in (first, second):
            thing["toughness"] = 4
        you = first["owner"]
        filtered = "filters" not in self.no and src.chance(50)
        gain = [{"do": "signal", "name": HURT}]
        if filtered:
            holder = self.fresh(you)
            holder["types"] = ["enchantment"]
            first["types"] = second["types"] = ["creature"]
            trigger = {"event": "dealt_damage", "controller": src.pick(["you", "opponent"]), "type": "creature"}
        else:
            holder, trigger = first, {"event": "dealt_damage", "subject": "self"}
        holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger, "effect": gain}]
        hits = [(first, second), (second, first)]
        if src.chance(30):
            hits = hits[src.integer(0, 1):][:1]
        return [{"by": src.pick(stayers), "effect": [{"do": "damage", "source": a["id"], "object": b["id"],
                                                      "amount": 1}]} for a, b in hits]

    def damage_occurrences(self, stayers: list[str]) -> list[dict[str, Any]]:
        """One damage event with several occurrences (``damage_together``, 603.2c): one fresh source dealing 1 damage
        to each of two or three fresh permanents (and maybe a player), or two or three fresh sources each dealing 1
        damage to one permanent or player, as combat damage; watched by "whenever a permanent is dealt damage" or
        "whenever a permanent deals damage", maybe "one or more" (toughness 4: none dies). The scripted action."""
        src = self.source
        if {"damage_occurrences", "event_triggers", "script_damage", "signals"} & self.no or not src.chance(60):
            return []
        holder = self.fresh(src.pick(stayers))
        count = src.integer(2, 3)
        many = [self.fresh(src.pick(stayers)) for _ in range(count)]
        for thing in many:
            thing["toughness"] = 4
        # one source, several recipients (watched by "is dealt damage"); else several sources
        spread = src.chance(50) and "dealt_damage" not in self.no
        if spread:
            source = self.fresh(src.pick(stayers))
            hits = [{"source": source["id"], "object": t["id"], "amount": 1} for t in many]
            if src.chance(30):
                hits.append({"source": source["id"], "player": src.pick(stayers), "amount": 1})
        else:
            aim = {"player": src.pick(stayers)} if src.chance(50) else {"object": holder["id"]}
            holder["toughness"] = 9
            hits = [{"source": t["id"], **aim, "amount": 1} for t in many]
        trigger: dict[str, Any] = {"event": "dealt_damage" if spread else "damage", "subject": "other"}
        if src.chance(35) and "batching" not in self.no:  # "one or more"
            trigger["batch"] = True
        holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger,
                                "effect": [{"do": "signal", "name": HURT}]}]
        return [{"by": src.pick(stayers), "effect": [{"do": "damage_together", "hits": hits}]}]

    def tokens(self, stayers: list[str]) -> list[dict[str, Any]]:
        """Creating a token (``create_token``, 603.6a): a fresh token starting ``uncreated`` (a creature, sometimes an
        artifact; sometimes with its own "when this enters" ability), sometimes with a twin created at once (one event,
        two occurrences), is created by its owner, watched by "whenever a creature enters" or "whenever another
        permanent you control enters"; sometimes created twice (the second time does nothing), sometimes dying afterwards; sometimes a second token, never created, has an ability that
        must never trigger. The scripted actions, each with its player."""
        src = self.source
        if {"tokens", "event_triggers"} & self.no or not src.chance(60):
            return []
        holder = self.fresh(src.pick(stayers))
        you = holder["owner"]
        token = self.fresh(src.pick(stayers))
        token.update(zone="uncreated", token=True)  # a token is created (types are filters' words)
        filters = "filters" not in self.no
        if filters:
            token["types"] = ["artifact" if src.chance(25) else "creature"]
        if filters and src.chance(50):
            trigger = {"event": "enter", "subject": "other", "controller": src.pick(["you", "opponent"])}
        else:
            trigger = {"event": "enter", "type": "creature"} if filters else {"event": "enter"}
        holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger,
                                "effect": [{"do": "life", "player": you, "amount": 1}]}]
        if src.chance(40):  # "when this token enters"
            token["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "enter", "subject": "self"},
                                   "effect": [{"do": "life", "player": token["owner"], "amount": 1}]}]
        if src.chance(30):  # a token never created: nothing it has triggers
            never = self.fresh(src.pick(stayers))
            never.update(zone="uncreated", token=True, **({"types": ["creature"]} if filters else {}))
            never["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "enter"},
                                   "effect": [{"do": "life", "player": never["owner"], "amount": 1}]}]
        made = [token["id"]]
        if src.chance(30):  # two tokens at once: one event, two occurrences (603.2c)
            twin = self.fresh(token["owner"])
            twin.update(zone="uncreated", token=True, **({"types": token["types"]} if filters else {}))
            made.append(twin["id"])
        make = {"by": token["owner"], "effect": [{"do": "create_token", "objects": made}]}
        actions = [make] + ([make] if src.chance(25) else [])
        if src.chance(35):  # the token dies
            actions.append({"by": src.pick(stayers),
                            "effect": [{"do": "move", "object": token["id"], "from": "field", "to": "graveyard"}]})
        return actions

    def activated(self, stayers: list[str]) -> list[dict[str, Any]]:
        """An activated ability with a cost (602.2, 601.2h): a fresh permanent of a player has "{cost}: you gain 1
        life", the cost made of some of: sacrificing a fresh creature of theirs (its own "when this dies", or a
        watcher's "whenever a creature you control dies"), sometimes the permanent itself; discarding a fresh card
        of their hand, watched by "whenever a card is put into a graveyard from a hand"; paying 1 or 2 life. What the
        payment triggers goes on the stack above the ability. Its player activates it once, sometimes twice (the
        second time its cost may no longer be payable). The scripted actions."""
        src = self.source
        if {"activated", "event_triggers"} & self.no or not src.chance(60):
            return []
        altar = self.fresh(src.pick(stayers))
        you = altar["owner"]
        gain = [{"do": "life", "player": you, "amount": 1}]
        cost: list[dict[str, Any]] = []
        filters = "filters" not in self.no
        if src.chance(70):  # sacrifice a creature
            victim = self.fresh(you)
            dies = {"event": "leave", "subject": "self", "to": "graveyard"}
            if filters and src.chance(50):
                victim["types"] = ["creature"]
                watcher = self.fresh(src.pick(stayers))
                dies = {"event": "leave", "to": "graveyard", "type": "creature",
                        "controller": "you" if watcher["owner"] == you else "opponent"}
                watcher["abilities"] = [{"id": self.ability_id(), "trigger": dies,
                                         "effect": [{"do": "life", "player": watcher["owner"], "amount": 1}]}]
            else:
                victim["abilities"] = [{"id": self.ability_id(), "trigger": dies, "effect": gain}]
            cost.append({"pay": "sacrifice", "object": victim["id"]})
        if src.chance(50) or not cost:  # discard a card
            card = self.fresh(you)
            card["zone"] = "hand"
            watcher = self.fresh(src.pick(stayers))
            watcher["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "move", "from": "hand",
                                                                          "to": "graveyard"},
                                     "effect": [{"do": "life", "player": watcher["owner"], "amount": 1}]}]
            cost.append({"pay": "discard", "object": card["id"]})
        if src.chance(35):  # pay life
            cost.append({"pay": "life", "amount": src.count(1, 2)})
        if src.chance(20):  # "sacrifice this": the ability resolves without its source (113.7a)
            cost.append({"pay": "sacrifice"})
        cost = src.permutation(cost)  # 601.2h: the player pays in the order they choose
        ability = self.ability_id()
        altar["activated"] = [{"id": ability, "cost": cost, "effect": gain}]
        act = {"by": you, "effect": [{"do": "activate", "object": altar["id"], "ability": ability}]}
        return [act] + ([act] if src.chance(20) else [])

    def combat_damage(self, stayers: list[str]) -> list[dict[str, Any]]:
        """Combat damage as distinct from noncombat damage (120.2a-b, 510.2): a fresh creature of a player, "whenever
        this deals combat damage to a player" (``combat`` true; sometimes "noncombat damage", ``combat`` false), or,
        with filters, a fresh permanent's "whenever a creature you control deals combat damage to a player" (maybe
        "one or more"); the creature deals 1 damage to another player by a scripted action (noncombat) and, before or
        after, combat damage to them (the combat damage step's, a scripted action marked ``combat``), sometimes
        with a second creature of theirs in the same event. Answered by a named signal. The scripted actions."""
        src = self.source
        if {"combat_damage", "event_triggers", "script_damage", "signals"} & self.no or len(stayers) < 2 \
                or not src.chance(60):
            return []
        attacker = self.fresh(src.pick(stayers))
        you = attacker["owner"]
        defender = src.pick([p for p in stayers if p != you])
        trigger: dict[str, Any] = {"event": "damage", "subject": "self", "combat": not src.chance(25)}
        holder = attacker
        if "filters" not in self.no:
            attacker["types"] = ["creature"]
            trigger["player"] = "opponent"  # "to a player": the attacked one, never its controller
            if src.chance(50):
                holder = self.fresh(you)
                holder["types"] = ["enchantment"]
                trigger.update(subject="any", controller="you", type="creature")
                if src.chance(35) and "batching" not in self.no:  # "one or more creatures you control"
                    trigger["batch"] = True
        holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger,
                                "effect": [{"do": "signal", "name": HURT}]}]
        ping = {"do": "damage", "source": attacker["id"], "player": defender, "amount": 1}
        combat: dict[str, Any] = dict(ping, amount=src.integer(1, 3), combat=True)
        if src.chance(35) and "damage_occurrences" not in self.no:  # two attackers' combat damage, one event
            second = self.fresh(you)
            second.update({"types": ["creature"]} if "filters" not in self.no else {})
            combat = {"do": "damage_together", "combat": True, "hits": [
                {"source": attacker["id"], "player": defender, "amount": combat["amount"]},
                {"source": second["id"], "player": defender, "amount": 1}]}
        actions = [{"by": you, "effect": [ping]}, {"by": you, "effect": [combat]}]
        return actions if src.chance(50) else actions[::-1]

    def that_player(self, stayers: list[str]) -> list[dict[str, Any]]:
        """"That player" (``that_player``, 603.2, 608.2): a fresh permanent of a player has "whenever a player draws
        a card (the signal ``draw``, given by the player who draws; with filters maybe "an opponent"), this deals 1
        damage to them" or "they lose 1 life", or, with ownership filters, "whenever a permanent is put into an
        opponent's graveyard, that player loses 1 life" (400.3: the owner's graveyard), a fresh permanent of another
        player dying, often first given to the ability's controller. Two players draw, or the permanent dies. The
        scripted actions."""
        src = self.source
        if "that_player" in self.no or len(stayers) < 2 or not src.chance(60):
            return []
        holder = self.fresh(src.pick(stayers))
        you = holder["owner"]
        others = [p for p in stayers if p != you]
        graveyard = not {"ownership", "filters"} & self.no and src.chance(40)
        if graveyard or "signals" in self.no:
            if {"ownership", "filters"} & self.no:
                return []
            victim = self.fresh(src.pick(others))
            trigger = {"event": "leave", "to": "graveyard", "owner": "opponent"}
            effect = {"do": "life", "that_player": True, "amount": -1}
            actions = [{"by": you, "effect": [{"do": "gain_control", "object": victim["id"], "player": you}]}] \
                if "gain_control" not in self.no and src.chance(60) else []
            actions.append({"by": src.pick(stayers), "effect": [{"do": "move", "object": victim["id"],
                                                                  "from": "field", "to": "graveyard"}]})
        else:
            trigger = {"event": "signal", "name": DRAW}
            if "filters" not in self.no and src.chance(40):
                trigger["player"] = "opponent"
            effect = {"do": "damage", "that_player": True, "amount": 1} if src.chance(50) else \
                {"do": "life", "that_player": True, "amount": -1}
            drawers = src.permutation([src.pick(others), src.pick(stayers)])
            actions = [{"by": p, "effect": [{"do": "signal", "name": DRAW}]} for p in drawers]
        holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger, "effect": [effect]}]
        return actions
