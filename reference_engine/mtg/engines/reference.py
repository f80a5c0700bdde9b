"""Reference engine for Magic: The Gathering, Comprehensive Rules 603 (Handling Triggered Abilities) and the stack.

Read it top to bottom. A game plays the scenario's script step by step; each scripted action is performed in
full (like a spell resolving), then the game settles: before any player receives priority it performs
state-based actions and puts waiting triggered abilities on the stack, repeatedly (117.5, 704.3, 603.3b), gives
priority to the active player (117.3b), and, every player passing, resolves the top of the stack (405.5) until
the stack is empty. What the scenario vocabulary means (conditions, state-based actions, which abilities an event
triggers) lives in rules.py; what triggers, and how many times, in triggering.py (a part of :class:`Game`). Each
overridable step is one method, so a faulty engine (reference_engine/mtg/engines/faulty.py) changes exactly one rule.
"""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.engine import Chooser, Skipped
from reference_engine.common.journal import JournaledDict, Snapshot
from reference_engine.common.recorder import Recorder
from reference_engine.common.reference import ReferenceEngine
from reference_engine.common.vocabulary import movement_event
from reference_engine.mtg.engines.rules import BATTLEFIELD, UNCREATED, Catalog, Context, Delayed, State
from reference_engine.mtg.engines.activating import Activating
from reference_engine.mtg.engines.triggering import GameOver, Triggering

RULESET = "mtg"
EDITIONS = ["2026-02-27", "2021-02-24"]
TWO_PASS_EDITIONS = frozenset({"2026-02-27"})  # 603.3b's two-part process dates from the 2021-04-19 rules
# The per-object parts of the game state: journaled, so that the game just before an event costs no copy (speed only).
PER_OBJECT = ("zones", "controllers", "damage", "last_controllers")


class MtgEngine(ReferenceEngine):
    """The bundled reference engine for ``mtg``, both editions, behind the same adapter interface as any engine."""

    trusted_traces = True  # its traces skip the schema and structure checks (conformance.running.checking.trusts)

    ruleset = RULESET
    editions = tuple(EDITIONS)


