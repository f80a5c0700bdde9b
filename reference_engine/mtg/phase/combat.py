"""The script's actions checked before playing (:func:`check_script`), and scripted damage dealt together as phase's
own combat (issue 32 item 3). A ``damage_together`` whose hits are each dealt by a different creature on the
battlefield is combat damage in phase when it can be one (:func:`combat_plan`): every player passes priority with
the stack empty to the declare attackers step, the active player declares its creatures attacking (a real game
action), the other players declare the blocks the hits say (a creature dealing damage to an attacker, or dealt
damage by one, blocks it), and phase deals their combat damage, each creature its power, which is the hit's amount
(its card's power; 0 for a creature in the combat dealing none, 1 for every other card). The creatures are made able to attack with debug
``SetSummoningSickness`` as the game starts (phase has no game action for a creature having been there since the
turn began). The damage is written as the action's events, one event (a ``group``), in phase's order; after it, the
turn goes on to its second main phase once the stack is empty, where the script's later actions are played."""

from __future__ import annotations

import json
from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.events import first_sba
from reference_engine.mtg.phase.tokens import move_phrase

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
    if not actions:
        return {}, {}, {}
    hits = combat_hits_of(actions[0]) or []
    sources = [h.get("source") for h in hits]
    if len(actions) != 1 or not hits or len(set(sources)) != len(sources) \
            or any(set(h) not in ({"source", "player", "amount"}, {"source", "object", "amount"}) or h["amount"] < 1
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


def combat_hits_of(action: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The hits of ``action`` if it is combat damage: a ``damage_together`` alone (one event), or only ``damage``
    instructions each naming its source (one event each, before any state-based action); else None."""
    effects = action["effect"]
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
    for step in scenario["script"]:
        for action in step["actions"]:
            if action["by"] != scenario["active_player"]:
                raise Skipped("phase adapter: scripted actions by a non-active player are not rendered")
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
