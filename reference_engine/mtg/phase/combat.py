"""The script's actions checked before playing (:func:`check_script`), and scripted damage dealt together as phase's
own combat (issue 32 item 3). A ``damage_together`` whose hits are each dealt by a different creature on the
battlefield is combat damage in phase when it can be one (:func:`combat_plan`): every player passes priority with
the stack empty to the declare attackers step, the active player declares its creatures attacking (a real game
action), the other players declare the blocks the hits say (a creature dealing damage to an attacker, or dealt
damage by one, blocks it), and phase deals their combat damage, each creature its power, which is the hit's amount
(its card's power; 0 for a creature in the combat dealing none, 1 for every other card). The creatures are made able to attack with debug
``SetSummoningSickness`` as the game starts (phase has no game action for a creature having been there since the
turn began). The damage is written as the action's events, one event (a ``group``), in phase's order; after it, the
turn goes on to its second main phase once the stack is empty, where the script's later actions are played.

Combat and noncombat damage (510.2, 120.2a-b; issue 31's ``combat`` word): scripted damage marked ``combat`` is
phase's combat, and so is unmarked damage where no trigger has a ``combat`` filter (no ability of the scenario can
tell; the trace then writes it as the script does). Where one has (:func:`tells_combat`), unmarked damage is
noncombat damage: its source's activated ability "{0}: This creature deals N damage to each opponent." (:func:`pings`,
activated by the active player and resolved, a real game action), and the trace marks damage ``combat`` exactly where
phase reports ``is_combat``. Such a filter is worded "deals combat damage" / "deals noncombat damage" (phase's
``damage_kind``), with "to an opponent" for a ``player`` filter (:func:`damage_trigger`)."""

from __future__ import annotations

import json
from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.events import first_sba
from reference_engine.mtg.phase.signals import DRAWS
from reference_engine.mtg.phase.tokens import move_phrase, walk

# Where a scenario object may start, and where the script may move one (render.check_scenario; play.py)
PLACED = ("field", "hand", "graveyard", "deck", "exile")
SCRIPT_ZONES = PLACED
# what phase reports on the way to and through its combat damage step, besides the damage (no game event)
COMBAT = frozenset({"PriorityPassed", "PhaseChanged", "AttackersDeclared", "BlockersDeclared", "PermanentTapped",
                    "CombatDamageDealtToPlayer", "StackPushed"})


SKIP_COMBAT = ("phase adapter: damage dealt together is rendered only as combat damage: once, an action of its own, "
               "each hit a different creature on the battlefield from the start, an attacker of the active player's "
               "dealing damage to another player or to the one creature blocking it, a blocker to the attacker it "
               "blocks")

SKIP_NONCOMBAT = ("phase adapter: noncombat damage a scripted action deals, where a trigger's combat filter tells it "
                  "from combat damage, is rendered only as its source's activated ability \"{0}: This creature deals "
                  "N damage to each opponent.\": in a two-player game, one damage instruction of a creature the "
                  "active player controls on the battlefield from the start, to the other player")
# noncombat damage (120.2b) a creature deals by a scripted action: an activated ability of its own (pings)
PING = "{{0}}: This creature deals {} damage to each opponent."


def pings(scenario: dict[str, Any]) -> dict[str, list[int]]:
    """Each creature dealing the script's noncombat damage (:func:`noncombat`) -> its amounts, in the script's order,
    each once: each is an activated ability of the creature (:data:`PING`), activated by the active player and
    resolved, a real game action (phase deals no damage by a debug action). Raises Skipped outside that shape."""
    objects = {o["id"]: o for o in scenario["objects"]}
    active = scenario["active_player"]
    out: dict[str, list[int]] = {}
    for action in (a for step in scenario["script"] for a in step["actions"]):
        if not any(e.get("do") in ("damage", "damage_together") for e in action["effect"]) \
                or not noncombat(scenario, action):
            continue
        e = action["effect"][0]
        obj = objects.get(e.get("source"), {})
        if len(action["effect"]) != 1 or e.get("do") != "damage" or set(e) != {"do", "source", "player", "amount"} \
                or len(scenario["players"]) != 2 or action["by"] != active or obj.get("zone") != "field" \
                or obj.get("controller", obj.get("owner")) != active or e["player"] == active or e["amount"] < 1:
            raise Skipped(SKIP_NONCOMBAT)
        amounts = out.setdefault(e["source"], [])
        amounts += [] if e["amount"] in amounts else [e["amount"]]
    return out


