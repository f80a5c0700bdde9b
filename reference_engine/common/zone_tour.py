"""A set piece every generator shares (issue 30 item 2): a card's tour of its ruleset's zones, watched from every zone
an ability works from.

The derived situations (reference_engine/kernel/derived.py) pair each zone-change event kind with each zone its
watcher works from, and each zone an object leaves with that zone; the streams built only the few pairs their set
pieces wrote down. The tour builds them all from the ruleset's own vocabulary, which its generator passes in (its
zones, the zones an ability works from, the zones nothing leaves, the zone-change event kinds it can watch): a new
card starts in one of the zones and is moved, one scripted action at a time, out of each zone it is in (into play
from anywhere, out of play to anywhere, now and then from one zone to another), its last move maybe into a zone
nothing leaves (the moves one action each, or all in one); a watcher card, in one of the zones an ability works
from, has one ability per watched kind about that card, each working from every such zone, so that whichever zone
the watcher is in, the engine must say whether the ability sees the move (judged just after the event, or looking
back at a card leaving). An intervening condition on some of them tests where the travelling card is. Their effects
do nothing, so nothing new cascades, and the tour is finite (each move is a scripted action)."""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.source import ChoiceSource

IN_PLAY = "field"


def fresh_id(taken: set[str], prefix: str) -> str:
    """The first of ``prefix`` 1, 2, ... not in ``taken``, now taken."""
    name = next(f"{prefix}{n}" for n in range(1, 10_000) if f"{prefix}{n}" not in taken)
    taken.add(name)
    return name


def taken_ids(scenario: dict[str, Any]) -> set[str]:
    """The ids of a scenario's objects and abilities."""
    return {obj["id"] for obj in scenario["objects"]} | {a["id"] for obj in scenario["objects"]
                                                         for a in obj.get("abilities", ())}


def tour_path(source: ChoiceSource, stops: tuple[str, ...], finals: tuple[str, ...], moves: int,
              start: str | None = None, direct: int = 25) -> list[str]:
    """The zones a card visits: ``start`` (then its first move is into play) or one of ``stops`` drawn, then ``moves``
    moves, each out of play into another stop, or into play (from one zone to another out of play with ``direct``
    percent; with none, the moves go in and out of play only), the last one into one of ``finals`` now and then."""
    path = [start or source.pick(list(stops))]
    for n in range(moves):
        here = path[-1]
        others = [z for z in stops if z not in (here, IN_PLAY)]
        if n == moves - 1 and finals and source.chance(60):
            if here != IN_PLAY and not direct:  # out of play, watched as it leaves
                path.append(IN_PLAY)
            path.append(source.pick(list(finals)))
        elif here != IN_PLAY and IN_PLAY in stops and (not others or (start and n == 0) or not source.chance(direct)):
            path.append(IN_PLAY)
        else:
            path.append(source.pick(others))
    return path


def zone_tour(scenario: dict[str, Any], source: ChoiceSource, chance: int, *, kinds: tuple[str, ...],
              works_from: tuple[str, ...], stops: tuple[str, ...], finals: tuple[str, ...] = (),
              tests: tuple[str, ...] = (), enabled: bool = True, ordered: bool = True, names_from: bool = False,
              by: str | None = None, start: str | None = None, owners: list[str] | None = None,
              together: bool = False, direct: int = 25) -> dict[str, Any] | None:
    """With ``chance`` percent (drawn even when not ``enabled``, so that a feature switched off leaves the draws after
    it where they were), add the tour to a built ``scenario`` (in place; see the module docstring): ``kinds``
    the zone-change event kinds watched, ``works_from`` the zones an ability works from (the watcher's
    ``active_in``), ``stops`` the zones the card visits (in play among them; the watcher starts in one where an ability works), ``finals`` the zones nothing
    leaves, ``tests`` the condition tests an intervening 'if' may use (none: no intervening 'if'); ``ordered``:
    the ruleset's ``trigger_order`` lists every ability; ``names_from``: each move names the zone it moves from;
    ``by``: the player whose actions move the card (default: the active player); ``start``: the card's first
    zone (see :func:`tour_path`); ``owners``: the players who may own the two cards (default: every player);
    ``together``: the moves are one scripted action's (the abilities they trigger wait until it ends), else one
    action each; ``direct``: the percentage of moves from one zone out of play to another (where something
    watches them; each move into or out of play also triggers what the rest of the scenario watches there). The
    moves go first in the script's last step. Returns the tour (``card``, ``watcher``, ``path``, ``moves``,
    ``actions``) for a generator to add to, or None."""
    if not source.chance(chance) or not enabled:
        return None
    taken = taken_ids(scenario)
    direct = direct if {"move", "zone_change"} & set(kinds) else 0  # with no watcher of such moves: in and out of play
    path = tour_path(source, stops, finals, source.count(3, 5), start, direct)
    owners = owners or scenario["players"]
    card = {"id": fresh_id(taken, "Z"), "owner": source.pick(owners), "zone": path[0]}
    watcher: dict[str, Any] = {"id": fresh_id(taken, "W"), "owner": source.pick(owners),
                               "zone": source.pick([z for z in works_from if z in stops]), "abilities": []}
    for kind in kinds:
        watcher["abilities"].append({"id": fresh_id(taken, "WA"), "trigger": {"event": kind, "subject": card["id"]},
                                     "active_in": list(works_from), "effect": []})
    for ability in watcher["abilities"]:
        if tests and source.chance(50):
            ability["intervening_if"] = {"test": source.pick(list(tests)), "object": card["id"],
                                         "zone": source.pick(list(stops))}
    scenario["objects"] += [card, watcher]
    if ordered:
        scenario.setdefault("choices", {}).setdefault("trigger_order", []).extend(
            a["id"] for a in watcher["abilities"])
    moves = []
    for here, there in zip(path, path[1:]):
        moves.append({"do": "move", "object": card["id"], "to": there} | ({"from": here} if names_from else {}))
    mover = by or scenario["active_player"]
    actions = [{"by": mover, "effect": moves}] if together else [{"by": mover, "effect": [move]} for move in moves]
    scenario["script"][-1]["actions"][0:0] = actions
    return {"card": card, "watcher": watcher, "path": path, "moves": moves, "actions": actions}


__all__ = ["fresh_id", "taken_ids", "tour_path", "zone_tour"]
