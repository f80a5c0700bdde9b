"""Set pieces for the shapes issue 30 found the stream never built, each on fresh objects nothing else in the scenario
names, its scripted actions put first in the script's last step after every other set piece is drawn (so the stream
of the others is as without them):

* a card in a graveyard whose ability works from there (``active_in: graveyard``) watching a creature die, and a
  permanent whose graveyard-only ability watches its own card die (it looks back, 603.10a, to the battlefield where
  that ability does not work: it must not trigger);
* a card going from a hand to a graveyard (a discard), watched by a permanent ("whenever a card is put into a
  graveyard from a hand");
* two cards leaving a graveyard together, watched by a "whenever one or more cards leave a graveyard" permanent
  (603.2c once, looking back, 603.10a);
* a "do this only once each turn" ability (603.2h) whose own effect causes its trigger event again (a creature
  dying);
* an ability with an intervening 'if' that also targets (603.4, 603.3d), its condition false by the time it would
  resolve: the signal ``aim``, which nothing else sends.

Each answers with a life change, and every move goes forward, so nothing loops. The chances
are low: each shape needs only a few scenarios in a run (benchmarks/bench_situated_cost.py states the cost).
"""

from __future__ import annotations

from typing import Any


CHANCE = 8  # percent, for a shape the swarm's features rarely switch off
GATED_CHANCE = 20  # percent, for a shape needing features the swarm often switches off (graveyards, batching)
LEAVES_CHANCE = 60  # one or more cards leaving a graveyard: five swarm features must all be on, so seldom asked
WATCHERS_CHANCE = 14  # the graveyard watchers: half the shape (the card in a graveyard) needs such features
AIM = "aim"
CHAIN = "chain"  # the signal of the watcher chain (a search shape), which nothing else sends


