"""A set piece the Momon Wonder and Redemption generators share (issue 30): a card put into play from a hand or a
graveyard by a scripted effect, with "when this enters play" on it and "whenever another card enters play" on a card
already in play. Their rule texts let a card's effect move a card into play (the kernel's ``move`` to ``field``, an
``enter`` event); nothing else in their streams did."""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.source import ChoiceSource


def put_into_play(scenario: dict[str, Any], source: ChoiceSource, chance: int, zones: tuple[str, ...],
                  enabled: bool = True, ordered: bool = True) -> None:
    """With ``chance`` percent, add the set piece to a built ``scenario`` (in place): a new card in one of ``zones``
    owned by a player, its ability and a watcher's (their effects do nothing, so nothing new cascades), both last in
    the trigger order (with ``ordered``: a ruleset whose ``trigger_order`` lists every ability), and the move first
    in the script's last step, by the active player. The chance is drawn even when not ``enabled`` (a feature
    switched off), so that shrinking a feature off leaves the draws after it where they were."""
    in_play = [obj for obj in scenario["objects"] if obj["zone"] == "field"]
    if not source.chance(chance) or not enabled or not in_play:
        return
    taken = {obj["id"] for obj in scenario["objects"]}
    abilities = {a["id"] for obj in scenario["objects"] for a in obj.get("abilities", ())}
    card_id = next(f"N{n}" for n in range(1, 1000) if f"N{n}" not in taken)
    own, other = (next(f"{prefix}{n}" for n in range(1, 1000) if f"{prefix}{n}" not in abilities)
                  for prefix in ("NE", "NW"))
    card = {"id": card_id, "owner": source.pick(scenario["players"]), "zone": source.pick(list(zones)),
            "abilities": [{"id": own, "trigger": {"event": "enter", "subject": "self"}, "effect": []}]}
    watcher = source.pick(in_play)
    watcher.setdefault("abilities", []).append(
        {"id": other, "trigger": {"event": "enter", "subject": "other"}, "effect": []})
    scenario["objects"].append(card)
    if ordered:
        scenario.setdefault("choices", {}).setdefault("trigger_order", []).extend([own, other])
    scenario["script"][-1]["actions"].insert(0, {"by": scenario["active_player"], "effect": [
        {"do": "move", "object": card_id, "to": "field"}]})
