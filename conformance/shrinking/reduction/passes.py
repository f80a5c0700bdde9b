"""The pieces of a scenario-level reduction (see :mod:`conformance.shrinking.reduction`): the size it lowers, and the passes
that yield documents one piece smaller or simpler (removals, simplifications, values back to their defaults, folds,
inlines, hoists, sinks) or of the same size but said more simply (the rewrites)."""

from __future__ import annotations

import copy
import json
from typing import Any, Collection, Iterator

Document = dict[str, Any]


def scenario_size(document: Document) -> int:
    """A scenario's size in the units a reader counts: objects, abilities and scripted actions (what a shrunk
    failure reports as ``shrunk_size``, and what the bundled faulty engines' minimal sizes are measured in)."""
    objects = document["objects"]
    return (len(objects) + sum(len(o.get("abilities", ())) for o in objects)
            + sum(len(a["effect"]) for step in document["script"] for a in step["actions"]))


def _action_lists(document: Document) -> Iterator[list]:
    """Every list of actions in the document (ability effects, scripted effects, Snatch Checks), outermost first."""

    def nested(actions: list) -> Iterator[list]:
        yield actions
        for action in actions:
            if isinstance(action.get("snatch_check"), list):
                yield from nested(action["snatch_check"])

    for obj in document["objects"]:
        for ability in obj.get("abilities", ()):
            yield from nested(ability["effect"])
    for step in document["script"]:
        for action in step["actions"]:
            yield from nested(action["effect"])


def _mentions(value: Any, word: str) -> bool:
    return word in json.dumps(value)


def _without_ability(document: Document, ability_id: str) -> None:
    choices = document.get("choices", {})
    if ability_id in choices.get("trigger_order", ()):
        choices["trigger_order"] = [a for a in choices["trigger_order"] if a != ability_id]
    for table in ("optional", "targets", "occurrence"):
        choices.get(table, {}).pop(ability_id, None)


def _without_word(value: Any, word: str) -> Any:
    """``value`` with the string ``word`` taken out of every list (at any depth) that holds it among others."""
    if isinstance(value, dict):
        return {k: _without_word(v, word) for k, v in value.items()}
    if isinstance(value, list):
        kept = [_without_word(v, word) for v in value if v != word]
        return kept if kept or not value else value
    return value


def _renamed(value: Any, old: str, new: str) -> Any:
    """``value`` with every string equal to ``old`` (a value, or a key) replaced by ``new``."""
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    return new if value == old else value


def _objects_dropped_from_lists(document: Document) -> Iterator[Document]:
    """An object removed together with its mentions in lists of several (an action moving objects together, a
    list of targets, an order of preference): removals the plain object pass cannot make, since it only removes an
    object nothing names."""
    for o, obj in enumerate(document["objects"]):
        rest = {k: v for k, v in document.items() if k != "objects"}
        rest["objects"] = [x for n, x in enumerate(document["objects"]) if n != o]
        if not _mentions(rest, f'"{obj["id"]}"'):
            continue  # the plain pass removes it already
        smaller = copy.deepcopy(document)
        removed = smaller["objects"].pop(o)
        for ability in removed.get("abilities", ()):
            _without_ability(smaller, ability["id"])
        smaller = _without_word(smaller, obj["id"])
        if not _mentions(smaller, f'"{obj["id"]}"'):
            yield smaller


def _objects_folded(document: Document) -> Iterator[Document]:
    """One object folded into another: the second's abilities move to the first, whatever named the second names
    the first, and the second goes; the first keeps its own zone, owner and other fields. One object fewer, every
    ability kept. Pairs of objects alike but for id, owner and abilities come first (the likeliest to keep the
    failure); then every other ordered pair (e.g. an object that is only named by another's condition, folded into
    that other object)."""
    objects = document["objects"]

    def alike(a: dict, b: dict) -> bool:
        return ({k: v for k, v in a.items() if k not in ("id", "abilities", "owner")}
                == {k: v for k, v in b.items() if k not in ("id", "abilities", "owner")})

    pairs = [(i, j) for i in range(len(objects)) for j in range(i + 1, len(objects)) if alike(objects[i], objects[j])]
    pairs += [(i, j) for i in range(len(objects)) for j in range(len(objects))
              if i != j and (min(i, j), max(i, j)) not in pairs]
    for i, j in pairs:
        first, second = objects[i], objects[j]
        smaller = copy.deepcopy(document)
        merged = smaller["objects"][i]
        moved = smaller["objects"][j]
        if moved.get("abilities"):
            merged["abilities"] = merged.get("abilities", []) + moved["abilities"]
        del smaller["objects"][j]
        rest = _renamed({k: v for k, v in smaller.items() if k != "objects"}, second["id"], first["id"])
        yield _once_each({**rest, "objects": _renamed(smaller["objects"], second["id"], first["id"])})