class SituatedPieces:
    """The issue 30 set pieces of a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin)."""

    def situated_pieces(self, last: list[dict[str, Any]], active: str, players: list[str],
                        doomed: list[str]) -> None:
        """Draw the set pieces, in order, and put their scripted actions first in ``last``."""
        stayers = [p for p in players if p not in doomed]
        effects = self.graveyard_watchers(stayers) + self.discard(stayers) + self.graveyard_leaves(stayers)
        effects += self.echo(stayers) + self.aimed_if(stayers)
        last[0:0] = [{"by": active, "effect": effect} for effect in effects]

    def _answer(self, owner: str) -> list[dict[str, Any]]:
        """A life change: cheap to play (a top-level signal would set off the backbone's abilities again)."""
        return [{"do": "life", "player": owner, "amount": 1}]

    def _card(self, owner: str, zone: str) -> dict[str, Any]:
        card = self.fresh(owner)
        card["zone"] = zone
        return card

    def graveyard_watchers(self, stayers: list[str]) -> list[list[dict[str, Any]]]:
        """"Whenever a creature dies, ..." on a card in a graveyard that works from there, and "when this dies, ..."
        working from the graveyard only on a permanent, then both creatures die together or one after the other. The
        effects."""
        src = self.source
        if "graveyard_triggers" in self.no or not src.chance(WATCHERS_CHANCE):  # both work from a graveyard
            return []
        owner = src.pick(stayers)
        if "exile" not in self.no:  # a card starting in a graveyard
            resident = self._card(owner, "graveyard")
            resident["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "leave", "to": "graveyard"},
                                      "active_in": ["graveyard"], "effect": self._answer(owner)}]
        self_watcher = self.fresh(src.pick(stayers))
        self_watcher["abilities"] = [{"id": self.ability_id(), "trigger": {
            "event": "leave", "subject": "self", "to": "graveyard"}, "active_in": ["graveyard"],
            "effect": self._answer(self_watcher["owner"])}]
        victim = self.fresh(src.pick(stayers))
        dying = [victim["id"], self_watcher["id"]]
        if "move_together" not in self.no and src.chance(50):
            return [[{"do": "move_together", "objects": dying, "from": "field", "to": "graveyard"}]]
        return [[{"do": "move", "object": obj, "from": "field", "to": "graveyard"}] for obj in src.permutation(dying)]

    def discard(self, stayers: list[str]) -> list[list[dict[str, Any]]]:
        """"Whenever a card is put into a graveyard from a hand, ...", then a card in a hand is discarded. The
        effects."""
        src = self.source
        if "zone_changes" in self.no or not src.chance(CHANCE):
            return []
        watcher = self.fresh(src.pick(stayers))
        watcher["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "move", "from": "hand",
                                                                      "to": "graveyard"},
                                 "effect": self._answer(watcher["owner"])}]
        card = self._card(src.pick(stayers), "hand")
        return [[{"do": "move", "object": card["id"], "from": "hand", "to": "graveyard"}]]

    def graveyard_leaves(self, stayers: list[str]) -> list[list[dict[str, Any]]]:
        """"Whenever one or more cards leave a graveyard, ..." (603.2c), then two cards leave graveyards together
        (exiled). The effects."""
        src = self.source
        if {"zone_changes", "batching", "move_together", "exile", "graveyard_triggers"} & self.no or \
                not src.chance(LEAVES_CHANCE):
            return []
        watcher = self.fresh(src.pick(stayers))
        watcher["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "move", "from": "graveyard",
                                                                      "batch": True},
                                 "effect": self._answer(watcher["owner"])}]
        cards = [self._card(src.pick(stayers), "graveyard")["id"] for _ in range(2)]
        return [[{"do": "move_together", "objects": cards, "from": "graveyard", "to": "exile"}]]

    def echo(self, stayers: list[str]) -> list[list[dict[str, Any]]]:
        """"Whenever a creature dies, destroy that other creature and you gain 1 life. Do this only once each turn."
        (603.2h), then a creature dies: the death its own instance causes must not trigger it again, the action being
        taken as it began resolving. Every move goes forward, so even an engine ignoring 603.2h stops. The
        effects."""
        src = self.source
        if "batching" in self.no or not src.chance(CHANCE):
            return []
        holder, first, second = (self.fresh(src.pick(stayers)) for _ in range(3))
        holder["abilities"] = [{"id": self.ability_id(), "trigger": {"event": "leave", "to": "graveyard"},
                                "once_each_turn": True,
                                "effect": [{"do": "move", "object": second["id"], "from": "field", "to": "graveyard"},
                                           {"do": "life", "player": holder["owner"], "amount": 1}]}]
        return [[{"do": "move", "object": first["id"], "from": "field", "to": "graveyard"}]]

    def aimed_if(self, stayers: list[str]) -> list[list[dict[str, Any]]]:
        """"Whenever ``aim`` happens, if that permanent is on the battlefield, target permanent's controller gains 1
        life", then ``aim`` and that permanent destroyed in one scripted effect: the condition held as it triggered
        and no longer holds on resolution, though its target is still legal (608.2b's target check does not stand
        in for 603.4's). The effects."""
        src = self.source
        if {"signals", "targets", "zone_conditions"} & self.no or not src.chance(CHANCE):
            return []
        holder, watched = self.fresh(src.pick(stayers)), self.fresh(src.pick(stayers))
        ability_id = self.ability_id()
        holder["abilities"] = [{"id": ability_id, "trigger": {"event": "signal", "name": AIM},
                                "intervening_if": {"test": "in_zone", "object": watched["id"], "zone": "field"},
                                "target": {"candidates": [holder["id"]]},
                                "effect": [{"do": "life", "player": holder["owner"], "amount": 1}]}]
        return [[{"do": "signal", "name": AIM},
                 {"do": "move", "object": watched["id"], "from": "field", "to": "graveyard"}]]

    def watcher_chain(self, scenario: dict[str, Any]) -> None:
        """Issue 33 item 3, a search shape (``profile={"include": ["watcher_chain"]}``, never in a run's stream):
        "whenever ``chain`` happens, you gain 1 life" on one permanent, "whenever that ability is put on the stack, ..."
        on a second and "whenever that ability triggers, ..." on a third, one stayer's, then ``chain`` signalled first
        in the last step. The two watchers wait in one batch; 603.3b's second pass holds the last, and the first too
        only under pass_two_membership=triggering-or-stacking, when its controller orders them. Drawn after every
        other answer (the document's choices included), so the rest of the scenario is as without it; the three
        abilities join the trigger order in a drawn order (all zeros: as built, the watchers' two readings apart)."""
        src = self.source
        if {"watchers", "signals"} & self.no or not src.chance(50):
            return
        owner = src.pick([p for p in scenario["players"] if p not in self.doomed])
        signalled, stacked, triggered = (self.fresh(owner) for _ in range(3))
        abilities = [(signalled, {"event": "signal", "name": CHAIN}), (stacked, {
            "event": "ability_stacked", "subject": signalled["id"]}), (triggered, {
                "event": "ability_triggered", "subject": stacked["id"]})]
        for holder, trigger in abilities:
            holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger, "effect": self._answer(owner)}]
        for target in self.any_object_targets:  # "target creature": every object, these too
            target["candidates"] += [holder["id"] for holder, _ in abilities]
        scenario["choices"]["trigger_order"] += src.permutation([h["abilities"][0]["id"] for h, _ in abilities])
        scenario["script"][-1]["actions"].insert(0, {"by": scenario["active_player"],
                                                     "effect": [{"do": "signal", "name": CHAIN}]})