class Game(Activating, Triggering):
    """One play of a scenario. ``options`` are the resolved ruleset options carried by the scenario."""

    LOOK_BACK = True  # 603.10a

    def __init__(self, scenario: dict[str, Any], chooser: Chooser):
        self.scenario = scenario
        self.options = scenario.get("options", {})
        self.membership = self.options.get("pass_two_membership", "triggering-only")
        self.two_pass = scenario["edition"] in TWO_PASS_EDITIONS
        self.chooser = chooser
        self.catalog = Catalog(scenario)
        self.catalog.options = self.options
        self.record = Recorder(scenario)
        self.state = State.initial(scenario)
        for name in PER_OBJECT:
            setattr(self.state, name, JournaledDict(getattr(self.state, name)))
        self.no_sba_at: tuple | None = None  # the state at the last check that found no state-based action
        self.instances: dict[str, dict[str, Any]] = {}  # trigger id -> its trace entry
        self.specs: dict[str, dict[str, Any]] = {}  # trigger id -> the ability it is an instance of
        self.targets: dict[str, str | None] = {}
        self.waiting: list[str] = []  # triggered, not yet on the stack (603.3)
        self.stack: list[str] = []  # bottom first (405.2)
        self.delayed: list[Delayed] = []
        self.live_state: dict[tuple[str, str], str] = {}  # 603.8: state triggers triggered and not yet off the stack
        self.state_seen: dict[str, State] = {}  # state trigger instance -> the game when it triggered (104.4b)
        # state trigger -> the game its last instance triggered in, when that instance left without resolving
        self.futile: dict[tuple[str, str], State] = {}
        self.resolving: str | None = None
        self.used_this_turn: set[tuple[str, str]] = set()  # 603.2h: once-each-turn abilities whose action was taken
        # "triggers only once each turn": (source, ability) -> the object (zone changes of its source, 400.7) whose
        # ability has triggered this turn
        self.triggered_this_turn: dict[tuple[str, str], int] = {}
        # 603.2h under once_each_turn_taken=when-performed: (trigger, (source, ability)) of the resolving instance
        # whose action is taken by the first thing its effect does
        self.once_pending: tuple[str, tuple[str, str]] | None = None
        self.spells: dict[str, dict[str, Any]] = {}  # stack marker -> {card, caster, target} of a spell cast (601.2)
        self.activations: dict[str, dict[str, Any]] = {}  # activate id -> {source, ability, player} (602.2)
        self.resolution_events: list[dict[str, Any]] = []  # events so far in the current resolution (603.12)
        self.turn = 1  # the script's turns (each step's ``turn``); the catalog's active player is this turn's

    # -- The turn --------------------------------------------------------------------------------------------------

    def play(self) -> dict[str, Any]:
        try:
            self.play_script()
        except GameOver:
            pass
        return self.record.trace()

    def play_script(self) -> None:
        self.announce(self.check_state_triggers(None))  # 603.8: a state that already holds triggers at once
        for step_index, step in enumerate(self.scenario["script"]):
            while self.turn < step.get("turn", self.turn):
                self.next_turn()
            self.record.add("step_begin", step=step_index)
            for action_index, action in enumerate(step["actions"]):
                ref = [step_index, action_index]
                self.record.add("action_begin", action=ref)
                self.perform(action["effect"], Context({"action": ref}, None, action["by"]))
                self.record.add("action_end", action=ref)
                self.settle()
            self.end_delayed("step")  # 603.7b: "this step" durations end with the step
            self.record.add("step_advance", **{"from": step_index})
        self.end_delayed("turn")

    def next_turn(self) -> None:
        """The turn ends and the next player's begins (500.1): "this turn" durations end with it, and so do "next
        turn" ones living in it; in the new turn, "next turn" abilities created in the turn before start to work, and
        "until your next turn" ones of its active player end (611.2b's reading for delayed triggered abilities)."""
        self.end_turn()
        self.turn += 1
        self.catalog.active_player = self.catalog.next_active(self.state.left)
        for d in self.delayed:
            if d.alive and d.duration == "until_your_next_turn" and d.controller == self.catalog.active_player:
                self.end_one(d, "duration")
        self.delayed = [d for d in self.delayed if d.alive]

    def end_turn(self) -> None:
        """603.7b: durations ending with the turn: "this turn" ('until end of turn'), and "next turn" living in it."""
        self.end_delayed("turn")
        self.used_this_turn.clear()  # 603.2h: "only once each turn" starts afresh with the next turn
        self.triggered_this_turn.clear()  # "triggers only once each turn" too
        for d in self.delayed:
            if d.alive and d.duration == "next_turn" and d.born + 1 == self.turn:
                self.end_one(d, "duration")

    def settle(self) -> None:
        """117.3b, 117.4, 405.5: priority goes to the active player; with every player passing, the top of the stack
        resolves and the active player receives priority again, until the stack is empty."""
        while True:
            self.before_priority()
            self.record.add("priority", player=self.priority_player())
            if not self.stack:
                return
            self.resolve_top()

    def before_priority(self) -> None:
        """117.5, 704.3: state-based actions, repeated until none is performed; then the waiting triggered abilities
        go on the stack (603.3b); and again, until neither happens."""
        while True:
            if self.perform_state_based_actions():
                continue
            if not self.waiting:
                return
            self.put_triggers_on_stack()

    def priority_player(self) -> str:
        players = self.catalog.apnap(self.state.left)  # 800.4a: a player who left is skipped
        return players[0] if players else self.catalog.active_player

    # -- State-based actions (704.3) -----------------------------------------------------------------------------

    def perform_state_based_actions(self) -> bool:
        """704.3: check, and perform every applicable state-based action at once, as one event. True if any."""
        check = self.record.new_id("S")
        self.record.add("sba_check", id=check)
        dying, losing = self.applicable_sbas()
        if not dying and not losing:
            return False
        events = [{"type": "leave", "subject": o, "from": BATTLEFIELD, "to": "graveyard"} for o in dying]
        moved = set(dying)
        for player in losing:  # 704.5a: the player loses, and leaves the game (800.4a)
            more = self.catalog.leave_game_events(player, self.state, moved)
            moved |= {e["subject"] for e in more if e.get("to")}
            events += more
        self.happen(events, {"sba": check})
        return True

    def applicable_sbas(self) -> tuple[list[str], list[str]]:
        """The catalog's applicable state-based actions on the current state. Speed only: when the state has not
        changed since a check that found none, there are still none, and the O(objects) check is skipped."""
        fingerprint = self.state_fingerprint()
        if fingerprint is not None and fingerprint == self.no_sba_at:
            return [], []
        dying, losing = self.catalog.applicable_sbas(self.state)
        self.no_sba_at = fingerprint if not dying and not losing else None
        return dying, losing

    def state_fingerprint(self) -> tuple | None:
        """Equal fingerprints mean an equal state: the write counts of the journaled dicts, and a copy of the rest of
        the state (players' life, who left: a few values), and the owners by identity (never written). None if a
        per-object dict is not journaled."""
        counts = []
        for name in PER_OBJECT:
            value = getattr(self.state, name)
            if not isinstance(value, JournaledDict):
                return None
            counts.append((id(value), value.writes))
        # State's fields besides PER_OBJECT
        return tuple(counts), dict(self.state.life), tuple(self.state.left), id(self.state.owners)

    # -- Putting triggered abilities on the stack (603.3) ------------------------------------------------------------

    def put_triggers_on_stack(self) -> None:
        """603.3b: in APNAP order each player puts theirs on the stack in the order they choose; in the 2026 edition
        in two passes, abilities triggering on another ability triggering in the second."""
        waiting, self.waiting = self.waiting, []
        for in_pass in self.passes():
            for player in self.apnap():
                mine = [t for t in waiting if self.instances[t]["controller"] == player and in_pass(t)]
                for trigger in self.push_order(player, mine):
                    self.push(trigger)

    def passes(self) -> list:
        if not self.two_pass:
            return [lambda t: True]
        second = lambda t: self.catalog.in_second_pass(self.specs[t], self.membership)  # noqa: E731
        return [lambda t: not second(t), second]

    def apnap(self) -> list[str]:
        """101.4: the active player, then each other player in turn order (players who left are skipped)."""
        return self.catalog.apnap(self.state.left)

    def push_order(self, player: str, mine: list[str]) -> list[str]:
        """The player's chosen order (the chooser answers the order of resolution; the last pushed resolves first)."""
        if len(mine) < 2:
            return list(mine)
        permutation = self.chooser.order(player, [self.instances[t] for t in mine])
        resolve_order = [mine[k] for k in permutation]
        self.record.add("choice", player=player, decision="order", among=list(mine), chosen=resolve_order)
        return list(reversed(resolve_order))

    def push(self, trigger: str) -> None:
        """603.3: the ability becomes the topmost object; 603.3d: its target is chosen now, and with no legal
        target it is removed from the stack."""
        spec, entry = self.specs[trigger], self.instances[trigger]
        fields: dict[str, Any] = {}
        legal: list[str] = []
        if "target" in spec:
            legal = self.legal_targets(spec)
            target = None
            if legal:
                target = legal[self.chooser.choose("target", entry["controller"], entry, legal) if len(legal) > 1 else 0]
                if len(legal) > 1:
                    self.record.add("choice", player=entry["controller"], decision="target", among=legal,
                                    chosen=[target])
            self.targets[trigger] = target
            fields["target"] = target
        self.record.add("stack_push", trigger=trigger, **fields)
        self.stack.append(trigger)
        if "target" in spec and not legal:
            self.stack.pop()
            self.record.add("removed", trigger=trigger, reason="no_target")
            self.note_futile(trigger)
            self.left_stack(trigger)
            return
        if self.catalog.listens_stacked:
            self.happen([{"type": "ability_stacked", "subject": entry["source"], "player": entry["controller"]}],
                        {"push": trigger})

    def legal_targets(self, spec: dict[str, Any]) -> list[str]:
        """603.3d: the candidate objects in the target zone, then the candidate players still in the game (800.4a)."""
        return [c for c in self.target_candidates(spec) if self.target_legal(spec, c)]

    @staticmethod
    def target_candidates(spec: dict[str, Any]) -> list[str]:
        return list(spec["target"].get("candidates", ())) + list(spec["target"].get("players", ()))

    def target_legal(self, spec: dict[str, Any], target: str | None) -> bool:
        """A candidate player is a legal target while in the game; a candidate object while in the target zone."""
        if target is None:
            return False
        if target in spec["target"].get("players", ()):
            return target in self.state.life and target not in self.state.left
        return target in spec["target"].get("candidates", ()) and \
            self.state.zones.get(target) == spec["target"].get("zone", BATTLEFIELD)

    # -- Resolving (405.5, 608.2) ----------------------------------------------------------------------------------

    def resolve_top(self) -> None:
        """405.5: the last-added object resolves. 608.2a (603.4): the intervening "if" is checked again first;
        608.2b: then the target; 603.5: an optional ability's choice is made now."""
        trigger = self.stack[-1]
        if trigger in self.spells or trigger in self.activations:
            return self.resolve_spell(trigger) if trigger in self.spells else self.resolve_activated(trigger)
        spec, entry = self.specs[trigger], self.instances[trigger]
        if not self.intervening_if_holds_on_resolution(trigger):
            self.remove_at_resolution(trigger, "intervening_if")
            return
        target = self.targets.get(trigger)
        if "target" in spec and not self.target_legal(spec, target):
            self.remove_at_resolution(trigger, "illegal_target")
            return
        self.record.add("resolve_begin", trigger=trigger)
        self.resolving, self.resolution_events = trigger, []
        use = True
        if spec.get("optional"):
            use = self.ask_optional(entry)
        self.take_action(trigger, use)
        if use:
            # 113.7a: the ability resolves whatever has become of its source.
            self.perform(spec.get("effect", []),
                         Context({"resolution": trigger}, entry["source"], entry["controller"], trigger, target))
        self.record.add("resolve_end", trigger=trigger)
        self.resolving, self.once_pending = None, None
        self.off_stack(trigger)
        self.after_resolution(trigger)
        self.left_stack(trigger)

    # -- Spells (601.2, 405.1, 608.2) -------------------------------------------------------------------------------

    def cast(self, card: str, ctx: Context) -> None:
        """601.2: a card in a hand with a ``spell`` goes on the stack as the topmost object; its target is its first
        legal candidate, and with none it cannot be cast (nothing happens)."""
        spell = (self.catalog.objects.get(card) or {}).get("spell")
        if spell is None or self.state.zones.get(card) != "hand":
            return
        target = None
        if "target" in spell:
            legal = self.legal_targets(spell)
            if not legal:
                return
            target = legal[0]
        marker = f"spell:{card}"
        self.spells[marker] = {"card": card, "caster": ctx.controller, "target": target}
        fields = {"target": target} if target is not None else {}
        self.happen([{"type": "cast", "subject": card, "player": ctx.controller, "from": "hand", "to": "stack",
                      **fields}], ctx.cause)
        self.stack.append(marker)

    def counter(self, card: str | None, ctx: Context) -> None:
        """A spell countered leaves the stack for its owner's graveyard without resolving."""
        marker = f"spell:{card}"
        if card is None or marker not in self.stack or self.state.zones.get(card) != "stack":
            return
        self.stack.remove(marker)
        self.happen([{"type": "countered", "subject": card, "from": "stack", "to": "graveyard"}], ctx.cause)

    def resolve_spell(self, marker: str) -> None:
        """608.2b: a spell whose target is illegal does not resolve: it goes to its owner's graveyard; otherwise it
        does what its effect says (608.2) and then goes to its owner's graveyard, or onto the battlefield if it is a
        permanent spell."""
        info = self.spells[marker]
        card = info["card"]
        spell = self.catalog.objects[card]["spell"]
        self.stack.remove(marker)
        if self.state.zones.get(card) != "stack":
            return  # it left the stack some other way (its owner left the game, 800.4a)
        cause = {"spell": card}
        if "target" in spell and not self.target_legal(spell, info["target"]):
            self.record.add("spell_removed", spell=card, reason="illegal_target")
            self.happen([{"type": "move", "subject": card, "from": "stack", "to": "graveyard"}], cause)
            return
        self.record.add("spell_resolve_begin", spell=card)
        self.perform(spell.get("effect", []), Context(cause, card, info["caster"], None, info["target"]))
        to = BATTLEFIELD if spell.get("permanent") else "graveyard"
        if self.state.zones.get(card) == "stack":
            self.happen([{"type": "enter" if to == BATTLEFIELD else "move", "subject": card, "from": "stack",
                          "to": to}], cause)
        self.record.add("spell_resolve_end", spell=card)

    @staticmethod
    def spell_creates(do: str, ctx: Context) -> bool:
        """603.7a, 603.7d: a resolving spell creates the delayed triggered abilities its effect says (reflexive ones
        are not in the vocabulary for spells)."""
        return do == "create_delayed" and "spell" in ctx.cause and ctx.source == ctx.cause["spell"]

    def after_resolution(self, trigger: str) -> None:
        """An ability having resolved is an event that abilities triggering on an ability resolving watch (recorded
        only when some ability watches for it)."""
        if self.catalog.listens_resolved:
            entry = self.instances[trigger]
            self.happen([{"type": "resolved", "subject": entry["source"], "player": entry["controller"]}],
                        {"resolved": trigger})

    def take_action(self, trigger: str, used: bool) -> None:
        """603.2h: an instance of a printed "do this only once each turn" ability begins resolving (``used``: not
        declined, 603.5); option ``once_each_turn_taken`` says whether its action is taken for the turn now
        (``unless-declined``: unless declined; ``on-resolution``: even if declined) or at the first thing its effect
        does (``when-performed``: see :meth:`performed`)."""
        entry = self.instances[trigger]
        if not self.specs[trigger].get("once_each_turn") or "delayed" in entry:
            return
        key = (entry["source"], entry["ability"])
        reading = self.options.get("once_each_turn_taken", "unless-declined")
        if reading == "on-resolution" or (used and reading == "unless-declined"):
            self.used_this_turn.add(key)
        elif used and reading == "when-performed":
            self.once_pending = (trigger, key)

    def performed(self, trigger: str | None, happened: bool = True) -> None:
        """603.2h under ``once_each_turn_taken=when-performed``: the resolving instance ``trigger`` did something (an
        event that ``happened``, not prevented, or an ability created): its action is taken for the turn, before
        anything that does triggers."""
        if self.once_pending is not None and happened and trigger == self.once_pending[0]:
            self.used_this_turn.add(self.once_pending[1])
            self.once_pending = None

    def intervening_if_holds_on_resolution(self, trigger: str) -> bool:
        """608.2a: the intervening "if" again, "you" being the ability's controller as it triggered (603.3a)."""
        entry = self.instances[trigger]
        return self.catalog.holds(self.specs[trigger].get("intervening_if"), self.state, entry["source"],
                                  entry["controller"])

    def off_stack(self, trigger: str) -> None:
        """Take ``trigger`` off the stack: O(1) for the top object, which is almost always the one leaving."""
        if self.stack and self.stack[-1] == trigger:
            self.stack.pop()
        else:
            self.stack.remove(trigger)

    def remove_at_resolution(self, trigger: str, reason: str) -> None:
        self.off_stack(trigger)
        self.record.add("removed", trigger=trigger, reason=reason)
        self.note_futile(trigger)
        self.left_stack(trigger)

    def note_futile(self, trigger: str) -> None:
        """A state trigger instance left the stack without resolving: remember the game it triggered in (104.4b)."""
        if trigger in self.state_seen:
            entry = self.instances[trigger]
            self.futile[(entry["source"], entry["ability"])] = self.state_seen[trigger]

    def ask_optional(self, entry: dict[str, Any]) -> bool:
        answer = bool(self.chooser.optional(entry["controller"], entry))
        self.record.add("choice", player=entry["controller"], decision="optional", among=[entry["id"]], chosen=answer)
        return answer

    def left_stack(self, trigger: str, recheck: bool = True) -> None:
        """603.8: once a state trigger has left the stack, it can trigger again if its state still holds (checked at
        once unless ``recheck`` is False: the caller checks after removing several at once)."""
        entry = self.instances[trigger]
        key = (entry["source"], entry["ability"])
        if self.live_state.get(key) == trigger:
            del self.live_state[key]
            if recheck:
                self.announce(self.check_state_triggers(self.last_event_id()))

    # -- Performing effects ------------------------------------------------------------------------------------------

    def perform(self, effect: list[dict[str, Any]], ctx: Context) -> None:
        """Perform primitive actions in order. What triggers waits (117.2a): nothing goes on the stack here."""
        zones = self.state.zones
        for action in effect:
            do = action["do"]
            if do in ("move", "move_together", "move_target"):
                objects = action.get("objects") or [action.get("object", ctx.target)]
                to, frm = action["to"], action.get("from")
                if do == "move_target" and ctx.target is not None:
                    aimed = self.specs[ctx.trigger] if ctx.trigger is not None else self.catalog.objects[ctx.source]["spell"]
                    frm = aimed["target"].get("zone", BATTLEFIELD)  # 608.2b: only a legal target
                events = [{"type": movement_event(zones[o], to), "subject": o, "from": zones[o], "to": to}
                          for o in objects if zones.get(o, to) not in (to, UNCREATED) and frm in (None, zones[o])]
                if events:
                    self.happen(events, ctx.cause)
            elif do == "move_each":  # one event, each object to its own zone (e.g. some exiled, some to a hand)
                events = [{"type": movement_event(zones[m["object"]], m["to"]), "subject": m["object"],
                           "from": zones[m["object"]], "to": m["to"]} for m in action["moves"]
                          if zones.get(m["object"], m["to"]) not in (m["to"], UNCREATED)
                          and m.get("from") in (None, zones[m["object"]])]
                if events:
                    self.happen(events, ctx.cause)
            elif do == "signal":
                self.happen([{"type": "signal", "name": action["name"], "subject": action.get("subject", ctx.source),
                              "player": ctx.controller}], ctx.cause)
            elif do == "damage":
                event = self.damage_event(action, ctx)
                if event is not None:
                    self.happen([event], ctx.cause)
            elif do == "damage_together":  # one event, several occurrences (120.2, 603.2c)
                events = [self.damage_hit(hit, ctx, action.get("combat", False)) for hit in action["hits"]]
                if any(events):
                    self.happen([e for e in events if e], ctx.cause)
            elif do == "life":
                player = self.that_player(ctx.trigger) if action.get("that_player") else action.get("player")
                if action.get("target"):  # "target player gains N life": nothing when the target is no player
                    player = ctx.target if ctx.target in self.state.life else None
                amount = self.effect_amount(action, ctx)
                if player is not None and player not in self.state.left and amount is not None:
                    self.happen([{"type": "life", "player": player, "amount": amount}], ctx.cause)
            elif do == "gain_control":
                obj, player = action["object"], action["player"]
                if obj in zones and self.state.controllers[obj] != player and player not in self.state.left:
                    self.happen([{"type": "control", "subject": obj, "controller": player}], ctx.cause)
            elif do == "concede":
                if action["player"] not in self.state.left:
                    self.happen(self.catalog.leave_game_events(action["player"], self.state, set()), ctx.cause)
            elif do == "cast":
                if ctx.trigger is None and "spell" not in ctx.cause:  # a scripted action only
                    self.cast(action["object"], ctx)
            elif do == "counter":
                self.counter(ctx.target if action.get("target") else action.get("object"), ctx)
            elif do == "activate":
                self.activate(action["object"], action["ability"], ctx)
            elif do == "create_token":
                self.create_tokens(action["objects"], ctx)
            elif do in ("create_delayed", "reflexive"):
                if ctx.trigger is not None or self.spell_creates(do, ctx):  # 603.7a: created by a resolving ability
                    self.create_delayed(action, ctx)  # or spell (603.7d)
            else:
                raise Skipped(f"the mtg ruleset has no action {do!r}")

    def happen(self, group: list[dict[str, Any]], cause: dict[str, Any]) -> None:
        """Record a group of simultaneous events, then everything they trigger (603.2): object abilities, state
        triggers (603.8) and delayed abilities (603.7). A player who left the game takes their stack objects and
        waiting abilities with them (800.4a). Finally each new trigger is itself an event others may watch."""
        with Snapshot(self.state, PER_OBJECT) as before:  # the game just before the group
            self.happen_after(group, cause, before)

    def happen_after(self, group: list[dict[str, Any]], cause: dict[str, Any], before: State) -> None:
        """:meth:`happen`, given ``before``: the game just before the group (valid only during this call)."""
        recorded = []
        for fields in group:
            entry, _ = self.record.event(fields.pop("type"), cause, **fields)
            recorded.append(entry)
            self.state.apply(entry)
        if len(recorded) > 1:
            for entry in recorded:
                entry["group"] = recorded[0]["id"]
        if self.resolving is not None:
            self.resolution_events.extend(recorded)
            if self.once_pending is not None:
                self.performed(cause.get("resolution"), any(not e.get("prevented") for e in recorded))
        new = [self.new_trigger(source, ability, controller, event["id"])
               for event, source, ability, controller in self.how_many(list(self.triggered_by(recorded, before)),
                                                                       before)]
        new += self.check_state_triggers(recorded[-1]["id"])
        new += self.delayed_triggers(recorded, before)
        for player in self.state.left:
            if player not in before.left:
                self.cease(player)
        self.announce([t for t in new if t is not None])

    def triggered_by(self, group: list[dict[str, Any]], before: State):
        return self.catalog.triggered_abilities(group, before, self.state, look_back=self.LOOK_BACK,
                                                condition_looks_back=self.condition_looks_back)

    def condition_looks_back(self) -> bool:
        """Option ``leaves_intervening_if``: whether the intervening "if" of an ability judged by looking back in
        time (603.10a) is read on the game just before its event (``look-back``) or just after it (``after-event``).
        Asked only where the two games disagree."""
        return self.options.get("leaves_intervening_if", "look-back") == "look-back"

    # -- Leaving the game (800.4a) -------------------------------------------------------------------------------------

    def cease(self, player: str) -> None:
        """800.4a: the abilities a departed player controls on the stack (and waiting to go there) cease to exist,
        all at once: no state trigger is checked again until every one of them is gone (603.8); the others keep
        their places."""
        gone = [t for t in self.waiting if self.instances[t]["controller"] == player]
        gone += [t for t in self.stack if t in self.instances and self.instances[t]["controller"] == player
                 and t != self.resolving]
        for trigger in gone:
            if trigger in self.waiting:
                self.waiting.remove(trigger)
            else:
                self.stack.remove(trigger)
            self.record.add("removed", trigger=trigger, reason="player_left")
        for trigger in gone:
            self.left_stack(trigger, recheck=False)
        # their spells left the stack with the objects they own, in the event of their departure
        self.stack = [t for t in self.stack if t not in self.spells or self.state.zones.get(self.spells[t]["card"]) == "stack"]
        self.cease_activated(player)
        if self.options.get("departed_delayed", "cease") == "cease":
            for d in self.delayed:
                if d.alive and d.controller == player:
                    self.end_one(d, "player_left")
        if gone:
            self.announce(self.check_state_triggers(self.last_event_id()))


MtgEngine.game_class = Game
