"""What the judge reads of activated abilities (MTG 602.2, 601.2h, 119.4), from the rule text, sharing no code with
the reference engine.

A player activates a printed activated ability of a permanent: 602.2a puts the ability on the stack first, then
602.2b sends the player through the casting steps, and 601.2h has them pay the cost there, so the payment comes
after the ability is on the stack and before any player receives priority. Each part of the cost is an event of
the scripted action (the scenario's printed order stands for the order the player chooses, 601.2h); what it
triggers goes on the stack at the next priority (603.3), above the ability, and resolves first (405.5)."""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.traceview import TraceView, memoized
from reference_engine.mtg.judge.model import FIELD


def printed_activated(objects: dict[str, dict[str, Any]], source: str | None, ability: str | None) -> dict | None:
    """Activated ability ``ability`` printed on object ``source``, or None."""
    for spec in (objects.get(source) or {}).get("activated", ()):
        if spec["id"] == ability:
            return spec
    return None


def payment(board, spec: dict[str, Any], source: str, player: str) -> list[dict[str, Any]] | None:
    """The events of paying ``spec``'s cost, part by part (601.2h), on ``board``; None when the cost cannot be paid
    in full (601.2h allows no partial payment): a life payment needs at least that much life (119.4), a sacrifice a
    permanent the player controls on the battlefield, a discard a card in the player's hand, none named twice."""
    left = board.life.get(player, 0)
    named: list[str] = []
    out = []
    for part in spec["cost"]:
        kind = part["pay"]
        if kind == "life":
            if left < part["amount"]:
                return None
            left -= part["amount"]
            out.append({"type": "life", "player": player, "amount": -part["amount"]})
            continue
        thing = part.get("object") or source
        if thing in named:
            return None
        named.append(thing)
        if kind == "sacrifice":
            if board.where.get(thing) != FIELD or board.controller_of.get(thing) != player:
                return None
            out.append({"type": "leave", "subject": thing, "from": FIELD, "to": "graveyard"})
        elif board.where.get(thing) == "hand" and board.owner_of.get(thing) == player:
            out.append({"type": "move", "subject": thing, "from": "hand", "to": "graveyard"})
        else:
            return None
    return out


def may_activate(board, objects: dict[str, dict[str, Any]], action: dict[str, Any], player: str) -> list | None:
    """602.2 for a scripted ``activate`` action: the cost's events when ``player`` may activate it (the ability
    printed on the permanent, the permanent on the battlefield under their control, they in the game, the cost
    payable), else None."""
    source = action["object"]
    spec = printed_activated(objects, source, action["ability"])
    if spec is None or not board.present(player):
        return None
    if board.where.get(source) != FIELD or board.controller_of.get(source) != player:
        return None
    return payment(board, spec, source, player)


@memoized
def activations(view: TraceView) -> dict[str, tuple[int, dict[str, Any]]]:
    """Activated ability id -> (index, entry) of its ``activate`` entry."""
    return {view.entries[i]["id"]: (i, view.entries[i]) for i in view.by_kind.get("activate", ())}


@memoized
def activated_spans(view: TraceView) -> list[tuple[str, int, int]]:
    """(activated ability, begin, end) of each activated ability's resolution that ended."""
    begins = {view.entries[i]["activated"]: i for i in view.by_kind.get("activated_resolve_begin", ())}
    out = []
    for i in view.by_kind.get("activated_resolve_end", ()):
        a = view.entries[i]["activated"]
        if a in begins and begins[a] < i:
            out.append((a, begins[a], i))
    return out