def damage_trigger(trigger: dict[str, Any], names: Any) -> str | None:
    """A damage trigger with a ``combat`` or ``player`` filter as Oracle text phase parses (its ``DamageDone`` with
    ``damage_kind`` CombatOnly / NoncombatOnly / Any and a target typed "Opponent"): "Whenever this creature" or
    "Whenever a creature you control" (every source of damage in the scenario a creature card) "deals [combat |
    noncombat] damage[ to an opponent]" (510.2, 120.2a-b). None for any other trigger (the caller words it or
    skips it)."""
    subject = trigger.get("subject", "any")
    if trigger.get("event") != "damage" or not {"combat", "player"} & set(trigger) \
            or set(trigger) - {"event", "subject", "combat", "player", "controller", "type"} \
            or trigger.get("player", "opponent") != "opponent" or trigger.get("combat") not in (None, True, False):
        return None
    if subject == "self" and trigger.get("controller", "you") == "you" and "type" not in trigger:
        who = "Whenever this creature"  # its source is controlled by the ability's controller: "you control" inert
    elif subject == "any" and (trigger.get("controller"), trigger.get("type")) == ("you", "creature") \
            and names is not None and names.sources is not None \
            and all("creature" in names.card_types[o] for o in names.sources):  # the filter reads the source only
        who = "Whenever a creature you control"
    else:
        return None
    kind = {True: "combat damage", False: "noncombat damage", None: "damage"}[trigger.get("combat")]
    return f"{who} deals {kind}{' to an opponent' if 'player' in trigger else ''}"


def combat_plan(scenario: dict[str, Any]) -> tuple[dict[str, str], dict[str, str], dict[str, int]]:
    """The combat of the script's ``damage_together``: attackers (-> the player each attacks), blockers (-> the
    attacker each blocks) and powers (each creature's hit amount, 0 for one dealing none); empty when the script has
    none. Raises Skipped unless it is one action of its own, once in the script, each hit a different source on the
    battlefield from the start: the active player's creature hitting another player (unblocked) or the one creature
    blocking it, another player's creature hitting the attacker it blocks."""
    objects = {o["id"]: o for o in scenario["objects"]}
    actions = [a for step in scenario["script"] for a in step["actions"]
               if any(e.get("do") == "damage_together" or e.get("do") == "damage" and "source" in e
                      for e in a["effect"])]
    if any(marked_combat(a) is None for a in actions):
        raise Skipped("phase adapter: a scripted action dealing combat and noncombat damage at once is not rendered")
    actions = [a for a in actions if not noncombat(scenario, a)]
    if not actions:
        return {}, {}, {}
    hits = combat_hits_of(actions[0]) or []
    sources = [h.get("source") for h in hits]
    if len(actions) != 1 or not hits or len(set(sources)) != len(sources) \
            or any(set(h) - {"combat"} not in ({"source", "player", "amount"}, {"source", "object", "amount"})
                   or h["amount"] < 1
                   or any(objects.get(h.get(k), {}).get("zone", "field") != "field" for k in ("source", "object"))
                   or h["source"] not in objects or h.get("object", h["source"]) not in objects for h in hits):
        raise Skipped(SKIP_COMBAT)
    active = scenario["active_player"]
    ctrl = {o: objects[o].get("controller", objects[o]["owner"]) for o in objects}
    attacks: dict[str, str] = {}
    blocks: dict[str, str] = {}
    for h in hits:
        src, tgt = h["source"], h.get("object")
        attacker, blocker = (src, tgt) if ctrl[src] == active else (tgt, src)
        if tgt is None and (ctrl[src] != active or h["player"] == active):
            raise Skipped(SKIP_COMBAT)
        if tgt is None:
            attacks[src] = h["player"]
            continue
        if ctrl[attacker] != active or ctrl[blocker] == active or blocks.get(blocker, attacker) != attacker:
            raise Skipped(SKIP_COMBAT)
        blocks[blocker] = attacker
        attacks[attacker] = ctrl[blocker]
    unblocked = {h["source"] for h in hits if "player" in h}
    if unblocked & set(blocks.values()) or len(set(blocks.values())) != len(blocks) \
            or any(attacks[blocks[b]] != ctrl[b] for b in blocks):
        raise Skipped(SKIP_COMBAT)
    power = {o: 0 for o in [*attacks, *blocks]} | {h["source"]: h["amount"] for h in hits}
    return attacks, blocks, power


def tells_combat(scenario: dict[str, Any]) -> bool:
    """Whether a trigger of the scenario (printed, or of an ability an effect creates) has a ``combat`` filter, which
    tells combat damage from noncombat damage (510.2, 120.2a-b)."""
    return any(isinstance(t, dict) and "combat" in t for node in walk(scenario["objects"]) for k, t in node.items()
               if k == "trigger")


def marked_combat(action: dict[str, Any]) -> bool | None:
    """Whether the scripted ``action``'s damage is marked ``combat`` (True), not marked or none dealt (False), or
    both (None)."""
    marks = {bool(e.get("combat")) for e in action["effect"] if e.get("do") in ("damage", "damage_together")}
    return None if len(marks) > 1 else bool(marks and marks.pop())


