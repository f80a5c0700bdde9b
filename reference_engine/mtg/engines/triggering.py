"""What triggers in the MTG reference engine, and how many times (603.2, 603.2c-d, 603.2h, 603.7, 603.8, 603.12).

:class:`Triggering` is a part of :class:`~reference_engine.mtg.engines.reference.Game`, kept in its own module for
size: Game inherits it, and its methods read and change the game's state (``self.record``, ``self.state``,
``self.catalog``, ``self.delayed``, ...) set up by ``Game.__init__``. Each overridable step is one method, so a
faulty engine (reference_engine/mtg/engines/faulty.py) changes exactly one rule.
"""

from __future__ import annotations

from typing import Any

from reference_engine.mtg.engines.rules import BATTLEFIELD, UNCREATED, Context, Delayed, State, active_zones, looks_back_at


class GameOver(Exception):
    """The game ended before the script did (104.4b: a loop of mandatory actions is a draw)."""




class Triggering:
    """Game's triggering steps (see the module docstring)."""

    # -- How many times an ability triggers (603.2c, 603.2d, 603.2h) ----------------------------------------------------

    def how_many(self, hits: list[tuple], before: State) -> list[tuple]:
        """The object abilities a group triggers, each as many times as it triggers: once per event for "one or
        more" (603.2c), not at all for a once-each-turn ability already used (603.2h), then 1 + its additional
        times (603.2d), at most once each turn for an object whose ability "triggers only once each turn"."""
        out = []
        for hit in self.one_or_more(hits):
            if not self.may_trigger_this_turn(hit[1], hit[2]):
                continue
            out += [hit] * self.once_per_object(hit, before, 1 + self.additional_times(hit, before))
        return out

    def one_or_more(self, hits: list[tuple]) -> list[tuple]:
        """603.2c: a "whenever one or more ..." ability triggers once for the event, on its first matching
        occurrence; every other ability once per occurrence."""
        seen, out = set(), []
        for hit in hits:
            _, source, ability, _ = hit
            if ability["trigger"].get("batch"):
                if (source, ability["id"]) in seen:
                    continue
                seen.add((source, ability["id"]))
            out.append(hit)
        return out

    def may_trigger_this_turn(self, source: str, ability: dict[str, Any]) -> bool:
        """603.2h: only if its source's controller has not yet taken the action this turn."""
        return not (ability.get("once_each_turn") and (source, ability["id"]) in self.used_this_turn)

    def once_per_object(self, hit: tuple, before: State, times: int) -> int:
        """"This ability triggers only once each turn" (``triggers_once_each_turn``, printed on the ability): how many
        of its ``times`` the hit keeps: none when this object's ability has already triggered this turn, else one
        (additional times, 603.2d, included). The count belongs to the object: once its source has changed zones it is
        a new object (400.7) whose ability may trigger again. Apart from 603.2h (``once_each_turn``): triggering
        counts, whatever becomes of the instance."""
        event, source, ability, _ = hit
        if not ability.get("triggers_once_each_turn"):
            return times
        key, life = (source, ability["id"]), self.object_life(source, ability, event, before)
        if self.triggered_this_turn.get(key) == life:
            return 0
        self.triggered_this_turn[key] = life
        return 1

    def object_life(self, source: str, ability: dict[str, Any], event: dict[str, Any], before: State) -> int:
        """400.7: which object ``source`` is as ``ability`` triggers on ``event``: the number of zone changes it has
        made up to the game the trigger is judged on. That is the game just before the event's group when the source
        left, in that group, a zone where the ability works for one where it does not (or for another such zone on an
        event that looks back, 603.10a), else the game just after it."""
        was, now, zones = before.zones.get(source), self.state.zones.get(source), active_zones(ability)
        back = was != now and was in zones and (now not in zones or looks_back_at(ability["trigger"], event))
        group, count = event.get("group", event["id"]), 0
        for entry in self.record.entries:
            if entry["kind"] != "event":
                continue
            if back and entry.get("group", entry["id"]) == group:
                break
            if entry.get("subject") == source and entry.get("to") and entry.get("from") != entry["to"] and \
                    not entry.get("prevented"):
                count += 1
        return count

    def additional_times(self, hit: tuple, before: State) -> int:
        """603.2d: each permanent with ``additional_triggers`` on the battlefield, controlled by the ability's
        controller and matching the event's type, adds its ``times``, for an ability of a permanent; judged on the
        game the trigger is judged on (just before the event when it looks back, 603.10a)."""
        event, source, ability, controller = hit
        state = before if looks_back_at(ability["trigger"], event) else self.state
        if state.zones.get(source) != BATTLEFIELD:
            return 0
        return sum(extra["times"] for holder, extra in self.catalog.multipliers
                   if state.zones.get(holder) == BATTLEFIELD and state.controllers.get(holder) == controller
                   and extra.get("event", event["type"]) == event["type"])

    # -- "That many" (amounts taken from the trigger event) -------------------------------------------------------------

    def effect_amount(self, action: dict[str, Any], ctx: Context) -> int | None:
        """The amount of a ``damage`` or ``life`` instruction: its ``amount``, or with ``that_many`` ("that much
        damage", "gain that much life") as much as the amount of the resolving ability's trigger event, a life
        instruction keeping the sign of its ``amount``. None when that is nothing: no damage is dealt, no life changes
        (120.8)."""
        if not action.get("that_many"):
            return action["amount"]
        taken = abs(self.trigger_event_amount(ctx.trigger))
        if not taken:
            return None
        return -taken if action["do"] == "life" and action["amount"] < 0 else taken

    def trigger_event_amount(self, trigger: str | None) -> int:
        """The ``amount`` of the event trigger instance ``trigger`` triggered on (0: none; a scripted action, a spell
        and a state trigger have no trigger event)."""
        return (self.trigger_event(trigger) or {}).get("amount") or 0

    def trigger_event(self, trigger: str | None) -> dict[str, Any] | None:
        """The event entry trigger instance ``trigger`` triggered on (None: a scripted action, a spell, an activated
        ability and a state trigger have none)."""
        if trigger is None or self.specs[trigger]["trigger"]["event"] == "state":
            return None
        wanted = self.instances[trigger]["event"]
        for entry in reversed(self.record.entries):
            if entry["kind"] == "event" and entry["id"] == wanted:
                return entry
        return None

    def that_player(self, trigger: str | None) -> str | None:
        """"That player" of the resolving trigger instance ``trigger`` (603.2, 608.2): its trigger event's player, or
        the owner of a card put into a graveyard, a hand or a library (400.3: its owner's); None when there is none or
        they have left the game."""
        event = self.trigger_event(trigger) or {}
        player = event.get("player")
        if player is None and event.get("type") in ("leave", "move") and event.get("to") in ("graveyard", "hand",
                                                                                              "deck"):
            player = self.catalog.objects[event["subject"]]["owner"]
        return None if player is None or player in self.state.left else player

    # -- Damage (120.2, 120.3, 603.2c, 603.2g) --------------------------------------------------------------------------

    def damage_event(self, action: dict[str, Any], ctx: Context) -> dict[str, Any] | None:
        """The event of a ``damage`` instruction (marked ``prevented``, 603.2g, or ``combat``, 510.2), to its object
        or player, the resolving ability's target, or "that player" (``that_player``, :meth:`that_player`); None when
        nothing is dealt: "that much" is nothing, no target or no such player, a permanent off the battlefield, a
        player who has left."""
        amount = self.effect_amount(action, ctx)  # "that much damage": none dealt when it is nothing
        if amount is None:
            return None
        event = {"type": "damage", "subject": action.get("source", ctx.source), "amount": amount}
        if action.get("that_player"):  # "deals N damage to that player"
            action = dict(action, player=self.that_player(ctx.trigger))
        if action.get("target"):  # "deals N damage to target player or permanent"
            if ctx.target is None:
                return None
            action = {k: v for k, v in action.items() if k != "target"}
            action["player" if ctx.target in self.state.life else "object"] = ctx.target
        if "object" in action:
            if self.state.zones.get(action["object"]) != BATTLEFIELD:
                return None
            event["target"] = action["object"]
        elif action.get("player") is None or action["player"] in self.state.left:
            return None
        else:
            event["player"] = action["player"]
        if action.get("prevented"):
            event["prevented"] = True
        if action.get("combat"):  # the combat damage step's (510.2)
            event["combat"] = True
        return event

    def damage_hit(self, hit: dict[str, Any], ctx: Context, combat: bool = False) -> dict[str, Any] | None:
        """One occurrence of a ``damage_together`` event: its damage event (marked ``combat`` for combat damage,
        510.2), or None when its permanent is not on the battlefield or its player has left the game."""
        event = {"type": "damage", "subject": hit.get("source", ctx.source), "amount": hit["amount"]}
        if combat:
            event["combat"] = True
        if "object" in hit:
            return dict(event, target=hit["object"]) if self.state.zones.get(hit["object"]) == BATTLEFIELD else None
        return dict(event, player=hit["player"]) if hit["player"] not in self.state.left else None

    def last_event_id(self) -> str | None:
        for entry in reversed(self.record.entries):
            if entry["kind"] == "event":
                return entry["id"]
        return None

    # -- Triggering (603.2, 603.8, 603.7, 603.12) ------------------------------------------------------------------

    def new_trigger(self, source: str, ability: dict[str, Any], controller: str, event: str | None,
                    delayed: str | None = None) -> str | None:
        """The ability triggers (603.2); it waits, and goes on the stack when a player is next about to get priority."""
        fields = {"delayed": delayed} if delayed else {}
        entry = self.record.add("trigger", id=self.record.new_id("T"), ability=ability["id"], source=source,
                                controller=controller, event=event, **fields)
        self.instances[entry["id"]], self.specs[entry["id"]] = entry, ability
        if ability["trigger"]["event"] == "state" and not delayed:
            self.live_state[(source, ability["id"])] = entry["id"]
            self.state_seen[entry["id"]] = self.state.copy()
        if not self.accept_trigger(entry["id"]):
            return None
        self.on_triggered(entry["id"])
        return entry["id"]

    def accept_trigger(self, trigger: str) -> bool:
        """603.5: an optional ability goes on the stack like any other; its choice waits for resolution."""
        return True

    def on_triggered(self, trigger: str) -> None:
        """603.3, 117.2a: a new trigger waits; nothing goes on the stack until a player would receive priority."""
        self.waiting.append(trigger)

    def check_state_triggers(self, event: str | None) -> list[str | None]:
        """603.8: a state trigger triggers when its state holds, unless an instance of it has not yet left the stack."""
        new = []
        for source, ability in self.catalog.state_abilities:
            key = (source, ability["id"])
            if self.state_trigger_ready(key) and self.catalog.state_trigger_holds(source, ability, self.state):
                self.check_loop(key)
                new.append(self.new_trigger(source, ability, self.state.controllers[source], event))
        return new

    def check_loop(self, key: tuple[str, str]) -> None:
        """104.4b: a state trigger whose last instance left the stack without resolving (no legal target, 603.3d),
        and which would now trigger again in the very game that instance triggered in, would trigger and be removed
        forever: a loop of mandatory actions with no way to stop, and the game is a draw."""
        if self.futile.get(key) == self.state:
            self.record.add("game_over", result="draw", reason="mandatory_loop")
            raise GameOver()

    def state_trigger_ready(self, key: tuple[str, str]) -> bool:
        return key not in self.live_state

    def delayed_triggers(self, group: list[dict[str, Any]], before: State) -> list[str | None]:
        """603.7a-b: a living delayed ability triggers on events after its creation: once (its controller choosing
        among simultaneous occurrences), or on each occurrence until its duration ends."""
        new = []
        for d in self.delayed:
            if not d.alive or d.controller in self.state.left:
                continue
            matching = [e for e in group if d.matches(self.catalog, e, before)]
            d.track(self.state)
            if d.duration == "next_turn" and self.turn != d.born + 1:
                continue  # "during your next turn": not yet
            # 603.4: with its intervening "if" false it does not trigger (a once-only one keeps waiting)
            matching = [e for e in matching if self.delayed_condition_holds(d, e, before)]
            if not matching:
                continue
            if d.duration is None:
                k = 0
                if len(matching) > 1:
                    k = self.chooser.choose("occurrence", d.controller, self.delayed_entry(d), matching)
                    self.record.add("choice", player=d.controller, decision="occurrence",
                                    among=[e["id"] for e in matching], chosen=[matching[k]["id"]])
                new.append(self.new_trigger(d.source, d.ability, d.controller, matching[k]["id"], delayed=d.id))
                self.end_one(d, "triggered")
            else:
                new += [self.new_trigger(d.source, d.ability, d.controller, e["id"], delayed=d.id) for e in matching]
        return new

    def delayed_condition_holds(self, d: Delayed, event: dict[str, Any], before: State) -> bool:
        return d.condition_holds(self.catalog, event, before, self.state, self.condition_looks_back)

    def delayed_entry(self, d: Delayed) -> dict[str, Any]:
        return next(e for e in self.record.entries if e["kind"] == "delayed_create" and e["id"] == d.id)

    def create_delayed(self, action: dict[str, Any], ctx: Context) -> None:
        """603.7d-e: source and controller are those of the resolving ability, or of the resolving spell (its card,
        its caster: ``created_by`` is then None and the trace names the ``spell``). 603.12: a reflexive ability is
        checked at once against the events earlier in this resolution, once per occurrence (603.12a)."""
        reflexive = action["do"] == "reflexive"
        self.performed(ctx.trigger)
        ability = action["ability"]
        watched = None if reflexive else self.catalog.watched_object(ability, ctx.source)
        d = Delayed(self.record.new_id("D"), ability, ctx.source, ctx.controller, ctx.trigger,
                    action.get("duration"), reflexive, watched, self.state.zones.get(watched))
        d.born = self.turn
        fields = {"duration": d.duration} if d.duration else {}
        if reflexive:
            fields["reflexive"] = True
        fields.update({"created_by": d.created_by} if d.created_by is not None else {"spell": ctx.source})
        self.record.add("delayed_create", id=d.id, ability=ability["id"], source=d.source, controller=d.controller,
                        **fields)
        if not reflexive:
            self.delayed.append(d)
            return
        if d.controller in self.state.left:
            return  # 800.4a: its controller left during this resolution, and nothing triggers for them any more
        if not self.reflexive_condition_holds(d):
            return  # 603.4: checked as it is created, when a reflexive ability triggers (603.12)
        new = [self.new_trigger(d.source, ability, d.controller, e["id"], delayed=d.id)
               for e in list(self.resolution_events) if self.catalog.pattern_matches(ability["trigger"], e, d.source)]
        self.announce([t for t in new if t is not None])

    def create_tokens(self, tokens: list[str], ctx: Context) -> None:
        """Creating tokens (603.6a): they come into existence on the battlefield under their owners' control, as one
        event with one occurrence per token, an ``enter`` from ``uncreated``, that enters-the-battlefield abilities
        (their own too) trigger on. A token created already, or whose owner has left the game, is not created."""
        events = [{"type": "enter", "subject": t, "from": UNCREATED, "to": BATTLEFIELD} for t in self.creatable(tokens)]
        if events:
            self.happen(events, ctx.cause)

    def creatable(self, tokens: list[str]) -> list[str]:
        """The tokens of a ``create_token`` that come into existence: not created yet, their owner in the game."""
        return [t for t in tokens if self.state.zones.get(t) == UNCREATED and self.catalog.owners[t] not in self.state.left]

    def reflexive_condition_holds(self, d: Delayed) -> bool:
        return self.catalog.holds(d.ability.get("intervening_if"), self.state, d.source, d.controller)

    def end_one(self, d: Delayed, reason: str) -> None:
        d.alive = False
        self.record.add("delayed_end", delayed=d.id, reason=reason)

    def end_delayed(self, duration: str) -> None:
        for d in self.delayed:
            if d.alive and d.duration == duration:
                self.end_one(d, "duration")
        self.delayed = [d for d in self.delayed if d.alive]

    def announce(self, new: list[str]) -> None:
        """An ability triggering is an event that abilities triggering on another ability watch (603.3b)."""
        if not self.catalog.listens_triggered:
            return
        for trigger in new:
            entry = self.instances[trigger]
            self.happen([{"type": "ability_triggered", "subject": entry["source"], "player": entry["controller"]}],
                        {"trigger": trigger})
