"""Activated abilities in the MTG reference engine (602.2, 601.2h, 405.5, 608.2).

:class:`Activating` is a part of :class:`~reference_engine.mtg.engines.reference.Game`, kept in its own module for
size, like :mod:`~reference_engine.mtg.engines.triggering`. A player activates a printed activated ability of a
permanent they control (602.2): the ability is put on the stack first (602.2a, an ``activate`` entry), then its
cost is paid, part by part in the order printed (601.2h; the CR lets the player choose the order: the scenario's
order is that choice), each part an event of the scripted action. What those events trigger waits (117.2a, 603.3)
and goes on the stack when a player would next receive priority, that is above the activated ability: it resolves
first (405.5). The activated ability resolves as the top object like any other (``activated_resolve_begin``, its
effect's events with cause ``{activated: A}``, ``activated_resolve_end``), whatever has become of its source
(113.7a); its controller leaving the game makes it cease to exist (800.4a, ``activated_removed``).
"""

from __future__ import annotations

from typing import Any

from reference_engine.mtg.engines.rules import BATTLEFIELD, Context


class Activating:
    """Game's activation steps (see the module docstring)."""

    def activated_spec(self, source: str, ability: str) -> dict[str, Any] | None:
        """Activated ability ``ability`` printed on ``source``, or None."""
        return next((a for a in (self.catalog.objects.get(source) or {}).get("activated", ()) if a["id"] == ability),
                    None)

    def cost_events(self, spec: dict[str, Any], source: str, player: str) -> list[dict[str, Any]] | None:
        """The events of paying ``spec``'s cost, one per part in the order printed (601.2h), or None when some part
        cannot be paid (119.4: no more life than the player has; a permanent they control on the battlefield to
        sacrifice, each once; a card in their hand to discard, each once)."""
        zones, events, used, life = self.state.zones, [], set(), self.state.life.get(player, 0)
        for part in spec["cost"]:
            if part["pay"] == "life":
                if part["amount"] > life:
                    return None
                life -= part["amount"]
                events.append({"type": "life", "player": player, "amount": -part["amount"]})
                continue
            thing = part.get("object", source)
            if thing in used:
                return None
            used.add(thing)
            if part["pay"] == "sacrifice":
                if zones.get(thing) != BATTLEFIELD or self.state.controllers.get(thing) != player:
                    return None
                events.append({"type": "leave", "subject": thing, "from": BATTLEFIELD, "to": "graveyard"})
            else:  # discard: a card of the player's hand
                if zones.get(thing) != "hand" or self.state.owners.get(thing) != player:
                    return None
                events.append({"type": "move", "subject": thing, "from": "hand", "to": "graveyard"})
        return events

    def activate(self, source: str, ability: str, ctx: Context) -> None:
        """602.2: only a scripted action activates, by the permanent's controller, with every part of the cost
        payable; the ability goes on the stack (602.2a), then the cost is paid (601.2h)."""
        spec, player = self.activated_spec(source, ability), ctx.controller
        if spec is None or ctx.trigger is not None or "spell" in ctx.cause or player in self.state.left:
            return
        if self.state.zones.get(source) != BATTLEFIELD or self.state.controllers.get(source) != player:
            return
        costs = self.cost_events(spec, source, player)
        if costs is None:
            return
        activation = self.record.new_id("A")
        self.activations[activation] = {"source": source, "ability": ability, "player": player}
        self.record.add("activate", id=activation, source=source, ability=ability, player=player)
        self.stack_activated(activation)
        self.pay(costs, ctx)

    def stack_activated(self, activation: str) -> None:
        """602.2a: the ability becomes the topmost object of the stack."""
        self.stack.append(activation)

    def pay(self, costs: list[dict[str, Any]], ctx: Context) -> None:
        """601.2h: each part of the cost is paid, an event of the activating action."""
        for event in costs:
            self.happen([event], ctx.cause)

    def resolve_activated(self, activation: str) -> None:
        """405.5, 608.2: the activated ability, the top object, does what its effect says (113.7a: whatever has become
        of its source), then leaves the stack."""
        info = self.activations[activation]
        spec = self.activated_spec(info["source"], info["ability"])
        self.record.add("activated_resolve_begin", activated=activation)
        self.perform(spec.get("effect", []), Context({"activated": activation}, info["source"], info["player"]))
        self.record.add("activated_resolve_end", activated=activation)
        self.off_stack(activation)

    def cease_activated(self, player: str) -> None:
        """800.4a: the activated abilities a departed player controls on the stack cease to exist."""
        for activation in [a for a in self.stack if a in self.activations]:
            if self.activations[activation]["player"] == player:
                self.stack.remove(activation)
                self.record.add("activated_removed", activated=activation, reason="player_left")
