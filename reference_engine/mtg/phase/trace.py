"""Reading back, events: what phase reports (its events, in its order) written as trace entries: game events,
players leaving the game, state-based action checks. Nothing is moved or dropped; an event the adapter cannot
map is an error."""

from __future__ import annotations

import json
from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.events import BOOKKEEPING, NEUTRAL, ZONES, departures, is_sba_move

class TraceWriter:
    """The trace entries of a :class:`~reference_engine.mtg.phase.play.Play` (a mixin: the state is the play's)."""

    def new_id(self, prefix: str) -> str:
        self.counters[prefix] += 1
        return f"{prefix}{self.counters[prefix]}"

    def add(self, kind: str, **fields: Any) -> dict[str, Any]:
        entry = {"kind": kind, **fields}
        self.entries.append(entry)
        return entry

    def event(self, type_: str, cause: dict[str, Any], **fields: Any) -> dict[str, Any]:
        self.position += 1
        entry = self.add("event", id=self.new_id("E"), position=self.position, type=type_, cause=cause,
                         **{k: v for k, v in fields.items() if v is not None})
        if entry.get("subject") in self.zones and entry.get("to"):
            if entry["to"] != "field":  # off the battlefield a card is its owner's (phase gives it back too)
                self.control[entry["subject"]] = self.objects[entry["subject"]]["owner"]
            self.zones[entry["subject"]] = entry["to"]
        return entry

    def record_events(self, events: list[dict[str, Any]], cause: dict[str, Any],
                      sba_cause: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Phase events -> trace events, in exactly the order phase reported them (nothing is moved or dropped).

        A creature destroyed with no source (``CreatureDestroyed`` with ``source_id: null``) is a state-based action:
        its zone change goes under ``sba_cause``; when phase reports one where the adapter expects none (``sba_cause``
        None, i.e. in the middle of a resolution or of a scripted action), an ``sba_check`` entry is written at that
        very point, so the trace shows a state-based action performed where phase performed it (704.4). A player's
        life loss reported with the damage that caused it is one damage event. Bookkeeping events (priority passes,
        ``EffectResolved``...) are not game events; any other event the adapter cannot map is an error, never dropped.
        """
        out = []
        sba_moves = {e["data"]["object_id"] for e in events
                     if e["type"] == "CreatureDestroyed" and (e.get("data") or {}).get("source_id") is None}
        leaving = departures(events)
        lost = [k for k, e in enumerate(events) if e["type"] == "PlayerLost"]
        if len(lost) > 1 and any(k not in leaving for k in lost):
            # phase reports every loss of the check first, then each departure: which objects leave with whom is
            # not written as one event per player yet
            raise Skipped("phase adapter: several players lost the game at once (phase reports their losses "
                          "together, then each departure; not mapped)")
        group: str | None = None
        for k, e in enumerate(events):
            kind, data = e["type"], e.get("data") or {}
            if k in leaving:
                seat = leaving[k]
                if group is None:  # the first event of the departure: the player leaves, then what they own
                    event_cause = cause if sba_cause is None else sba_cause
                    if sba_cause is None and kind == "PlayerLost":
                        event_cause = {"sba": self.sba_check()}
                    group = self.event("player_leaves", event_cause, player=self.players[seat])["id"]
                    self.left.add(self.players[seat])
                    self.left_since.append((self.players[seat], int(group[1:])))
                    self.entries[-1]["group"] = group
                    group_cause = event_cause
                if kind == "ZoneChanged":
                    obj = self.to_scenario.get(data["object_id"])
                    frm = ZONES.get(data["from"])
                    if obj is None or frm is None:
                        raise EngineError("errored", f"phase moved an object the adapter cannot map: {data}")
                    out.append(self.event("leave" if frm == "field" else "move", group_cause, subject=obj,
                                          group=group, **{"from": frm, "to": "removed"}))
                elif kind == "PlayerEliminated":
                    self.departed(self.players[seat], group, group_cause)
                    group = None
                continue
            entry = self.record_one(k, events, cause, sba_cause, sba_moves)
            if entry is not None:
                out.append(entry)
        return out

    def record_one(self, k: int, events: list[dict[str, Any]], cause: dict[str, Any],
                   sba_cause: dict[str, Any] | None, sba_moves: set[int]) -> dict[str, Any] | None:
        """``events[k]``, not part of a player's departure, as a trace event (returned; None if it writes none): a
        zone change (under the state-based action's cause if it is one), a life change, damage; the creation of a
        delayed ability; bookkeeping. Raises EngineError for an event it cannot map."""
        kind, data = events[k]["type"], events[k].get("data") or {}
        if kind == "ZoneChanged":
            obj = self.to_scenario.get(data["object_id"])
            frm, to = ZONES.get(data["from"]), ZONES.get(data["to"])
            if obj is None or frm is None or to is None:
                raise EngineError("errored", f"phase moved an object the adapter cannot map: {data}")
            is_sba = data["object_id"] in sba_moves and to == "graveyard" and frm == "field"
            event_cause = cause
            if is_sba:
                event_cause = sba_cause if sba_cause is not None else {"sba": self.sba_check()}
            etype = "enter" if to == "field" else "leave" if frm == "field" else "move"
            return self.event(etype, event_cause, subject=obj, **{"from": frm, "to": to})
        if kind == "LifeChanged":
            player = self.players[data["player_id"]]
            nxt = events[k + 1] if k + 1 < len(events) else None
            if nxt and nxt["type"] == "DamageDealt" and nxt["data"].get("target") == {"Player": data["player_id"]} \
                    and nxt["data"]["amount"] == -data["amount"]:
                return None  # reported again, right after, as the damage that caused it
            return self.event("life", cause, player=player, amount=data["amount"])
        if kind == "DamageDealt":
            target = data.get("target") or {}
            fields: dict[str, Any] = {"subject": self.to_scenario.get(data.get("source_id")), "amount": data["amount"]}
            if "Player" in target:
                fields["player"] = self.players[target["Player"]]
            elif "Object" in target:
                fields["target"] = self.to_scenario.get(target["Object"])
            if data.get("is_combat") and self.combat_marks:  # combat.py: writes_combat (510.2, 120.2a)
                fields["combat"] = True
            return self.event("damage", cause, **fields)
        if kind == "ControllerChanged" and data.get("object_id") in self.to_scenario:  # a control-changing effect
            obj = self.to_scenario[data["object_id"]]
            self.control[obj] = self.players[data["new_controller"]]
            return self.event("control", cause, subject=obj, controller=self.players[data["new_controller"]])
        if kind == "EffectResolved" and data.get("kind") == "CreateDelayedTrigger":
            if "resolution" not in cause:
                raise EngineError("errored", "phase created a delayed ability outside any resolution")
            self.created_delayed(cause["resolution"])
        elif kind not in BOOKKEEPING:
            raise EngineError("errored", f"phase reported a {kind} event the adapter cannot map into the trace "
                                         f"(it never drops one): {json.dumps(data)[:200]}")
        return None

    def departed(self, player: str, group: str, cause: dict[str, Any]) -> None:
        """After phase's report of ``player`` leaving (800.4a): their abilities on phase's stack are gone, each is
        written removed (``player_left``). A permanent they controlled but do not own is skipped (see below)."""
        held = [obj for obj, controller in sorted(self.control.items())
                if controller == player and self.objects[obj]["owner"] != player and self.zones.get(obj) != "removed"]
        if held:
            # debug SetController is no control-changing effect that could end (800.4a): phase exiles such a
            # permanent as the last step of the departure, where the scenario's control change ends (and gave a card
            # that left the battlefield back to its owner long before, where the scenario's ends only now)
            raise Skipped(f"phase adapter: {player} left the game controlling {held}, which debug SetController gave "
                          f"them (no control-changing effect to end: phase exiles them)")
        on_stack = {item["id"] for item in self.game.stack()}
        pushed = [e["trigger"] for e in self.entries if e["kind"] == "stack_push"]
        done = {e["trigger"] for e in self.entries if e["kind"] in ("resolve_begin", "removed")}
        of_trigger = {t: i for i, t in self.known_stack.items()}
        for trigger in pushed:
            if trigger not in done and of_trigger[trigger] not in on_stack:
                if self.triggers[trigger]["controller"] != player:
                    raise EngineError("errored", f"{trigger} left phase's stack as {player} left the game, but it is "
                                                 f"controlled by {self.triggers[trigger]['controller']}")
                self.add("removed", trigger=trigger, reason="player_left")
        if any(e["controller"] == player for e in self.pending):
            # phase asked them to order abilities and performed, with the answer, the state-based actions in which
            # they lost: by the rules those abilities never go on the stack (800.4a), which phase shows only by
            # never pushing them; how phase drops them is not mapped (as for the departed player's waiting
            # abilities, unseen.py): skipped, never guessed
            raise Skipped(f"phase adapter: {player} left the game while phase was asking them to order abilities "
                          f"{[e['ability'] for e in self.pending if e['controller'] == player]} (their removal is "
                          f"not mapped)")

    def sba_check(self) -> str:
        check = self.new_id("S")
        self.add("sba_check", id=check)
        return check

    def record_sbas(self, events: list[dict[str, Any]], check: str) -> None:
        """Events phase reported outside any resolution or action: they must be state-based actions, performed by
        the check ``check``, its creatures' deaths one event; another check follows (the one that finds nothing
        more to do)."""
        leaving = departures(events)
        strays = [e["type"] for k, e in enumerate(events) if e["type"] not in BOOKKEEPING and e["type"] not in NEUTRAL
                  and not is_sba_move(e, events) and k not in leaving]
        if strays:
            raise EngineError("errored", f"phase reported {strays} outside any resolution or action, and outside any "
                                         f"state-based action; the adapter cannot place them")
        recorded = self.record_events(events, {"sba": check}, sba_cause={"sba": check})
        # 704.3: the check's actions are performed at once: its creatures' deaths are one event (a group), as the
        # reference engine writes them (a player's departure is a group of its own)
        deaths = [e for e in recorded if e["type"] == "leave" and "group" not in e]
        for e in deaths if len(deaths) > 1 else ():
            e["group"] = deaths[0]["id"]
        self.sba_check()
