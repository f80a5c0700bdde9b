"""What the adapter cannot see while it plays: where phase shows nothing that would tell what the scenario means
(an ability removed with no legal target, a departed player's waiting ability, a delayed ability a debug move
does not fire, a "When you do" that is no death), the scenario is ``Skipped``, never guessed either way. What
can be told before playing is kept out of the generated scenarios by :mod:`reference_engine.mtg.phase.profile`."""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.mtg.phase.events import may_trigger
from reference_engine.mtg.phase.render import reflexive_victim

class Unseen:
    """Checks skipping what phase does not show, for a :class:`~reference_engine.mtg.phase.play.Play` (a mixin)."""

    def delayed_after_debug(self, events: list[dict[str, Any]]) -> None:
        """phase's debug MoveToZone (the scripted actions) fires printed triggers but never delayed ones: a scripted
        event a live delayed ability may trigger on is Skipped (never reported as a missed trigger)."""
        for d in self.live_delayed:
            if not d.get("ended") and any(may_trigger(d["trigger"], e, d["source"]) for e in events):
                raise Skipped(f"phase adapter: a scripted event may trigger delayed ability {d['ability']}, and "
                              f"phase's debug moves (the script) do not fire delayed abilities")

    def reflexive_check(self, spec: dict[str, Any]) -> None:
        """Before an ability with a reflexive ability resolves: phase's "When you do" triggers when the "destroy"
        before it destroyed something (or, in an optional ability, when the choice was made); the scenario's
        reflexive ability triggers on its object's death earlier in the resolution (603.12a). They agree when the
        object is on the battlefield as the resolution begins and no earlier instruction names it (its "destroy"
        then kills it); otherwise Skipped."""
        effect = spec.get("effect") or []
        victim = reflexive_victim(effect)
        if victim is None:
            return
        earlier = any(a.get("object") == victim or victim in (a.get("objects") or ()) for a in effect[:-2])
        if earlier or spec.get("optional") and self.zones.get(victim) != "field":
            raise Skipped(f"phase adapter: {spec['id']}'s reflexive ability watches {victim}, which "
                          f"{'an earlier instruction names' if earlier else 'is not on the battlefield'}: phase's "
                          f"'When you do' does not watch a death")

    def unseen_of_departed(self) -> None:
        """Before a player receives priority: a player who left the game since the last priority may have had
        abilities triggered by the events before they left (their printed abilities, a reflexive or a live delayed
        one), waiting to be put on the stack, which they then never are (800.4a; 603.3: no player left to put
        them there). phase decides what triggered only once the resolution and the state-based actions after it are
        over (violation 1), by when the player has gone, and shows nothing of such an ability (no prompt, no stack
        entry: docs/engines/phase-triage/departed_players_waiting_ability.py), so whether it triggered cannot be
        seen: Skipped unless phase showed it (never written as triggered, never reported as missed)."""
        if not self.left_since:
            return
        left, self.left_since = self.left_since, []
        new = [e for e in self.entries if e["kind"] == "event" and int(e["id"][1:]) > self.seen_at_priority[0]]
        shown = [t for t in self.triggers.values() if int(t["id"][1:]) > self.seen_at_priority[1]]
        for player, gone in left:
            before = [e for e in new if int(e["id"][1:]) < gone]
            unseen = [a["id"] for o in self.objects.values() if self.control.get(o["id"]) == player
                      for a in o.get("abilities", ()) if not any(t["ability"] == a["id"] for t in shown)
                      and any(may_trigger(a["trigger"], e, o["id"]) for e in before)]
            unseen += [r["ability"] for r in self.reflexive_waiting if r["controller"] == player]
            unseen += [d["ability"] for d in self.live_delayed if d["controller"] == player and not d.get("ended")
                       and not any(t.get("delayed") == d["create"] for t in shown)
                       and any(may_trigger(d["trigger"], e, d["source"]) for e in before)]
            if unseen:
                raise Skipped(f"phase adapter: {player} left the game before their abilities {unseen} could go on "
                              f"the stack, and they may have triggered on what happened before: phase shows nothing "
                              f"of such an ability, so whether it triggered cannot be seen")

    def unseen_without_target(self) -> None:
        """Before a player receives priority after new events: an ability targeting objects with no legal target
        left may have triggered and been removed as it would go on the stack (603.3d); phase then reports nothing of
        it unless it offered it in an ``OrderTriggers`` prompt (see ``removed_unplaced``), so whether it triggered
        cannot be seen: Skipped (never guessed either way)."""
        events, triggers = self.counters["E"], self.counters["T"]
        if events == self.seen_at_priority[0]:
            return
        new = [e for e in self.entries if e["kind"] == "event" and int(e["id"][1:]) > self.seen_at_priority[0]]
        seen = {e["ability"] for e in self.triggers.values() if int(e["id"][1:]) > self.seen_at_priority[1]}
        self.seen_at_priority = (events, triggers)
        for obj in self.objects.values():
            for ability in obj.get("abilities", ()):
                candidates = (ability.get("target") or {}).get("candidates")
                # its source must have been on the battlefield at the event (it is now, or it left meanwhile)
                working = self.zones.get(obj["id"]) == "field" or any(
                    e["type"] == "leave" and e.get("subject") == obj["id"] for e in new)
                if candidates and working and ability["id"] not in seen \
                        and not any(self.zones.get(c) == "field" for c in candidates) \
                        and any(may_trigger(ability["trigger"], e, obj["id"]) for e in new):
                    raise Skipped(f"phase adapter: {ability['id']} targets {candidates}, none on the battlefield: "
                                  f"phase reports nothing of an ability it removes for want of a target unless it "
                                  f"asked for an order with it, so whether it triggered cannot be seen")
