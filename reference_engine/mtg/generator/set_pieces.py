"""Set pieces: shapes the swarm makes likely that random abilities rarely reach, each drawn on its own and
returned for the script to place (:mod:`.script`): a backbone of resolutions for nesting, a delayed ability whose
source changes hands, abilities losing their target or their player before they resolve, events that matter only
relative to a controller, a player leaving while their ability waits, prevented damage, "the next time a creature
dies", cards in a graveyard, deaths from state-based actions, watchers; and the batching and spell set pieces."""

from __future__ import annotations

from typing import Any

from reference_engine.mtg.generator.features import MAX_LEVEL, TOP


def _move_triggers_declared() -> bool:
    """Whether the MTG vocabulary gives abilities triggering on ``move`` events (zone changes outside the
    battlefield, e.g. a card leaving a graveyard) a meaning: generate them only then."""
    from reference_engine.mtg.judge.vocabulary import VOCABULARY

    return "move" in VOCABULARY.trigger_events


class SetPieces:
    """The set pieces of a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin: the state is the
    builder's)."""

    def backbone(self, steady: list[dict[str, Any]]) -> str | None:
        """A backbone of resolutions (nesting): s1's ability signals s2, whose signals s3, ...; the first signal."""
        src = self.source
        chain = None
        if src.chance(90) and "signals" not in self.no:
            # a backbone of resolutions (nesting): s1's ability signals s2, whose ability signals s3, ... each maybe
            # doing more, held by permanents of players who stay in the game
            chain = "s1"
            for k in range(1, MAX_LEVEL):
                holder = src.pick(steady)
                self.current = holder if self.no else None
                effect = self.effect(k) if src.chance(50) else []
                effect.insert(src.integer(0, len(effect)), {"do": "signal", "name": f"s{k + 1}"})
                holder["abilities"].append({"id": self.ability_id(), "trigger": {"event": "signal", "name": f"s{k}"},
                                            "effect": effect})
                for action in effect:
                    if action["do"] == "create_delayed":
                        self.delayed_sites.append((holder["id"], f"s{k}", action["ability"]["trigger"]))
        self.current = None
        return chain

    def handoff(self, steady: list[dict[str, Any]], players: list[str]) -> list[dict[str, Any]] | None:
        """A delayed ability created, then its source changes hands, then it triggers (603.7e): the script's actions."""
        src = self.source
        handoff = None
        if src.chance(30) and not {"delayed", "gain_control", "signals"} & self.no:
            # a delayed ability created, then its source changes hands, then it triggers: it stays its creator's
            # controller's (603.7e)
            holder = src.pick(steady)
            did = self.ability_id("D")
            self.delayed_ids.append(did)
            own = src.chance(50)
            delayed = {"id": did, "trigger": {"event": "leave", "subject": "self"} if own else {
                "event": "signal", "name": TOP}, "effect": [{"do": "signal", "name": TOP}] if own and src.chance(50)
                else []}
            create: dict[str, Any] = {"do": "create_delayed", "ability": delayed}
            if src.chance(40):
                create["duration"] = "turn"
            signal = f"s{src.integer(1, MAX_LEVEL - 1)}"
            holder["abilities"].append({"id": self.ability_id(), "trigger": {"event": "signal", "name": signal},
                                        "effect": [create]})
            taker = src.pick([p for p in players if p != holder["owner"]])
            if src.chance(60):  # and one of its own abilities triggers under its new controller (603.3a)
                holder["abilities"].append({"id": self.ability_id(), "trigger": dict(delayed["trigger"]), "effect": []})
            self.graveyard_ability(holder)  # and if it dies, from the graveyard it is its owner's again (400.7)
            fire = ({"do": "move", "object": holder["id"], "from": "field", "to": "graveyard"} if own
                    else {"do": "signal", "name": TOP})
            handoff = [{"do": "signal", "name": signal},
                       {"do": "gain_control", "object": holder["id"], "player": taker}, fire]
        return handoff

    def target_destroyed(self, steady: list[dict[str, Any]]) -> tuple[str, str, str, str] | None:
        """Two abilities on one signal, the first to resolve destroying the other's target (603.3d on resolution):
        (signal, the targeting ability, the destroying one, the target)."""
        src = self.source
        gone = None
        if src.chance(30) and not {"targets", "signals"} & self.no and len(steady) >= 2:
            # two abilities on one signal: the first to resolve destroys the other's target (603.3d on resolution)
            victim = src.pick(steady)
            holder = src.pick([o for o in steady if o is not victim])
            level = src.integer(1, MAX_LEVEL - 1)
            aimed, killer = self.ability_id(), self.ability_id()
            self.targeted_ids.append(aimed)
            holder["abilities"].append({"id": aimed, "trigger": {"event": "signal", "name": f"s{level}"},
                                        "target": {"candidates": [victim["id"]]},
                                        "effect": [{"do": "move_target", "to": "graveyard"}]})
            holder["abilities"].append({"id": killer, "trigger": {"event": "signal", "name": f"s{level}"},
                                        "effect": [{"do": "move", "object": victim["id"], "from": "field",
                                                    "to": "graveyard"}]})
            gone = (f"s{level}", aimed, killer, victim["id"])
        return gone

    def target_leaves(self, doomed: list[str], steady: list[dict[str, Any]]) -> None:
        """Two abilities on one signal, the first to resolve making a player leave the game, the other targeting that
        player (800.4a, 608.2b): ``self.gone_player``."""
        src = self.source
        if doomed and src.chance(45) and not {"player_targets", "signals"} & self.no and steady:
            # two abilities on one signal: the first to resolve makes a player leave the game, the other targets
            # that player, no longer a legal target when it resolves (800.4a, 608.2b)
            holder, leaver = src.pick(steady), src.pick(doomed)
            level = src.integer(1, MAX_LEVEL - 1)
            aimed, killer = self.ability_id(), self.ability_id()
            self.targeted_ids.append(aimed)
            holder["abilities"].append({"id": aimed, "trigger": {"event": "signal", "name": f"s{level}"},
                                        "target": {"players": [leaver]}, "effect": [self.at_target_player()]})
            holder["abilities"].append({"id": killer, "trigger": {"event": "signal", "name": f"s{level}"},
                                        "effect": [src.pick([{"do": "concede", "player": leaver},
                                                             {"do": "life", "player": leaver, "amount": -20}])]})
            self.gone_player = (f"s{level}", aimed, killer)

    def relative_event(self, steady: list[dict[str, Any]], players: list[str], doomed: list[str],
                       active: str) -> dict[str, Any] | None:
        """An event that matters to an ability only relative to its controller, a player who is not active (603.3a's
        "you"): the scripted action."""
        src = self.source
        mine = None
        if "filters" not in self.no and steady and src.chance(85):
            # an event that matters to an ability only relative to its controller, held by a player who is not active
            # ("whenever you gain life", "whenever a creature an opponent controls enters"): 603.3a's "you"
            holder = src.pick([o for o in steady if o["owner"] != active] or steady)
            stayers = [p for p in players if p not in doomed]
            relation = src.pick(["you", "opponent"])
            who = holder["owner"] if relation == "you" else src.pick([p for p in stayers if p != holder["owner"]]
                                                                       or [p for p in players if p != holder["owner"]])
            hand = [o for o in self.objects if o["zone"] == "hand" and o["owner"] == who]
            effect = [{"do": "signal", "name": TOP}] if src.chance(50) and "signals" not in self.no else []
            if not effect and "empty_effects" in self.no:
                effect = [self.destroy(holder["id"])]
            if hand and (src.chance(50) or "event_triggers" in self.no):
                # "whenever a creature you control / an opponent controls enters"
                card = src.pick(hand)
                holder["abilities"].append({"id": self.ability_id(), "trigger": {
                    "event": "enter", "controller": relation} | ({"type": card["types"][0]} if src.chance(50) else {}),
                    "effect": effect})
                mine = {"do": "move", "object": card["id"], "from": "hand", "to": "field"}
            elif "event_triggers" not in self.no:  # "whenever you gain life", "whenever an opponent gains life"
                holder["abilities"].append({"id": self.ability_id(), "trigger": {
                    "event": "life", "player": relation, "change": "gain"}, "effect": effect})
                mine = {"do": "life", "player": who, "amount": src.integer(1, 3)}
        return mine

    def departure(self, doomed: list[str]) -> str | None:
        """A doomed player's ability and another's "that player loses the game" on one signal (800.4a): the signal."""
        src = self.source
        departure = None
        if doomed and src.chance(60) and "signals" not in self.no:
            # a doomed player's ability and another's "that player loses the game" trigger on the same signal: the
            # doomed player leaves while their ability waits or is on the stack (800.4a)
            level = src.integer(1, MAX_LEVEL)
            leaver = src.pick(doomed)
            theirs = [o for o in self.objects if o["owner"] == leaver and o["zone"] == "field"]
            others = [o for o in self.objects if o["owner"] != leaver and o["zone"] == "field"]
            if theirs and others:
                departure = f"s{level}"
                effect: list[dict[str, Any]] = [{"do": "signal", "name": TOP}] if level < MAX_LEVEL else []
                if src.chance(65) and "delayed" not in self.no:  # it outlives them, or ends with them (800.4a)
                    did = self.ability_id("D")
                    self.delayed_ids.append(did)
                    effect = [{"do": "create_delayed", "ability": {"id": did, "trigger": {"event": "leave",
                              "subject": "any"}, "effect": []}} | ({"duration": "turn"} if src.chance(50) else {})]
                src.pick(theirs)["abilities"].append({"id": self.ability_id(), "trigger": {
                    "event": "signal", "name": departure}, "effect": effect})
                src.pick(others)["abilities"].append({"id": self.ability_id(), "trigger": {
                    "event": "signal", "name": departure}, "effect": [{"do": "concede", "player": leaver}]})
        return departure

    def shield(self, players: list[str]) -> dict[str, Any] | None:
        """"Whenever this deals damage", and all its damage is prevented (603.2g): the scripted damage."""
        src = self.source
        shield = None
        if src.chance(45) and not {"prevented", "event_triggers", "script_damage"} & self.no:
            # "whenever this deals damage, ...", and all the damage it would deal is prevented (603.2g)
            dealer = src.pick([o for o in self.objects if o["zone"] == "field"])
            dealer["abilities"].append({"id": self.ability_id(), "trigger": {"event": "damage", "subject": "self"},
                                        "effect": [{"do": "signal", "name": TOP}] if src.chance(50) else []})
            shield = {"do": "damage", "source": dealer["id"], "amount": src.integer(1, 3), "prevented": True,
                      "player": src.pick(players)}
        return shield

    def next_death(self) -> tuple[str, str, str] | None:
        """"The next time a creature dies", then several die at once (603.7b): (signal, holder, its owner)."""
        src = self.source
        once = None
        if src.chance(45) and not {"delayed", "signals", "move_together"} & self.no:
            # "the next time a creature dies, ...", then several die at once: it triggers once, on the occurrence
            # its controller chooses (603.7b)
            holder = src.pick([o for o in self.objects if o["zone"] == "field"])
            did = self.ability_id("D")
            self.delayed_ids.append(did)
            delayed: dict[str, Any] = {"id": did, "trigger": {"event": "leave", "subject": "any", "to": "graveyard"},
                                       "effect": [{"do": "signal", "name": TOP}] if src.chance(50) else []}
            once = (f"s{src.integer(1, MAX_LEVEL)}", holder["id"], holder["owner"])
            holder["abilities"].append({"id": self.ability_id(), "trigger": {"event": "signal", "name": once[0]},
                                        "effect": [{"do": "create_delayed", "ability": delayed}]})
        return once

    def graveyard_cards(self, players: list[str]) -> bool:
        """Cards in a graveyard watching cards leave it (603.10a); whether there are."""
        src = self.source
        graveyard = (src.chance(40) and "graveyard_triggers" not in self.no and "exile" not in self.no
                     and _move_triggers_declared())
        if graveyard:
            for _ in range(src.count(1, 2)):
                self.objects.append(self.graveyard_card(src.pick(players)))
        return graveyard

    def deaths_by_state(self) -> None:
        """A permanent dying when another is in a graveyard: deaths from state-based actions."""
        src = self.source
        if src.chance(30) and "dies_when" not in self.no:
            # a permanent dies when another is in a graveyard: deaths from state-based actions
            a, b = src.pick(self.objects), src.pick(self.objects)
            if a is not b:
                a["dies_when"] = {"test": "in_zone", "object": b["id"], "zone": "graveyard"}

    def lethal_with_a_loss(self, life: dict[str, int]) -> dict[str, Any] | None:
        """Only for a profile excluding ``chance_lethal_losses``: a card in a doomed player's hand whose ability, as
        it enters, deals lethal damage to another creature they own and as much damage to them as their life, so
        that the creature's death and the player's loss are one state-based actions check (704.3); the scripted
        move of that card (placed first), or None."""
        src = self.source
        if "chance_lethal_losses" not in self.no or not self.doomed or not src.chance(30):
            return None
        loser = src.pick(self.doomed)
        mine = [o for o in self.objects if o["owner"] == loser and o["zone"] == "field"]
        if not mine:
            return None
        victim = src.pick(mine)
        card = {"id": f"C{len(self.objects) + 1}", "owner": loser, "zone": "hand", "abilities": [{
            "id": self.ability_id(), "trigger": {"event": "enter", "subject": "self"},
            "effect": [{"do": "damage", "amount": victim.get("toughness", 1), "object": victim["id"]},
                       {"do": "damage", "amount": life[loser], "player": loser}]}]}
        self.objects.append(card)
        return {"do": "move", "object": card["id"], "from": "hand", "to": "field"}

    def watchers(self) -> set[str]:
        """Abilities watching another object's abilities (a watched object never holds a watcher); the watched."""
        src = self.source
        watched_ids: set[str] = set()
        holders: set[str] = set()
        if src.chance(60) and "watchers" not in self.no:
            for _ in range(src.count(1, 2)):  # a watched object never holds a watcher: no chains of watchers
                pool = [o for o in self.objects if o["abilities"] and o["id"] not in holders]
                if not pool:
                    break
                watched = src.pick(pool)
                spots = [o for o in self.objects if o is not watched and o["id"] not in watched_ids]
                if not spots:
                    break
                holder = src.pick(spots)
                watched_ids.add(watched["id"])
                holders.add(holder["id"])
                holder["abilities"].append(self.watcher(watched["id"]))
        return watched_ids

    def batching(self, players: list[str], watched: set[str]) -> list[dict[str, Any]]:
        """Set pieces for how many times abilities trigger, each likely on its own; returns the scripted actions
        they need (cards entering together go first in the script, the rest last; objects only move forward and nothing here emits a signal that an
        ability of level below the top answers, so the scenario still terminates):

        * "whenever one or more creatures enter the battlefield" (603.2c), then two or three cards are put onto it
          from a hand at once: once for the event;
        * a permanent making abilities triggered by a kind of event trigger an additional time (603.2d), held by
          the controller of such an ability;
        * "whenever s4 happens, ... Do this only once each turn" (603.2h), then s4 twice (its effect changes no
          life total: an engine ignoring 603.2h could otherwise loop through an ability answering life changes);
        * "whenever an ability of X resolves, ..." on an object other than X whose abilities nothing watches (of
          those in ``watched``), so it cannot feed itself through an ability watching it trigger."""
        src = self.source
        script: list[dict[str, Any]] = []
        field = [o for o in self.objects if o["zone"] == "field"]
        if not field:
            return script
        batch_holder = None
        if src.chance(60) and "move_together" not in self.no:
            # "whenever one or more creatures enter the battlefield": two or three cards put onto it at once
            batch_holder = src.pick(field)
            batch_holder["abilities"].append({"id": self.ability_id(), "trigger": {
                "event": "enter", "batch": True}, "effect": [
                {"do": "life", "player": batch_holder["owner"], "amount": 1}]})
            owner = src.pick(players)
            cards = [f"C{len(self.objects) + 1 + k}" for k in range(src.integer(2, 3))]
            self.objects += [{"id": c, "owner": owner, "zone": "hand", "abilities": []} for c in cards]
            script.append({"do": "move_together", "objects": cards, "from": "hand", "to": "field"})
        if src.chance(50):
            owner = batch_holder["owner"] if batch_holder is not None and src.chance(70) else src.pick(players)
            mine = [o for o in field if o["owner"] == owner] or field
            extra: dict[str, Any] = {"times": 1}
            if src.chance(70):
                extra["event"] = "enter" if batch_holder is not None or src.chance(50) else "leave"
            src.pick(mine)["additional_triggers"] = extra
        if src.chance(55) and "signals" not in self.no:
            holder = src.pick(field)
            aid = self.ability_id()
            ability: dict[str, Any] = {"id": aid, "trigger": {"event": "signal", "name": TOP}, "once_each_turn": True,
                                       "effect": [self.destroy()] if src.chance(50) or "empty_effects" in self.no
                                       else []}
            if src.chance(30):
                ability["optional"] = True
                self.optional_ids.append(aid)
            holder["abilities"].append(ability)
            script += [{"do": "signal", "name": TOP}, {"do": "signal", "name": TOP}]
        if src.chance(55):
            sources = [o for o in self.objects if o["abilities"]]
            if sources:
                x = src.pick(sources)
                spots = [o for o in field if o is not x and o["id"] not in watched]
                if spots:
                    # never a life change or damage: an ability of X answering those would feed it for ever
                    effect = [self.destroy()] if src.chance(50) or "empty_effects" in self.no else []
                    src.pick(spots)["abilities"].append({"id": self.ability_id(), "trigger": {
                        "event": "resolved", "subject": x["id"]}, "effect": effect})
        return script

    def spells(self, caster: str) -> list[dict[str, Any]]:
        """Set pieces for spells on the stack (405, 608.2b); returns the scripted casts. One or two cards in the
        caster's hand are spells: one targeting a permanent (destroying it, or dealing it damage), one untargeted
        (a top-level signal or a life gain, sometimes a permanent spell entering the battlefield). An ability
        watching spells being cast answers by destroying the first spell's target (so that it is removed for an
        illegal target on resolution) or by countering a spell, and another may watch spells being countered.
        Only the script casts, and every answer moves an object forward, so the scenario still terminates."""
        src = self.source
        field = [o for o in self.objects if o["zone"] == "field"]
        if not field:
            return []
        cards: list[dict[str, Any]] = []
        aim = src.pick(field)["id"]
        if "targets" not in self.no:
            hit = src.pick([{"do": "move_target", "to": "graveyard"}, {"do": "damage", "amount": 3, "target": True}])
            cards.append({"effect": [hit], "target": {"candidates": [aim]}})
        if not cards or src.chance(60):
            plain: dict[str, Any] = {"effect": [{"do": "signal", "name": TOP} if "signals" not in self.no and
                                                src.chance(50) else {"do": "life", "player": caster, "amount": 2}]}
            if src.chance(35):
                plain["permanent"] = True
            cards.append(plain)
        ids = []
        for spell in cards:
            card = f"C{len(self.objects) + 1}"
            self.objects.append({"id": card, "owner": caster, "zone": "hand", "abilities": [], "spell": spell})
            ids.append(card)
        holders = [o for o in field]
        if src.chance(70):
            answer = src.pick(["destroy", "counter"]) if "target" in cards[0] else "counter"
            victim = ids[0] if src.chance(60) else src.pick(ids)
            effect = ([{"do": "move", "object": aim, "from": "field", "to": "graveyard"}] if answer == "destroy"
                      else [{"do": "counter", "object": victim}])
            trigger = {"event": "cast"} if answer == "destroy" or src.chance(50) else {"event": "cast", "subject": victim}
            src.pick(holders)["abilities"].append({"id": self.ability_id(), "trigger": trigger, "effect": effect})
        if src.chance(50):
            effect = [self.destroy()] if src.chance(50) or "empty_effects" in self.no else []
            src.pick(holders)["abilities"].append({"id": self.ability_id(), "trigger": {"event": "countered"},
                                                   "effect": effect})
        return [{"do": "cast", "object": card} for card in ids]

    def borrowed_condition(self, steady: list[dict[str, Any]], players: list[str]) -> list[dict[str, Any]]:
        """Issue 22: an intervening "if" about "you" on a permanent that changes hands (603.3a, 603.4). A permanent's
        "when this dies, if you have 15 or more life" (or "14 or less"), its owner and another player ten life apart;
        the other player gains control of it, then it dies: its ability looks back and is that player's (603.10a),
        and on resolution "you" is still that player, although the card is its owner's again (400.7, 108.4a). The
        script's actions (none when the piece is not drawn, nor under a profile excluding ``hand_control_changes``:
        the ability's text says "you")."""
        src = self.source
        if not src.chance(25) or "gain_control" in self.no or "hand_control_changes" in self.excluded or not steady:
            return []
        holder = src.pick(steady)
        thieves = [p for p in players if p != holder["owner"] and p not in self.doomed] or \
            [p for p in players if p != holder["owner"]]
        thief = src.pick(thieves)
        poorer = src.pick([holder["owner"], thief])  # ten life down: "you" holds on one reading only
        condition = ({"test": "life_at_least", "player": "controller", "value": 15} if poorer == holder["owner"]
                     else {"test": "life_at_most", "player": "controller", "value": 14})
        effect = [{"do": "signal", "name": TOP}] if "signals" not in self.no and src.chance(50) else [
            {"do": "life", "player": thief, "amount": 1}]
        holder["abilities"].append({"id": self.ability_id(), "trigger": {"event": "leave", "subject": "self",
                                                                          "to": "graveyard"},
                                    "intervening_if": condition, "effect": effect})
        return [{"do": "life", "player": poorer, "amount": -10},
                {"do": "gain_control", "object": holder["id"], "player": thief},
                {"do": "move", "object": holder["id"], "from": "field", "to": "graveyard"}]