def _once_each(value: Any) -> Any:
    """``value`` with each action's list of the others it acts on together (a Summon's ``also``) naming neither the
    action's own ``object`` nor one twice (dropped when it names none): what folding one of them into another
    leaves, for one object summoned together with itself is one object summoned (a scenario naming it twice is
    refused)."""
    if isinstance(value, list):
        return [_once_each(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _once_each(v) for k, v in value.items()}
    if isinstance(out.get("also"), list) and "object" in out:
        others = [o for n, o in enumerate(out["also"]) if o != out["object"] and o not in out["also"][:n]]
        if others:
            out["also"] = others
        else:
            del out["also"]
    return out


def _abilities_inlined(document: Document) -> Iterator[Document]:
    """An ability that only links a signal to its effect, inlined: an action sending the signal it waits for does
    its effect instead, and the ability goes (a chain ``script -> signal a -> ability -> signal b -> ...`` loses a
    link). Only when the scenario gets smaller. An effect that sends the ability's own signal again is inlined too:
    the ability is gone, so that signal sets nothing off any more (the predicate judges whether the fault stays)."""
    size = scenario_size(document)
    for o, obj in enumerate(document["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            trigger = ability["trigger"]
            if (set(trigger) - {"event", "name"} or trigger.get("event") != "signal"
                    or set(ability) - {"id", "trigger", "effect"}):
                continue
            for n, actions in enumerate(_action_lists(document)):
                for a, action in enumerate(actions):
                    if action != {"do": "signal", "name": trigger["name"]}:
                        continue
                    smaller = copy.deepcopy(document)
                    target = list(_action_lists(smaller))[n]
                    target[a:a + 1] = copy.deepcopy(ability["effect"])
                    del smaller["objects"][o]["abilities"][m]
                    _without_ability(smaller, ability["id"])
                    if scenario_size(smaller) < size:
                        yield smaller


def _actions_sunk(document: Document) -> Iterator[Document]:
    """A scripted action moved to the end of the effect of an ability that an earlier scripted signal sets off: it
    then happens as that ability resolves, not after it, and no longer counts as a scripted action (the opposite of
    a hoist). A scripted action, or step, left with nothing to do goes."""
    signals = []  # (position in the script, signal name), in script order
    for s, step in enumerate(document["script"]):
        for a, action in enumerate(step["actions"]):
            for e, effect in enumerate(action["effect"]):
                signals.append(((s, a, e), effect.get("name") if effect.get("do") == "signal" else None))
    for position, _ in signals:
        earlier = {name for where, name in signals if where < position and name is not None}
        if not earlier:
            continue
        s, a, e = position
        moved = document["script"][s]["actions"][a]["effect"][e]
        for o, obj in enumerate(document["objects"]):
            for m, ability in enumerate(obj.get("abilities", ())):
                trigger = ability["trigger"]
                if trigger.get("event") != "signal" or trigger.get("name") not in earlier:
                    continue
                sunk = copy.deepcopy(document)
                sunk["objects"][o]["abilities"][m]["effect"].append(copy.deepcopy(moved))
                _without_scripted(sunk, s, a, e)
                yield sunk


def _vocabulary(document: Document):
    from reference_engine.kernel.registry import get_ruleset

    try:
        return get_ruleset(document["ruleset"]).vocabulary
    except KeyError:
        return None


def _zones_changed(document: Document) -> Iterator[Document]:
    """An object starting in another zone of its ruleset (e.g. a target that starts out of play, where the scenario
    took a spell to put it there): the same size, and what moved it may then go."""
    vocabulary = _vocabulary(document)
    if vocabulary is None:
        return
    for o, obj in enumerate(document["objects"]):
        for zone in sorted(vocabulary.zones - {obj["zone"]}):
            changed = copy.deepcopy(document)
            changed["objects"][o]["zone"] = zone
            yield changed


def _plain_signal_ability(ability: dict) -> bool:
    """An ability that does nothing but wait for a named signal and then do its effect."""
    trigger = ability["trigger"]
    return (trigger.get("event") == "signal" and "name" in trigger and not set(trigger) - {"event", "name"}
            and not set(ability) - {"id", "trigger", "effect"})


def _plain_state_ability(ability: dict) -> bool:
    """An ability that does nothing but wait for a state (MTG 603.8) and then do its effect."""
    trigger = ability["trigger"]
    return (trigger.get("event") == "state" and isinstance(trigger.get("state"), dict)
            and not set(trigger) - {"event", "state"} and not set(ability) - {"id", "trigger", "effect"})


def _setting_off(document: Document, ability: dict) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """Where an action may set ``ability`` off: ``(index of its action list, index in it, positions to put the
    ability's effect at)``. A signal ability: each action sending its signal (just before it or just after it). A
    state ability: each action naming an object its state names, just after it (the state may become true there:
    a card moved into the graveyard the state watches, say), outside its own effect."""
    if _plain_signal_ability(ability):
        name = ability["trigger"]["name"]
        if _mentions(ability["effect"], json.dumps(name)):
            return  # it would set itself off again
        for n, actions in enumerate(_action_lists(document)):
            for a, action in enumerate(actions):
                if action.get("do") == "signal" and action.get("name") == name:
                    yield n, a, (a, a + 1)
    elif _plain_state_ability(ability):
        ids = {obj["id"] for obj in document["objects"]}
        named = [f'"{word}"' for word in ids if _mentions(ability["trigger"]["state"], f'"{word}"')]
        for n, actions in enumerate(_action_lists(document)):
            for a, action in enumerate(actions):
                if actions is not ability["effect"] and any(_mentions(action, word) for word in named):
                    yield n, a, (a + 1,)


def _abilities_hoisted(document: Document) -> Iterator[Document]:
    """An ability set off by a signal or a state, its effect moved next to an action that sets it off
    (:func:`_setting_off`), and the ability gone; the signal stays, for whatever else waits for it. From an ability's
    effect this makes the scenario smaller; from the script (where actions count) it keeps its size when the effect
    is one action: a summon, say, done by the script rather than by an ability the script sets off, or a card
    exiled from a graveyard by the script rather than by a state trigger watching it get there."""
    for o, obj in enumerate(document["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            if not ability["effect"]:
                continue
            for n, _, places in _setting_off(document, ability):
                for where in places:
                    hoisted = copy.deepcopy(document)
                    target = list(_action_lists(hoisted))[n]
                    target[where:where] = copy.deepcopy(ability["effect"])
                    del hoisted["objects"][o]["abilities"][m]
                    _without_ability(hoisted, ability["id"])
                    yield hoisted


def _without_scripted(document: Document, s: int, a: int, e: int) -> None:
    """Instruction ``e`` of scripted action ``a`` of step ``s`` removed (in place), and the action or the step with
    it, when left with nothing to do (the script's only step stays, empty: a script has a step at least)."""
    step = document["script"][s]
    del step["actions"][a]["effect"][e]
    if not step["actions"][a]["effect"]:
        del step["actions"][a]
    if not step["actions"] and len(document["script"]) > 1:
        del document["script"][s]


def _arrivals_started(document: Document) -> Iterator[Document]:
    """An object made to start where the script's first instruction naming it brings it, and that instruction gone
    (from the list of objects it acts on, when it names others): a token created (MTG 111.1, 603.6a) then starts on
    the battlefield, a card moved from its starting zone starts where it went. One scripted instruction fewer, or
    one object fewer in a list; a token created then moved (a zone tour) goes back step by step to starting where it
    ended up, and what watched it arrive may then go too."""
    for o, obj in enumerate(document["objects"]):
        word = f'"{obj["id"]}"'
        first = next(((s, a, e, instruction) for s, step in enumerate(document["script"])
                      for a, action in enumerate(step["actions"]) for e, instruction in enumerate(action["effect"])
                      if _mentions(instruction, word)), None)
        if first is None:
            continue
        s, a, e, instruction = first
        together = instruction.get("do") in ("create_token", "move_together")
        if instruction.get("do") == "create_token" and obj["zone"] == "uncreated":
            zone = "field"
        elif (instruction.get("do") in ("move", "move_together") and instruction.get("from", obj["zone"]) == obj["zone"]
              and (instruction.get("object") == obj["id"] or obj["id"] in instruction.get("objects", ()))):
            zone = instruction["to"]
        else:
            continue
        started = copy.deepcopy(document)
        started["objects"][o]["zone"] = zone
        if together and len(instruction["objects"]) > 1:
            kept = started["script"][s]["actions"][a]["effect"][e]
            kept["objects"] = [x for x in kept["objects"] if x != obj["id"]]
        else:
            _without_scripted(started, s, a, e)
        yield started


def _instructions_swapped(document: Document) -> Iterator[Document]:
    """Two neighbouring instructions of one effect (an ability's, a scripted action's, a Snatch Check's) in the
    other order: the same size, but a fault that needs one thing done before another may then no longer need what
    stood between them (a summon before the signal whose ability it overtakes, say)."""
    for n, actions in enumerate(_action_lists(document)):
        for a in range(len(actions) - 1):
            if actions[a] == actions[a + 1]:
                continue
            swapped = copy.deepcopy(document)
            target = list(_action_lists(swapped))[n]
            target[a], target[a + 1] = target[a + 1], target[a]
            yield swapped


def _triggers_changed(document: Document) -> Iterator[Document]:
    """A signal trigger made to wait for another signal the scenario sends, or made a trigger on another kind of
    event of its ruleset (about its own object, or about any), so that the action sending the signal it waited for
    may go when another action already sets it off (another signal, a control change, a zone change, a play...)."""
    vocabulary = _vocabulary(document)
    if vocabulary is None:
        return
    sent = sorted({a["name"] for actions in _action_lists(document) for a in actions
                   if a.get("do") == "signal" and "name" in a})
    for o, obj in enumerate(document["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            if ability["trigger"].get("event") != "signal":
                continue
            others = [{"event": "signal", "name": name} for name in sent if name != ability["trigger"].get("name")]
            for event in sorted(vocabulary.trigger_events - {"signal"}):
                others += [{"event": event, "subject": "self"}, {"event": event}]
            for trigger in others:
                changed = copy.deepcopy(document)
                changed["objects"][o]["abilities"][m]["trigger"] = trigger
                yield changed


def _fresh_signal(document: Document) -> str:
    n = 1
    while _mentions(document, f'"s{n}"'):
        n += 1
    return f"s{n}"


def _signal_stand_ins(document: Document) -> Iterator[Document]:
    """An ability that triggers on some other kind of event made to trigger on a new signal, and one action made
    to send that signal instead of what it did: what the action needed (an object it moved, say) may then go."""
    name = _fresh_signal(document)
    lists = list(_action_lists(document))
    for o, obj in enumerate(document["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            if ability["trigger"].get("event") == "signal":
                continue
            for n, actions in enumerate(lists):
                for a, action in enumerate(actions):
                    if action.get("do") == "signal":
                        continue
                    changed = copy.deepcopy(document)
                    changed["objects"][o]["abilities"][m]["trigger"] = {"event": "signal", "name": name}
                    list(_action_lists(changed))[n][a] = {"do": "signal", "name": name}
                    yield changed


def _simpler_choices(document: Document) -> Iterator[Document]:
    choices = document.get("choices", {})
    for table in list(choices):
        if isinstance(choices[table], list):
            for k in range(len(choices[table])):
                smaller = copy.deepcopy(document)
                del smaller["choices"][table][k]
                yield smaller
        elif isinstance(choices[table], dict):
            for name in list(choices[table]):
                smaller = copy.deepcopy(document)
                del smaller["choices"][table][name]
                yield smaller
    if choices:
        smaller = copy.deepcopy(document)
        del smaller["choices"]
        yield smaller


# Ability fields that only qualify when or how it triggers or resolves: each may go, the ability staying.
QUALIFIERS = ("optional", "intervening_if", "condition", "checks_on_play", "once_each_turn", "ends_if_card_leaves",
              "active_in", "target", "triggers_once_each_turn")


def _simpler_abilities(document: Document) -> Iterator[Document]:
    """An ability without one of its qualifiers (:data:`QUALIFIERS`): an optional ability made mandatory, an
    intervening or 'If X, Y' condition dropped, and so on."""
    for o, obj in enumerate(document["objects"]):
        for m, ability in enumerate(obj.get("abilities", ())):
            for field in QUALIFIERS:
                if field in ability:
                    smaller = copy.deepcopy(document)
                    del smaller["objects"][o]["abilities"][m][field]
                    if field == "target":  # no target: no chosen one either
                        smaller.get("choices", {}).get("targets", {}).pop(ability["id"], None)
                    yield smaller


# Object fields that only describe it further (its name, card types, toughness, a spell it is, ...): each may go.
DESCRIPTIONS = ("name", "controller", "types", "token", "toughness", "dies_when", "additional_triggers", "spell")


def _simpler_objects(document: Document) -> Iterator[Document]:
    """An object without one of its descriptive fields (:data:`DESCRIPTIONS`), or without an empty list of
    abilities."""
    for o, obj in enumerate(document["objects"]):
        for field in (*DESCRIPTIONS, "abilities"):
            if field in obj and (field != "abilities" or not obj[field]):
                smaller = copy.deepcopy(document)
                del smaller["objects"][o][field]
                yield smaller


def _option_defaults(document: Document) -> dict[str, Any]:
    """The defaults of the options of ``document``'s ruleset (by option name); none for an unknown ruleset."""
    from reference_engine.kernel.registry import get_ruleset

    try:
        return {option.name: option.default for option in get_ruleset(document["ruleset"]).options}
    except KeyError:
        return {}


def _nodes(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """Every dict in ``value`` at any depth, with its path (keys and indexes), outermost first."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, (*path, index))


def _at(document: Document, path: tuple) -> Any:
    for step in path:
        document = document[step]
    return document


def _numbers(document: Document) -> Iterator[tuple[tuple, str, int, int]]:
    """Every integer of ``document`` with a smallest value a reader takes as the plain one: ``(path of its dict, its
    key, its value, that smallest value)``: an amount of damage (1, the schema's minimum), a life change (1 or -1,
    keeping gain or loss), additional triggers' ``times`` (1), a step's ``turn`` (1)."""
    for path, node in _nodes(document):
        if node.get("do") == "damage" and isinstance(node.get("amount"), int):
            yield path, "amount", node["amount"], 1
        elif node.get("do") == "life" and isinstance(node.get("amount"), int) and node["amount"] != 0:
            yield path, "amount", node["amount"], 1 if node["amount"] > 0 else -1
        elif len(path) == 3 and path[0] == "objects" and path[2] == "additional_triggers" and "times" in node:
            yield path, "times", node["times"], 1
        elif len(path) == 2 and path[0] == "script" and "turn" in node:
            yield path, "turn", node["turn"], 1


def non_default_values(document: Document) -> int:
    """How far ``document`` is from its plainest values, a count of units: each option that differs from its
    ruleset's default, each starting life total stated (and the ``life`` table itself, even empty), each step of an integer away from its plain value
    (:func:`_numbers`), each stated turn, and the seat of the active player (0 for the first in ``players``). What the
    passes of :func:`_defaults_restored` lower, the size staying the same: it is how a reduction that removes nothing
    still makes progress (and so terminates)."""
    defaults = _option_defaults(document)
    options = sum(1 for name, value in document.get("options", {}).items()
                  if name in defaults and value != defaults[name])
    numbers = sum(abs(value - plain) + (key == "turn") for _, key, value, plain in _numbers(document))
    seat = document["players"].index(document["active_player"]) if document["active_player"] in document["players"] \
        else 0
    return options + ("life" in document) + len(document.get("life", {})) + numbers + seat


def _defaults_restored(document: Document, pinned: Collection[str] = ()) -> Iterator[Document]:
    """``document`` with one value put back to its default, each lowering :func:`non_default_values` and keeping
    the size: an option (not in ``pinned``) set to its ruleset's default; a starting life total dropped (the player
    starts at the ruleset's, MTG 103.4: 20); an integer set to its plain value, or one step toward it (an amount of
    damage or of life, additional triggers' ``times``; a step's ``turn`` dropped, so that it is the previous step's,
    or 1); the first player made the active one, or the active player moved to the first seat."""
    defaults = _option_defaults(document)
    for name, value in document.get("options", {}).items():
        if name in defaults and name not in pinned and value != defaults[name]:
            changed = copy.deepcopy(document)
            changed["options"][name] = defaults[name]
            yield changed
    if document.get("life") == {}:
        changed = copy.deepcopy(document)
        del changed["life"]
        yield changed
    for player in document.get("life", {}):
        changed = copy.deepcopy(document)
        del changed["life"][player]
        if not changed["life"]:
            del changed["life"]
        yield changed
    for path, key, value, plain in _numbers(document):
        if key == "turn":
            changed = copy.deepcopy(document)
            del _at(changed, path)[key]
            yield changed
        if value == plain:
            continue
        for simpler in dict.fromkeys((plain, value - 1 if value > plain else value + 1)):  # never past ``plain``
            if simpler != value and (simpler - plain) * (value - plain) >= 0:
                changed = copy.deepcopy(document)
                _at(changed, path)[key] = simpler
                yield changed
    players, active = document["players"], document["active_player"]
    if active in players and players.index(active) > 0:
        changed = copy.deepcopy(document)
        changed["active_player"] = players[0]
        yield changed
        changed = copy.deepcopy(document)
        changed["players"] = [active, *(p for p in players if p != active)]
        yield changed