def noncombat(scenario: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether a scripted damage ``action`` is noncombat damage that must not be played as phase's combat: not
    marked ``combat`` where a trigger's ``combat`` filter could tell (:func:`tells_combat`). Unmarked damage where
    none could is played as phase's combat (no ability of the scenario sees the difference)."""
    return marked_combat(action) is False and tells_combat(scenario)


def writes_combat(scenario: dict[str, Any]) -> bool:
    """Whether the trace marks phase's combat damage ``combat`` (phase's ``is_combat``): where a trigger could tell
    it (:func:`tells_combat`) or the script marks some. Elsewhere unmarked damage played as phase's combat is written
    as the script wrote it, and no other damage is combat damage."""
    return tells_combat(scenario) or any(e.get("combat") for step in scenario["script"] for a in step["actions"]
                                         for e in a["effect"])


def combat_hits_of(action: dict[str, Any], scenario: dict[str, Any] | None = None) -> list[dict[str, Any]] | None:
    """The hits of ``action`` if it is combat damage: a ``damage_together`` alone (one event), or only ``damage``
    instructions each naming its source (one event each, before any state-based action), marked ``combat`` or, where
    no trigger of ``scenario`` could tell, not (:func:`noncombat`); else None."""
    effects = action["effect"]
    if scenario is not None and noncombat(scenario, action):
        return None
    if len(effects) == 1 and effects[0].get("do") == "damage_together":
        return list(effects[0].get("hits") or [])
    if effects and all(e.get("do") == "damage" and "source" in e for e in effects):
        return [{k: v for k, v in e.items() if k != "do"} for e in effects]
    return None


def combat_hits(scenario: dict[str, Any]) -> dict[str, int]:
    """Each creature of the script's combat (:func:`combat_plan`) -> its power (its hit's amount, or 0)."""
    return combat_plan(scenario)[2]


def check_script(scenario: dict[str, Any], names: Any) -> None:
    """Raise Skipped unless every scripted action is rendered: a move between zones phase places cards in, a control
    change, a concession, tokens created, a signal, the token maker's move of several objects, or combat damage."""
    combat_hits(scenario)
    pings(scenario)
    for step in scenario["script"]:
        for action in step["actions"]:
            if action["by"] != scenario["active_player"] and any(
                    e.get("do") != "move" and (e.get("do") != "signal" or e.get("name") not in DRAWS)
                    for e in action["effect"]):
                raise Skipped("phase adapter: scripted actions by a non-active player are rendered only as moves "
                              "between zones (debug MoveToZone: phase has no game action for them) and draws")
            for effect in action["effect"]:
                # a move between any two zones phase places cards in (issue 32 item 3): debug MoveToZone with
                # simulate true, or PlayLand from the active player's hand (play.py)
                ok = effect.get("do") == "move" and effect.get("from") in SCRIPT_ZONES \
                    and effect.get("to") in SCRIPT_ZONES and effect.get("from") != effect.get("to") \
                    or effect.get("do") == "gain_control" and effect.get("object") in names.types \
                    and effect.get("player") in scenario["players"] \
                    or effect.get("do") == "concede" and effect.get("player") in scenario["players"]\
                    or effect.get("do") in ("create_token", "signal", "damage_together") \
                    or effect.get("do") == "damage" and "source" in effect \
                    or effect.get("do") == "move_together" and bool(move_phrase(
                        (tuple(effect["objects"]), effect.get("from"), effect["to"]),
                        {o: names.all(o) for o in effect["objects"]}))  # tokens.py: the token maker's ability
                if not ok:
                    raise Skipped(f"phase adapter: scripted action {json.dumps(effect, sort_keys=True)} is outside "
                                  f"the rendered subset")


class Combat:
    """Scripted combat damage for a :class:`~reference_engine.mtg.phase.play.Play` (a mixin)."""

    def ready_attackers(self) -> None:
        """As the game starts: the attackers of the script's combat can attack (debug SetSummoningSickness)."""
        for obj in combat_plan(self.scenario)[0]:
            self.apply(self.seat[self.active], {"type": "Debug", "data": {"type": "SetSummoningSickness", "data": {
                "object_id": self.to_phase[obj], "sick": False}}})

    def pass_empty(self, until: str) -> list[dict[str, Any]]:
        """Every player passes priority with the stack empty until phase reports ``PhaseChanged`` to ``until`` or
        waits for something else; returns the events, each of which must be bookkeeping of the turn's steps."""
        events: list[dict[str, Any]] = []
        while not any(e["type"] == "PhaseChanged" and e["data"]["phase"] == until for e in events):
            if self.waiting["type"] != "Priority" or self.game.stack():
                break
            events += self.apply(self.waiting["data"]["player"], {"type": "PassPriority"})
        odd = [e["type"] for e in events if e["type"] not in COMBAT or e["type"] == "StackPushed"]
        if odd:
            raise Skipped(f"phase adapter: phase reported {odd} on the way to {until}")
        return events

    def combat_damage(self, hits: list[dict[str, Any]], together: bool, ref: list[int]) -> list[dict[str, Any]]:
        """The script's combat damage, ``hits`` (:func:`combat_hits_of`), as phase's combat (see the module): its
        damage written as the action's events, one group if dealt ``together``. Returns the state-based action events
        phase reported after it."""
        if self.game.state()["state"]["phase"] != "PreCombatMain" or self.game.stack() \
                or self.waiting != {"type": "Priority", "data": {"player": self.seat[self.active]}}:
            raise Skipped("phase adapter: combat damage is dealt when the turn is not in its first main phase with "
                          "the stack empty and the active player having priority")
        self.pass_empty("DeclareAttackers")
        if self.waiting["type"] != "DeclareAttackers":
            raise Skipped(f"phase adapter: phase waits for {self.waiting['type']} instead of attackers")
        plan, blocks, _ = combat_plan(self.scenario)
        attacks = [[self.to_phase[a], {"type": "Player", "data": self.seat[p]}] for a, p in plan.items()]
        events = self.apply(self.seat[self.active], {"type": "DeclareAttackers", "data": {"attacks": attacks}})
        while not any(e["type"] == "DamageDealt" for e in events):
            if self.waiting["type"] == "DeclareBlockers":
                seat = self.waiting["data"]["player"]
                mine = [[self.to_phase[b], self.to_phase[a]] for b, a in blocks.items()
                        if self.control[b] == self.players[seat]]
                events += self.apply(seat, {"type": "DeclareBlockers", "data": {"assignments": mine}})
            elif self.waiting["type"] == "Priority" and not self.game.stack():
                events += self.apply(self.waiting["data"]["player"], {"type": "PassPriority"})
            else:
                raise Skipped(f"phase adapter: phase waits for {self.waiting['type']} before combat damage")
        start = next(n for n, e in enumerate(events) if e["type"] in ("LifeChanged", "DamageDealt"))
        if any(e["type"] not in COMBAT for e in events[:start]):
            raise Skipped(f"phase adapter: phase reported {[e['type'] for e in events[:start]]} before combat damage")
        rest = [e for e in events[start:] if e["type"] not in COMBAT or e["type"] == "PriorityPassed"]
        cut = first_sba(rest)
        recorded = self.record_events(rest[:cut], {"action": ref})
        dealt = sorted((e["subject"], e.get("player") or e.get("target"), e["amount"]) for e in recorded
                       if e["type"] == "damage")
        if len(recorded) != len(dealt) or dealt != sorted((h["source"], h.get("player") or h.get("object"),
                                                           h["amount"]) for h in hits):
            raise EngineError("errored", f"phase's combat dealt {dealt}, not the script's {hits}")
        for e in recorded if together else ():
            e["group"] = recorded[0]["id"]
        return rest[cut:]

    def ping(self, effect: dict[str, Any], ref: list[int]) -> list[dict[str, Any]]:
        """The script's noncombat damage ``effect`` (:func:`pings`): its source's activated ability activated by the
        active player and resolved (its stack entry and resolution are phase's means to the action, not written);
        the damage written as the action's event. Returns the state-based action events phase reported after it."""
        src = effect["source"]
        if self.zones.get(src) != "field" or self.control[src] != self.active:
            raise Skipped(f"phase adapter: {src} deals noncombat damage off the battlefield or under another "
                          f"player's control than the active one (its activated ability is the active player's)")
        events = self.activate_maker(pings(self.scenario)[src].index(effect["amount"]), "noncombat damage is dealt",
                                     self.to_phase[src])
        cut = first_sba(events)
        recorded = self.record_events(events[:cut], {"action": ref})
        dealt = [(e["type"], e.get("subject"), e.get("player"), e.get("amount"), e.get("combat")) for e in recorded]
        if dealt != [("damage", src, effect["player"], effect["amount"], None)]:
            raise EngineError("errored", f"phase's activated ability of {src} did {dealt}, not {effect}")
        return events[cut:]

    def after_combat(self, ref: list[int]) -> None:
        """After the combat's action (``ref``) has settled (the stack empty): on to the second main phase, where the
        script's later actions are played; not when the next is the end of combat's signal (signals.py)."""
        following = [a for step in self.scenario["script"][ref[0]:] for a in step["actions"]][ref[1] + 1:]
        if following and following[0]["effect"] == [{"do": "signal", "name": "end_of_combat"}]:
            return
        if self.game.state()["state"]["phase"] in ("CombatDamage", "EndCombat"):
            self.pass_empty("PostCombatMain")
        if self.game.state()["state"]["phase"] != "PostCombatMain":
            raise Skipped("phase adapter: the turn did not reach its second main phase after combat")
