"""Preparing a scenario for a run: schema validation, consistency checks, and the ruleset's resolved options."""

from __future__ import annotations

import copy
from typing import Any

from conformance.documents.json_io import validate
from reference_engine.kernel.errors import ScenarioError
from reference_engine.kernel.ruleset import OptionError, Ruleset
from reference_engine.kernel.registry import get_ruleset


# MTG trigger filters relative to the ability's controller and to card characteristics: the judge and the reference
# engine read them on printed abilities (reference_engine/mtg/docs.md), so a created ability naming them is refused.
UNCREATED = "uncreated"  # MTG: the starting zone of a token not created yet
PRINTED_ONLY_TRIGGER_FIELDS = frozenset({"controller", "player", "type", "nontoken", "change", "owner"})


def _consistency_problems(scenario: dict[str, Any]) -> list[str]:
    problems = []
    players = scenario["players"]
    if scenario["active_player"] not in players:
        problems.append(f"$.active_player: {scenario['active_player']!r} is not one of the players {players}")
    ids, abilities = _object_ids(scenario, problems)
    uncreated = {o["id"] for o in scenario["objects"] if o["zone"] == UNCREATED}  # MTG tokens not created yet

    def check_actions(actions, where):
        for k, action in enumerate(actions):
            for field in ("object", "source"):
                if field in action and action[field] not in ids:
                    problems.append(f"{where}[{k}].{field}: no object {action[field]!r}")
            if "player" in action and action["player"] not in players:  # MTG life, damage, concede; control
                problems.append(f"{where}[{k}].player: {action['player']!r} is not a player")
            problems.extend(_also_problems(action, f"{where}[{k}]", ids))
            if action.get("do") == "remedy_missed_trigger" and action["source"] in ids:
                owner = next(o for o in scenario["objects"] if o["id"] == action["source"])
                if action["ability"] not in {a["id"] for a in owner.get("abilities", ())}:
                    problems.append(f"{where}[{k}].ability: {action['source']} has no ability {action['ability']!r}")
            if action.get("do") == "activate" and action["object"] in ids:  # MTG: a printed activated ability
                owner = next(o for o in scenario["objects"] if o["id"] == action["object"])
                if action["ability"] not in {a["id"] for a in owner.get("activated", ())}:
                    problems.append(f"{where}[{k}].ability: {action['object']} has no activated ability "
                                    f"{action['ability']!r}")
            check_actions(action.get("snatch_check", ()), f"{where}[{k}].snatch_check")
            named = [m["object"] for m in action.get("moves", ())]  # MTG move_each: each object once
            for n, thing in enumerate(named):
                if thing not in ids:
                    problems.append(f"{where}[{k}].moves[{n}].object: no object {thing!r}")
                elif thing in named[:n]:
                    problems.append(f"{where}[{k}].moves[{n}].object: {thing!r} is moved twice in one event")
            for n, hit in enumerate(action.get("hits", ())):  # MTG damage_together: its sources and recipients
                for field in ("source", "object"):
                    if field in hit and hit[field] not in ids:
                        problems.append(f"{where}[{k}].hits[{n}].{field}: no object {hit[field]!r}")
                if "player" in hit and hit["player"] not in players:
                    problems.append(f"{where}[{k}].hits[{n}].player: no player {hit['player']!r}")
            problems.extend(_uncreated_problems(action, f"{where}[{k}]", uncreated))
            problems.extend(_combat_problems(action, f"{where}[{k}]"))
            created = action.get("ability")
            if isinstance(created, dict):  # MTG: a delayed or reflexive ability an effect creates
                check_actions(created.get("effect", ()), f"{where}[{k}].ability.effect")

    for n, obj in enumerate(scenario["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            where = f"$.objects[{n}].abilities[{m}]"
            check_actions(ability["effect"], f"{where}.effect")
            problems.extend(_ability_problems(ability, where, ids, players))
            problems.extend(f"{where}.trigger.{edge}: {UNCREATED} is an object's starting zone only"
                            for edge in ("from", "to") if ability["trigger"].get(edge) == UNCREATED)
            if UNCREATED in ability.get("active_in", ()):
                problems.append(f"{where}.active_in: {UNCREATED} is an object's starting zone only")
        for m, activated in enumerate(obj.get("activated", ())):  # MTG: activated abilities, their costs and effects
            check_actions(activated["effect"], f"$.objects[{n}].activated[{m}].effect")
            problems.extend(_activated_problems(activated, f"$.objects[{n}].activated[{m}]", ids))
        spell = obj.get("spell")
        if isinstance(spell, dict):  # MTG: a card that is a spell, its effect and target
            check_actions(spell.get("effect", ()), f"$.objects[{n}].spell.effect")
            problems.extend(_target_problems(spell.get("target"), f"$.objects[{n}].spell.target", ids, players))
    turn = 1
    for s, step in enumerate(scenario["script"]):
        if step.get("turn", turn) < turn:
            problems.append(f"$.script[{s}].turn: turn {step['turn']} comes after turn {turn}: turns only go forward")
        turn = max(turn, step.get("turn", turn))
        for a, action in enumerate(step["actions"]):
            if action["by"] not in players:
                problems.append(f"$.script[{s}].actions[{a}].by: {action['by']!r} is not a player")
            check_actions(action["effect"], f"$.script[{s}].actions[{a}].effect")
    abilities |= _created_abilities(scenario)
    for k, ability in enumerate(scenario.get("choices", {}).get("trigger_order", ())):
        if ability not in abilities:
            problems.append(f"$.choices.trigger_order[{k}]: no ability {ability!r}")
    return problems + _answer_problems(scenario, abilities)


def _also_problems(action: dict[str, Any], where: str, ids: set[str]) -> list[str]:
    """Momon Wonder: the other monsters of one Summon (``also``) are objects of the scenario, each named once and
    none the Summon's own monster (``object``): one monster summoned together with itself is one monster."""
    out, others = [], action.get("also", ())
    for n, obj in enumerate(others):
        if obj not in ids:
            out.append(f"{where}.also[{n}]: no object {obj!r}")
        elif obj == action.get("object") or obj in others[:n]:
            out.append(f"{where}.also[{n}]: {obj!r} is " + ("the Summon's own monster (object)"
                                                            if obj == action.get("object") else "named twice")
                       + ": a Summon names each monster it summons together once")
    return out


def _answer_problems(scenario: dict[str, Any], abilities: set[str]) -> list[str]:
    """The answers keyed by ability (``choices.optional``, and each key of a unit's own question answered per
    ability, MTG's ``targets`` and ``occurrence``) name abilities of the scenario, printed or created."""
    from reference_engine.kernel.choices import unit_choice_kinds

    keys = ["optional"] + [kind.key for kind in unit_choice_kinds(scenario.get("ruleset")).values()
                           if kind.by == "ability"]
    choices = scenario.get("choices", {})
    return [f"$.choices.{key}.{ability}: no ability {ability!r}" for key in dict.fromkeys(keys)
            if isinstance(choices.get(key), dict) for ability in choices[key] if ability not in abilities]


def _activated_problems(activated: dict[str, Any], where: str, ids: set[str]) -> list[str]:
    """MTG: each part of an activated ability's cost names an object of the scenario; its effect creates no delayed or
    reflexive ability (not in the vocabulary yet: refused rather than silently doing nothing)."""
    out = [f"{where}.cost[{c}].object: no object {part['object']!r}" for c, part in enumerate(activated["cost"])
           if "object" in part and part["object"] not in ids]
    return out + [f"{where}.effect[{k}]: an activated ability creating a {a['do']} ability is not in the MTG "
                  f"vocabulary yet" for k, a in enumerate(activated["effect"]) if a.get("do") in ("create_delayed",
                                                                                                  "reflexive")]


def _object_ids(scenario: dict[str, Any], problems: list[str]) -> tuple[set[str], set[str]]:
    """The ids of the scenario's objects and of their printed abilities; each object's problems added to
    ``problems`` (an id used twice, an owner or controller that is no player, MTG: a non-token starting uncreated)."""
    players = scenario["players"]
    ids: set[str] = set()
    abilities: set[str] = set()
    for n, obj in enumerate(scenario["objects"]):
        where = f"$.objects[{n}]"
        if obj["id"] in ids:
            problems.append(f"{where}.id: object id {obj['id']!r} is used twice")
        ids.add(obj["id"])
        for field in ("owner", "controller"):
            if field in obj and obj[field] not in players:
                problems.append(f"{where}.{field}: {obj[field]!r} is not a player")
        if obj["zone"] == UNCREATED and not obj.get("token"):
            problems.append(f"{where}.zone: only a token (token true) starts uncreated")
        seen_here: set[str] = set()
        for m, ability in enumerate(obj.get("abilities", ())):
            if ability["id"] in seen_here:
                problems.append(f"{where}.abilities[{m}].id: ability id {ability['id']!r} is used twice on {obj['id']}")
            seen_here.add(ability["id"])
            abilities.add(ability["id"])
    return ids, abilities


def _uncreated_problems(action: dict[str, Any], where: str, uncreated: set[str]) -> list[str]:
    """MTG: ``create_token`` names a token starting ``uncreated``; no action moves an object to or from there, and no
    target is chosen there (a token comes into existence only by being created, 603.6a)."""
    problems = []
    if action.get("do") == "create_token":
        problems.extend(f"{where}.objects[{n}]: create_token names a token whose zone is {UNCREATED}, not {thing!r}"
                        for n, thing in enumerate(action["objects"]) if thing not in uncreated)
    for edge in ("from", "to"):
        if action.get(edge) == UNCREATED:
            problems.append(f"{where}.{edge}: {UNCREATED} is an object's starting zone only")
        problems.extend(f"{where}.moves[{n}].{edge}: {UNCREATED} is an object's starting zone only"
                        for n, m in enumerate(action.get("moves", ())) if m.get(edge) == UNCREATED)
    return problems


def _ability_problems(ability: dict[str, Any], where: str, ids: set[str], players: list[str]) -> list[str]:
    """What an ability names besides its effect (its trigger's subject, its target, its conditions) that the
    scenario lacks; a state trigger without its state."""
    problems = []
    subject = ability["trigger"].get("subject", "any")
    if subject not in ("self", "other", "any") and subject not in ids:
        problems.append(f"{where}.trigger.subject: no object {subject!r} (nor self, other, any)")
    problems.extend(_target_problems(ability.get("target"), f"{where}.target", ids, players))
    if ability["trigger"]["event"] == "state" and "state" not in ability["trigger"]:
        problems.append(f"{where}.trigger: a state trigger (MTG 603.8) names the state it waits for")
    problems.extend(_combat_filter_problems(ability["trigger"], f"{where}.trigger"))
    for field in ("intervening_if", "condition"):  # MTG and Momon intervening 'if'; Redemption 'If X, Y'
        condition = ability.get(field)
        if condition and condition.get("object", "self") != "self" and condition["object"] not in ids:
            problems.append(f"{where}.{field}.object: no object {condition['object']!r}")
        if condition and condition.get("player", "controller") not in (*players, "controller"):
            problems.append(f"{where}.{field}.player: {condition['player']!r} is not a player (nor controller)")
    return problems


def _combat_problems(action: dict[str, Any], where: str) -> list[str]:
    """MTG: combat damage (``combat``) only in a scripted action (the combat damage step, 510.2); a created (delayed or
    reflexive) ability's trigger names no filter read on printed abilities only, and ``combat`` only on damage."""
    problems = []
    if action.get("combat") and not (where.startswith("$.script") and ".ability." not in where):
        problems.append(f"{where}.combat: combat damage is the combat damage step's (MTG 510.2), so only a scripted "
                        f"action deals it; an effect's damage is noncombat damage (120.2b)")
    created = action.get("ability")
    if isinstance(created, dict):
        problems.extend(_combat_filter_problems(created.get("trigger", {}), f"{where}.ability.trigger"))
        printed_only = sorted(PRINTED_ONLY_TRIGGER_FIELDS & set(created.get("trigger", {})))
        if printed_only:
            problems.append(f"{where}.ability.trigger: {', '.join(printed_only)}: these trigger filters are read on "
                            f"printed abilities only, not on a delayed or reflexive one")
    return problems


def _combat_filter_problems(trigger: dict[str, Any], where: str) -> list[str]:
    """MTG: a trigger's ``combat`` filter (combat or noncombat damage, 120.2) is read on damage events only."""
    if "combat" in trigger and trigger.get("event") not in ("damage", "dealt_damage"):
        return [f"{where}.combat: combat or noncombat damage (MTG 120.2) filters damage and dealt_damage triggers only"]
    return []


def _target_problems(target: dict[str, Any] | None, where: str, ids: set[str], players: list[str]) -> list[str]:
    """MTG: the objects and players a target may be chosen among must be the scenario's."""
    if not isinstance(target, dict):
        return []
    return [f"{where}.zone: {UNCREATED} is an object's starting zone only"] * (target.get("zone") == UNCREATED) + [f"{where}.candidates[{k}]: no object {thing!r}" for k, thing in enumerate(target.get("candidates", ()))
            if thing not in ids] + \
        [f"{where}.players[{k}]: {player!r} is not a player" for k, player in enumerate(target.get("players", ()))
         if player not in players]


def _created_abilities(scenario: dict[str, Any]) -> set[str]:
    """Ids of the abilities an effect creates (MTG: delayed, 603.7, and reflexive, 603.12, at any depth, spells' too, 603.7d): they
    trigger and are ordered like printed ones, so ``choices.trigger_order`` may name them."""
    found: set[str] = set()
    pending = [a["effect"] for o in scenario["objects"] for a in o.get("abilities", ())]
    pending += [action["effect"] for step in scenario["script"] for action in step["actions"]]
    pending += [o["spell"].get("effect", ()) for o in scenario["objects"] if isinstance(o.get("spell"), dict)]
    while pending:
        for action in pending.pop():
            created = action.get("ability")
            if isinstance(created, dict) and created.get("id") not in found:
                found.add(created["id"])
                pending.append(created.get("effect", ()))
    return found


def prepare_scenario(document: Any, where: str) -> tuple[Ruleset, dict[str, Any]]:
    """Validate a scenario and return its ruleset and a copy carrying the full, resolved ``options``.

    Raises DocumentError (schema) or ScenarioError (unknown ruleset, edition or option; inconsistent references),
    each naming ``where`` and the JSON path at fault.
    """
    validate(document, "scenario", where)
    try:
        ruleset = get_ruleset(document["ruleset"])
    except KeyError as exc:
        raise ScenarioError(f"{where}: at $.ruleset: {exc.args[0]}") from None
    if document["edition"] not in ruleset.editions:
        raise ScenarioError(f"{where}: at $.edition: ruleset {ruleset.name} has no edition {document['edition']!r} "
                            f"(known: {', '.join(ruleset.editions)})")
    foreign = ruleset.vocabulary.foreign_words(document) if ruleset.vocabulary else []
    if foreign:
        raise ScenarioError(f"{where} uses words that ruleset {ruleset.name} does not define (another ruleset's "
                            f"vocabulary is rejected, never silently ignored):\n"
                            + "\n".join(f"  at {p}" for p in foreign))
    problems = _consistency_problems(document)
    if problems:
        raise ScenarioError(f"{where} is inconsistent:\n" + "\n".join(f"  at {p}" for p in problems))
    scenario = copy.deepcopy(document)
    try:
        scenario["options"] = ruleset.resolve_options(document.get("options"))
    except OptionError as exc:
        raise ScenarioError(f"{where}: at $.options: {exc}") from None
    return ruleset, scenario
