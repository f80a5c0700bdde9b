"""phase.rs (https://github.com/phase-rs/phase), an open-source MTG rules engine in Rust, checked through its Python
binding ``phase-python`` (import name ``phase``; pinned, see ``PHASE_VERSION``).

Install with ``pip install 'trigger-conformance[phase]'`` and run ``trigger-conformance run --engine phase --ruleset
mtg``. What the adapter does with one scenario:

1. **Render**: every scenario object becomes a synthetic creature card whose Oracle text phase's own parser reads
   (``phase.build_oracle_face``), one line per triggered ability, in the ability's order (phase's ``printed_index``
   maps a stack entry back to its ability). The subset it renders (anything else is ``Skipped``, never guessed):

   * trigger conditions ``enter`` / ``leave`` (``to: graveyard`` is "dies"), subject ``self`` ("this creature"),
     ``other`` ("another creature") or ``any`` ("a creature");
   * ``intervening_if`` ``life_at_least`` of the controller ("if you have N or more life"); ``optional`` ("you may");
   * effects on the ability's source or controller only: destroy this creature, this creature deals N damage to
     itself / to you, you gain / lose N life (at least one action);
   * scripted actions: a card moved from hand to the battlefield, a permanent moved to the graveyard or exile (debug
     ``MoveToZone`` with ``simulate: true``, so phase's own zone-change pipeline and triggers run);
   * later widened (the full table is in docs/engines/phase.md): effects and conditions on other objects through
     creature types, damage / life / "loses the game" triggers, control changes, concessions, players leaving, and
     ``target`` ``{"players": every player}`` on enter/leave abilities ("target player loses N life", "this creature
     deals N damage to target player"; MTG 603.3d), and ``{"candidates": ...}`` of every object ("target creature")
     or one object ("destroy target Elf", "exile target Elf", "deals N damage to target Elf"); reflexive abilities
     ("destroy all Elves. When you do, ...", 603.12) and delayed ones lasting the turn ("whenever a creature dies
     this turn, ...", 603.7), each only as the last instruction of its creator.

   :data:`PROFILE` declares this subset to the MTG scenario builder (``Engine.generation_profile``).
2. **Play**: a free-for-all game with one seat per scenario player in turn order, the active player first; every
   hand kept; debug mode on; the battlefield placed without triggers (``simulate: false``); then each scripted
   action, every player passing priority until the stack is empty. ``OrderTriggers`` prompts are answered from the
   harness's chooser, ``OptionalEffectChoice`` and ``TriggerTargetSelection`` (a player or creature target)
   prompts likewise; a target phase asks after a priority pass (phase-rs/phase#1287) is written where phase asked,
   not on the push. An ability phase offered for ordering and then removed for want of a legal target is written
   removed for ``no_target`` (603.3d); alone, phase reports nothing of it, and the scenario is ``Skipped``.
3. **Trace**: phase's events (``ZoneChanged``, ``DamageDealt``, ``LifeChanged``, ``StackResolved``,
   ``CreatureDestroyed``...) and its stack (``game.stack()``, bottom to top, each entry naming its source,
   controller, ``printed_index`` and ``trigger_event``) become trace entries: events, trigger instances (placed right
   after the event phase says triggered them), stack pushes in the order they appear on phase's stack, resolutions,
   state-based actions (a creature destroyed with no source) and priority.

What the adapter cannot observe it does not invent; see docs/engines/phase.md for the limits and the triage.
"""

from __future__ import annotations

import json
import re
from typing import Any

from reference_engine.kernel.engine import Chooser, Engine, EngineInfo, Skipped
from reference_engine.kernel.errors import EngineError

PHASE_VERSION = "0.103.0"
INSTALL_HINT = "install the extra: pip install 'trigger-conformance[phase]'"
RULESET = "mtg"
EDITIONS = ["2026-02-27", "2021-02-24"]

# Everything the MTG builder can leave out, phase's adapter leaves out: what remains is exactly the subset rendered.
# What it renders besides: effects and conditions on other objects (each object has a creature type of its own),
# exile, effects on the other player of a two-player game, damage and life triggers, control changes by the script.
PROFILE: dict[str, Any] = {"exclude": [
    "signals", "state_triggers", "watchers", "targets", "move_together", "prevented",
    "dies_when", "script_damage", "empty_effects", "graveyard_triggers",
    # finer, never drawn by the swarm: "each opponent" is one player only in a two-player game; "Whenever a player
    # gains or loses life" sees life lost to damage too; "your graveyard" is the only one it can name; "target player
    # loses the game" needs a target prompt the adapter does not answer
    "other_players_multiplayer", "life_triggers", "foreign_graveyard_conditions", "concede_effects",
    # MTG vocabulary the adapter does not render yet (issue 12.1)
    "filters", "zone_changes", "batching", "turns", "spells",
    # excluded to include: enter/leave abilities may target "target player" (the only targeted wording rendered;
    # the builder's other targeted abilities trigger on named signals)
    "untargeted_zone_triggers",
    # reflexive abilities only as phase words them: "destroy all Elves. When you do, ..." closing the effect
    "reflexive_anywhere",
    # delayed abilities only as phase words them: "whenever a creature dies this turn, ..." closing the effect
    "delayed_anywhere",
    # shapes the adapter would skip (docs/engines/phase.md, "Skipped"): targets with no legal candidate unless phase
    # asks for an order with them; scripted events a delayed ability may trigger on (debug moves do not fire them);
    # delayed abilities created several times; "you may" before another player's hand or life; control changes of
    # cards in a hand, to players who leave the game, of permanents whose text says "you"
    "stray_targets", "scripted_delayed_triggers", "repeated_delayed_creations", "optional_for_others",
    "hand_control_changes",
]}

# One creature type per scenario object (in the scenario's object order), so that Oracle text can name one object
# among the others: "destroy all Goblins", "Whenever a Goblin dies", "if a Goblin is on the battlefield". Each was
# checked to parse into a filter on that subtype (tests/test_phase_adapter.py).
CREATURE_TYPES: tuple[tuple[str, str], ...] = (
    ("Goblin", "Goblins"), ("Elf", "Elves"), ("Zombie", "Zombies"), ("Merfolk", "Merfolk"), ("Wizard", "Wizards"),
    ("Soldier", "Soldiers"), ("Knight", "Knights"), ("Cleric", "Clerics"), ("Rogue", "Rogues"),
    ("Warrior", "Warriors"), ("Beast", "Beasts"), ("Spirit", "Spirits"), ("Vampire", "Vampires"),
    ("Dragon", "Dragons"), ("Angel", "Angels"), ("Demon", "Demons"), ("Horror", "Horrors"), ("Giant", "Giants"),
    ("Faerie", "Faeries"), ("Minotaur", "Minotaurs"), ("Centaur", "Centaurs"), ("Dwarf", "Dwarves"),
    ("Sphinx", "Sphinxes"), ("Hydra", "Hydras"),
)


class Names:
    """What the rendering needs of the whole scenario: each object's creature type (singular, plural) and the
    players. ``Names.of(scenario)``; ``Names.alone(obj)`` for one object rendered on its own."""

    def __init__(self, objects: list[dict[str, Any]], players: list[str]):
        if len(objects) > len(CREATURE_TYPES):
            raise Skipped(f"phase adapter: {len(objects)} objects, more than the {len(CREATURE_TYPES)} creature types "
                          f"that name them")
        self.types = {o["id"]: CREATURE_TYPES[n] for n, o in enumerate(objects)}
        self.owner = {o["id"]: o["owner"] for o in objects}
        self.players = list(players)

    @staticmethod
    def of(scenario: dict[str, Any]) -> "Names":
        return Names(scenario["objects"], scenario["players"])

    @staticmethod
    def alone(obj: dict[str, Any]) -> "Names":
        return Names([obj], [obj["owner"]])

    def one(self, obj_id: str) -> str:
        if obj_id not in self.types:
            raise Skipped(f"phase adapter: {obj_id!r} names no object of the scenario")
        return self.types[obj_id][0]

    def a(self, obj_id: str) -> str:
        """"a Goblin", "an Elf"."""
        kind = self.one(obj_id)
        return f"{'an' if kind[0] in 'AEIOU' else 'a'} {kind}"

    def all(self, obj_id: str) -> str:
        self.one(obj_id)
        return self.types[obj_id][1]

    def opponent(self, controller: str, player: str) -> bool:
        """Whether "each opponent" of ``controller`` is exactly ``player`` (a two-player game)."""
        return len(self.players) == 2 and player != controller and player in self.players

ZONES = {"Battlefield": "field", "Graveyard": "graveyard", "Exile": "exile", "Hand": "hand", "Library": "deck"}
PHASE_ZONE = {v: k for k, v in ZONES.items()}
MAX_APPLIES = 2000
# Phase events that change nothing a trace records: the adapter reads them, or they only report bookkeeping.
BOOKKEEPING = frozenset({"PriorityPassed", "EffectResolved", "StackResolved", "CreatureDestroyed", "DebugActionUsed",
                         "PhaseChanged", "StackPushed", "TriggersOrdered", "OptionalEffectDecided",
                         # a target chosen: the trace's choice entry and stack_push say it
                         "BecomesTarget", "CrimeCommitted"})


def _import_phase():
    try:
        import phase  # noqa: PLC0415
    except ImportError:
        raise EngineError("unavailable", f"phase-python is not installed; {INSTALL_HINT}") from None
    return phase


# -- Rendering -------------------------------------------------------------------------------------------------------


def card_name(obj_id: str) -> str:
    return f"Conformance {obj_id}"


def render_trigger(trigger: dict[str, Any], names: Names | None = None) -> str:
    """The trigger condition as Oracle text (no comma). Raises Skipped outside the rendered subset."""
    event, subject = trigger.get("event"), trigger.get("subject", "any")
    extra = set(trigger) - {"event", "subject", "to"}
    if extra:
        raise Skipped(f"phase adapter: trigger fields {sorted(extra)} are not rendered")
    if event == "player_leaves" and subject == "any":
        return "Whenever a player loses the game"
    if event == "life":
        if subject != "any" or "to" in trigger:
            raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the subset")
        return "Whenever a player gains or loses life"
    if subject in ("self", "other", "any"):
        who = {"self": "When this creature", "other": "Whenever another creature", "any": "Whenever a creature"}[subject]
    elif names is not None and subject in names.types:
        who = f"Whenever {names.a(subject)}"
    else:
        raise Skipped(f"phase adapter: a trigger watching {subject!r} has no Oracle wording here")
    if event == "damage" and "to" not in trigger:
        return f"{who.replace('When this', 'Whenever this')} deals damage"
    if event == "enter" and "to" not in trigger:
        return f"{who} enters"
    if event == "leave":
        to = trigger.get("to")
        if to == "graveyard":
            return f"{who} dies"
        if to is None:
            return f"{who} leaves the battlefield"
    raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the rendered subset")


def target_noun(target: dict[str, Any], names: Names) -> str:
    """What "target ..." names for an ability's ``target`` (MTG 115.1, 603.3d): "player" for every player of the
    game; "creature" for every object of the scenario (each is a creature card, so on the battlefield exactly the
    creatures); one object's creature type ("Elf") for that object alone. Raises Skipped for any other set of
    candidates (or a target zone other than the battlefield)."""
    if set(target) == {"players"} and sorted(target["players"]) == sorted(names.players):
        return "player"
    if set(target) == {"candidates"}:
        candidates = list(target["candidates"])
        if len(candidates) == 1 and candidates[0] in names.types:
            return names.one(candidates[0])
        if candidates and sorted(candidates) == sorted(names.types):
            return "creature"
    raise Skipped(f"phase adapter: target {json.dumps(target, sort_keys=True)} is not rendered (only 'target player', "
                  f"any player of the game; 'target creature', any object; 'target Elf', one object)")


def render_action(action: dict[str, Any], obj: dict[str, Any], names: Names | None = None,
                  own_move: bool = False, aim: str | None = None) -> str:
    """One effect instruction as an Oracle sentence (lower-case start, no period); "you" is the ability's controller
    (an ability whose source changed hands is skipped where that matters, see _Play.take_pushes). ``own_move``: the
    ability may have triggered on its source's own zone change, so "this creature" can find the card in its new zone
    (CR 400.7's exception for such abilities): an exile of the permanent is then worded through its creature type.
    ``aim``: the ability's :func:`target_noun` (None: it has no target)."""
    names = names or Names.alone(obj)
    do = action.get("do")
    me, owner = obj["id"], obj.get("controller", obj["owner"])
    if do == "create_delayed":
        return render_delayed(action, obj, names)
    if do == "move" and action.get("from") == "field" and action.get("to") in ("graveyard", "exile"):
        verb = "destroy" if action["to"] == "graveyard" else "exile"
        target = action.get("object")
        if target == me and not (own_move and verb == "exile"):
            return f"{verb} this creature"
        return f"{verb} all {names.all(target)}"
    if do == "move" and action.get("from") == "hand" and action.get("to") == "field":
        # each card enters under its owner's control, as the judge reads it (whoever controls the ability)
        return f"each player puts all {names.one(action['object'])} cards from their hand onto the battlefield"
    if action.get("target") is True and do == "damage" and "source" not in action and not action.get("prevented"):
        return f"this creature deals {action['amount']} damage to target {aim}"
    if action.get("target") is True and do == "life" and action.get("amount", 0) < 0 and aim == "player":
        return f"target player loses {-action['amount']} life"  # "target player gains" parses with no target
    if do == "move_target" and action.get("to") in ("graveyard", "exile") and aim not in (None, "player"):
        return f"{'destroy' if action['to'] == 'graveyard' else 'exile'} target {aim}"
    if action.get("target") is True or do == "move_target":
        raise Skipped(f"phase adapter: targeted effect {json.dumps(action, sort_keys=True)} is not rendered")
    if do == "damage" and not action.get("prevented") and "source" not in action:
        n = action["amount"]
        if "object" in action:
            if action["object"] == me:
                return f"this creature deals {n} damage to this creature"  # "to itself" parses as another target
            return f"this creature deals {n} damage to each {names.one(action['object'])}"
        if action.get("player") == owner:
            return f"this creature deals {n} damage to you"
        if names.opponent(owner, action.get("player")):
            return f"this creature deals {n} damage to each opponent"
    if do == "life" and action.get("amount"):
        n = action["amount"]
        verb = f"gain {n}" if n > 0 else f"lose {-n}"
        if action.get("player") == owner:
            return f"you {verb} life"
        if names.opponent(owner, action.get("player")):
            return f"each opponent {verb.replace('gain', 'gains').replace('lose', 'loses')} life"
    raise Skipped(f"phase adapter: effect {json.dumps(action, sort_keys=True)} is outside the rendered subset")


def render_condition(cond: dict[str, Any], names: Names | None = None, controller: str | None = None) -> str:
    """An intervening 'if' (603.4) as Oracle text: life totals of the controller, the source or one object on the
    battlefield, one card of the controller's not in their graveyard."""
    test = cond.get("test")
    if test in ("life_at_least", "life_at_most") and cond.get("player", "controller") == "controller":
        return f"if you have {cond['value']} or {'more' if test == 'life_at_least' else 'less'} life"
    if test == "in_zone" and cond.get("zone") == "field" and cond.get("object", "self") == "self":
        return "if this creature is on the battlefield"
    if test == "not_in_zone" and cond.get("zone") == "graveyard" and names is not None \
            and names.owner.get(cond.get("object")) == controller:
        return f"if there are no {names.one(cond['object'])} cards in your graveyard"
    if test == "in_zone" and cond.get("zone") == "field" and names is not None \
            and cond.get("object") not in (None, "self") and cond["object"] in names.types:
        return f"if {names.a(cond['object'])} is on the battlefield"
    raise Skipped(f"phase adapter: intervening condition {json.dumps(cond, sort_keys=True)} is not rendered")


def render_ability(ability: dict[str, Any], obj: dict[str, Any], names: Names | None = None) -> str:
    names = names or Names.alone(obj)
    extra = set(ability) - {"id", "trigger", "effect", "optional", "intervening_if", "target"}
    if extra:
        raise Skipped(f"phase adapter: ability fields {sorted(extra)} are not rendered")
    aim = None
    if "target" in ability:
        # "target player" (every player of the game a candidate: phase's ChooseTarget offers the players still in
        # it), "target creature" (every object), "target Elf" (one object); in the first instruction only
        aim = target_noun(ability["target"], names)
        first = (ability.get("effect") or [{}])[0]
        if first.get("target") is not True and first.get("do") != "move_target" \
                or any(a.get("target") is True or a.get("do") == "move_target" for a in ability["effect"][1:]):
            raise Skipped(f"phase adapter: target {json.dumps(ability['target'], sort_keys=True)} is rendered in "
                          f"the first instruction only")
    head = render_trigger(ability["trigger"], names)
    cond = ability.get("intervening_if")
    if cond is not None:
        head += ", " + render_condition(cond, names, obj.get("controller", obj["owner"]))
    effect = ability.get("effect", [])
    if not effect:
        raise Skipped("phase adapter: an ability with no effect has no Oracle wording")
    trigger = ability["trigger"]
    own_move = trigger.get("event") == "leave" and trigger.get("subject", "any") in ("self", "any")
    reflexive = None
    if effect[-1].get("do") == "reflexive":
        reflexive = render_reflexive(effect, obj, names)
        effect = effect[:-1]
    if any(a.get("do") == "create_delayed" for a in effect[:-1]) or ability.get("optional") and any(
            a.get("do") == "create_delayed" for a in effect):
        raise Skipped("phase adapter: a delayed ability is worded only as the last instruction of an ability that "
                      "is not optional")
    sentences = [render_action(a, obj, names, own_move, aim) for a in effect]
    if ability.get("optional"):  # phase makes the whole ability optional (checked in tests/test_phase_adapter.py)
        first = sentences[0]
        if first.startswith("you "):
            sentences[0] = "you may " + first[len("you "):]
        elif first.startswith("target player loses "):
            sentences[0] = "you may have " + first.replace(" loses ", " lose ", 1)
        elif first.startswith("this creature deals"):
            sentences[0] = "you may have " + first.replace(" deals ", " deal ", 1)
        elif first.startswith("each player puts ") and names.owner.get(effect[0].get("object")) \
                == obj.get("controller", obj["owner"]):
            # from the controller's own hand, "you may put" reads right (it follows the controller: see take_pushes)
            sentences[0] = f"you may put all {names.one(effect[0]['object'])} cards from your hand onto the battlefield"
        elif first.startswith("each "):
            # "you may have each opponent lose N life" parses as any player; "you may have each player put ... from
            # their hand" moves nothing from another player's hand
            raise Skipped(f"phase adapter: an optional ability beginning {first!r} has no Oracle wording phase reads")
        else:
            sentences[0] = "you may " + first
    text = f"{head}, {sentences[0]}."
    for s in sentences[1:]:
        # An optional ability is optional as a whole (603.5): every later sentence depends on the first being used.
        text += f" If you do, {s}." if ability.get("optional") else f" {s[0].upper()}{s[1:]}."
    if reflexive is not None:
        text += f" When you do, {reflexive}."
    return text


def render_delayed(action: dict[str, Any], obj: dict[str, Any], names: Names) -> str:
    """A delayed triggered ability lasting the turn (603.7) as phase's "whenever ... this turn, ..." (no period):
    triggering on a creature (any, or one object) leaving the battlefield or dying, with one instruction and no
    intervening "if". Only as the last instruction of an effect (render_ability)."""
    made = action["ability"]
    trigger = made.get("trigger") or {}
    subject = trigger.get("subject", "any")
    if action.get("duration") != "turn" or set(made) != {"id", "trigger", "effect"} or len(made["effect"]) != 1 \
            or trigger.get("event") != "leave" or set(trigger) - {"event", "subject", "to"} \
            or trigger.get("to") not in (None, "graveyard") or not (subject == "any" or subject in names.types):
        raise Skipped(f"phase adapter: delayed ability {json.dumps(action, sort_keys=True)} has no 'whenever ... this "
                      f"turn' wording here (a creature or one object leaving or dying, lasting the turn, one "
                      f"instruction, no intervening 'if')")
    who = "a creature" if subject == "any" else names.a(subject)
    what = "dies" if trigger.get("to") == "graveyard" else "leaves the battlefield"
    return f"whenever {who} {what} this turn, {render_action(made['effect'][0], obj, names)}"


def _delayed_effect(execute: dict[str, Any] | None, n: int) -> dict[str, Any] | None:
    """The effect of the ``n``-th delayed ability a phase ability's chain creates (None if it creates fewer)."""
    while execute:
        if execute["effect"].get("type") == "CreateDelayedTrigger":
            if n == 0:
                return execute["effect"]["effect"]["effect"]
            n -= 1
        execute = execute.get("sub_ability")
    return None


def _when_you_do(execute: dict[str, Any] | None) -> dict[str, Any] | None:
    """The effect of the "When you do" sub-ability in a phase ability's chain (None if it has none)."""
    while execute:
        if (execute.get("condition") or {}).get("type") == "WhenYouDo":
            return execute["effect"]
        execute = execute.get("sub_ability")
    return None


def reflexive_victim(effect: list[dict[str, Any]]) -> str | None:
    """The object whose destruction the last action of ``effect``, a reflexive ability, watches (None if none)."""
    if effect and effect[-1].get("do") == "reflexive" and len(effect) >= 2:
        return effect[-2].get("object")
    return None


def render_reflexive(effect: list[dict[str, Any]], obj: dict[str, Any], names: Names) -> str:
    """A reflexive triggered ability (603.12) as phase's "When you do, ..." sentence (no period): only right after a
    "destroy" of one object whose death it watches ("destroy all Elves. When you do, ..."), with one instruction,
    no intervening "if" and no target. phase triggers "When you do" when the instruction before it did something,
    or, in an optional ability, when the choice was made: the adapter skips where that differs from the scenario's
    "when that object dies" (_Play.reflexive_check)."""
    action, before = effect[-1], effect[-2] if len(effect) >= 2 else {}
    made = action["ability"]
    victim = before.get("object")
    if before.get("do") != "move" or before.get("from") != "field" or before.get("to") != "graveyard" \
            or set(made) != {"id", "trigger", "effect"} or len(made["effect"]) != 1 \
            or made["trigger"] != {"event": "leave", "subject": victim, "to": "graveyard"}:
        raise Skipped(f"phase adapter: reflexive ability {json.dumps(made, sort_keys=True)} has no 'When you do' "
                      f"wording here (only right after destroying the one object whose death it watches, one "
                      f"instruction, no intervening 'if')")
    # watching its own source's death, it is such an ability as 400.7 lets find the card in its new zone: an exile of
    # the source is worded through its type (as render_ability does for leaves-the-battlefield abilities)
    return render_action(made["effect"][0], obj, names, own_move=victim == obj["id"])


def card_text(obj: dict[str, Any], names: Names | None = None) -> str:
    return "\n".join(render_ability(a, obj, names) for a in obj.get("abilities", ()))


def mtgjson_face(obj: dict[str, Any], names: Names | None = None) -> dict[str, Any]:
    names = names or Names.alone(obj)
    toughness = obj.get("toughness", 1)
    kind = names.one(obj["id"])
    return {"name": card_name(obj["id"]), "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
            "supertypes": [], "subtypes": [kind], "text": card_text(obj, names), "type": f"Creature \u2014 {kind}",
            "layout": "normal",
            "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
            "foreignData": [], "rulings": [], "power": "1", "toughness": str(toughness)}


def _names_a_player(action: dict[str, Any]) -> bool:
    return action.get("do") in ("life", "damage") and "player" in action


# Words of a rendered text that name a player through the ability's controller ("you", "your graveyard", "each
# opponent"), after removing those the scenario means the same way (its life conditions are the controller's too,
# 603.4; an optional ability's choice is its controller's, 603.5).
FOLLOWS_CONTROLLER = re.compile(r"\byou\b|\byour\b|\bopponent\b", re.IGNORECASE)
FOLLOWS_ALIKE = re.compile(r"if you have \d+ or (more|less) life|you may( have)?|If you do|When you do")


def check_scenario(scenario: dict[str, Any]) -> Names:
    """Raise Skipped unless the whole scenario is in the rendered subset (before anything is played); else return
    the names its Oracle text uses."""
    empty = [p for p in scenario["players"] if not any(o["owner"] == p for o in scenario["objects"])]
    if empty:
        raise Skipped(f"phase adapter: {empty} own no object; each seat's deck is its player's objects, and phase "
                      f"does not start a game with an empty library")
    names = Names.of(scenario)
    for player, total in (scenario.get("life") or {}).items():
        if player not in scenario["players"] or not isinstance(total, int) or total <= 0:
            raise Skipped(f"phase adapter: starting life {total!r} of {player!r} is not rendered (debug SetLife)")
    effects = [a for o in scenario["objects"] for ab in o.get("abilities", ()) for a in ab.get("effect", ())]
    script = [e for step in scenario["script"] for action in step["actions"] for e in action["effect"]]
    if any(ab["trigger"].get("event") == "life" for o in scenario["objects"] for ab in o.get("abilities", ())) \
            and any(_names_a_player(a) and a.get("do") == "damage" for a in effects + script):
        raise Skipped("phase adapter: a player is dealt damage where an ability triggers on life changes (a life "
                      "loss from damage, which the scenario's life trigger does not see)")
    for obj in scenario["objects"]:
        if obj["zone"] not in ("field", "hand"):
            raise Skipped(f"phase adapter: {obj['id']} starts in {obj['zone']}; only battlefield and hand are placed")
        if obj.get("controller", obj["owner"]) != obj["owner"] and obj["zone"] != "field":
            raise Skipped("phase adapter: a card in a hand controlled by another player is not rendered")
        if "dies_when" in obj or set(obj) - {"id", "owner", "zone", "toughness", "abilities", "controller"}:
            raise Skipped(f"phase adapter: object fields of {obj['id']} are outside the rendered subset")
        for ability in obj.get("abilities", ()):
            render_ability(ability, obj, names)
    for step in scenario["script"]:
        for action in step["actions"]:
            if action["by"] != scenario["active_player"]:
                raise Skipped("phase adapter: scripted actions by a non-active player are not rendered")
            for effect in action["effect"]:
                ok = effect.get("do") == "move" and (
                    (effect.get("from") == "hand" and effect.get("to") == "field")
                    or (effect.get("from") == "field" and effect.get("to") in ("graveyard", "exile"))) \
                    or effect.get("do") == "gain_control" and effect.get("object") in names.types \
                    and effect.get("player") in scenario["players"] \
                    or effect.get("do") == "concede" and effect.get("player") in scenario["players"]
                if not ok:
                    raise Skipped(f"phase adapter: scripted action {json.dumps(effect, sort_keys=True)} is outside "
                                  f"the rendered subset")
    return names


def _may_trigger(trigger: dict[str, Any], event: dict[str, Any], source: str) -> bool:
    """Whether trace ``event`` may be one that ``trigger`` (in the rendered subset) triggers on, leaving out what
    would narrow it further (its intervening "if", where its source is): true whenever in doubt."""
    kind, subject = trigger.get("event"), trigger.get("subject", "any")
    if kind in ("damage", "life", "player_leaves"):
        return event["type"] == kind
    if kind not in ("enter", "leave") or event["type"] != kind:
        return event["type"] == kind or kind not in ("enter", "leave")
    if kind == "leave" and trigger.get("to") == "graveyard" and event.get("to") != "graveyard":
        return False
    who = event.get("subject")
    return subject == "any" or subject == "self" and who == source or subject == "other" and who != source \
        or subject == who


def _destroyed_by_rules(events: list[dict[str, Any]]) -> set[int]:
    return {e["data"]["object_id"] for e in events
            if e["type"] == "CreatureDestroyed" and (e.get("data") or {}).get("source_id") is None}


def _is_sba_move(event: dict[str, Any], events: list[dict[str, Any]]) -> bool:
    data = event.get("data") or {}
    return event["type"] == "ZoneChanged" and data.get("object_id") in _destroyed_by_rules(events) \
        and data.get("from") == "Battlefield" and data.get("to") == "Graveyard"


# StackPushed: phase reports an ability put on the stack after the resolution and its state-based actions
NEUTRAL = frozenset({"PriorityPassed", "DebugActionUsed", "PhaseChanged", "StackPushed"})


def _departures(events: list[dict[str, Any]]) -> dict[int, int]:
    """Index -> seat for every event of a player leaving the game, as phase reports it (800.4a): ``PlayerLost`` (when
    the player lost, not conceded), the objects they own exiled one by one, ``PlayerEliminated``, in a row."""
    found: dict[int, int] = {}
    for k, e in enumerate(events):
        if e["type"] != "PlayerEliminated":
            continue
        seat = e["data"]["player_id"]
        found[k] = seat
        j = k - 1
        while j >= 0 and (events[j]["type"] == "ZoneChanged" and events[j]["data"].get("to") == "Exile"
                          and (events[j]["data"].get("record") or {}).get("owner") == seat
                          or events[j]["type"] == "PlayerLost" and events[j]["data"].get("player_id") == seat):
            found[j] = seat
            j -= 1
    return found


def _sba_tail(events: list[dict[str, Any]]) -> int:
    """Where the final run of state-based-action events begins (``len(events)`` if the list does not end with one):
    creatures destroyed with no source, and players leaving the game (704.5a)."""
    destroyed = _destroyed_by_rules(events)
    leaving = _departures(events)
    cut = len(events)
    for k in range(len(events) - 1, -1, -1):
        e = events[k]
        data = e.get("data") or {}
        if e["type"] in NEUTRAL:
            continue
        if k in leaving:
            cut = k
            continue
        if e["type"] == "CreatureDestroyed" and data.get("source_id") is None or _is_sba_move(e, events) \
                and data.get("object_id") in destroyed:
            cut = k
            continue
        break
    while cut < len(events) and events[cut]["type"] in NEUTRAL:
        cut += 1
    return cut


def _first_sba(events: list[dict[str, Any]]) -> int:
    """Index of the first event of a state-based action in ``events`` (``len(events)`` if none)."""
    return next((k for k, e in enumerate(events) if _is_sba_move(e, events)
                 or e["type"] == "CreatureDestroyed" and (e.get("data") or {}).get("source_id") is None), len(events))


# -- The engine ----------------------------------------------------------------------------------------------------


# Cards phase parsed, by their MTGJSON face: shared by every PhaseEngine of the process (a run starts a fresh engine
# for each rule it concludes, and their shrinks play the same cards again); parsing is a pure function of the face.
_FACES: dict[str, Any] = {}
MAX_FACES = 4096


class PhaseEngine(Engine):
    """phase.rs behind the suite's adapter interface (MTG only; the subset of :data:`PROFILE`)."""

    def __init__(self) -> None:
        self._phase = _import_phase()

    @property
    def info(self) -> EngineInfo:
        return EngineInfo(name="phase.rs (phase-python)", version=PHASE_VERSION, rulesets={RULESET: list(EDITIONS)})

    def generation_profile(self, ruleset: str) -> dict[str, Any] | None:
        return PROFILE if ruleset == RULESET else None

    def face(self, obj: dict[str, Any], names: Names | None = None) -> Any:
        raw = mtgjson_face(obj, names)
        key = json.dumps(raw, sort_keys=True)
        if key not in _FACES:
            if len(_FACES) >= MAX_FACES:
                _FACES.clear()
            _FACES[key] = self._phase.build_oracle_face(raw, None)
        return _FACES[key]

    def run(self, scenario: dict[str, Any], chooser: Chooser) -> dict[str, Any]:
        if scenario.get("ruleset") != RULESET:
            raise Skipped(f"phase adapter: only the mtg ruleset (not {scenario.get('ruleset')!r})")
        names = check_scenario(scenario)
        faces = {}
        for obj in scenario["objects"]:
            face = self.face(obj, names)
            if len(face["triggers"]) != len(obj.get("abilities", ())) or face["abilities"] \
                    or face["static_abilities"] or face["replacements"]:
                raise Skipped(f"phase adapter: phase parsed {obj['id']}'s text into something else than its "
                              f"{len(obj.get('abilities', ()))} triggered abilities: {face['oracle_text']!r}")
            faces[card_name(obj["id"]).lower()] = face
        return _Play(self._phase, scenario, chooser, faces, names).play()


class _Play:
    """One scenario played on phase, and the trace written from what phase reports."""

    def __init__(self, phase, scenario: dict[str, Any], chooser: Chooser, faces: dict[str, Any], names: Names):
        self.scenario, self.chooser = scenario, chooser
        self.faces = faces
        self.descriptions = {o["id"]: [t["description"] for t in faces[card_name(o["id"]).lower()]["triggers"]]
                             for o in scenario["objects"]}
        self.players: list[str] = scenario["players"]
        self.seat = {p: n for n, p in enumerate(self.players)}
        self.active = scenario["active_player"]
        self.objects = {o["id"]: o for o in scenario["objects"]}
        self.texts = {a["id"]: render_ability(a, o, names) for o in scenario["objects"] for a in o.get("abilities", ())}
        self.entries: list[dict[str, Any]] = []
        self.counters = {"E": 0, "T": 0, "S": 0, "D": 0}
        # every ability by id, the reflexive ones (603.12) inside effects too
        self.specs = {a["id"]: a for o in scenario["objects"] for a in o.get("abilities", ())}
        self.parent_of = {e["ability"]["id"]: a["id"] for a in self.specs.values() for e in a["effect"]
                          if e.get("do") in ("reflexive", "create_delayed")}
        self.specs |= {e["ability"]["id"]: e["ability"] for a in list(self.specs.values()) for e in a["effect"]
                       if e.get("do") in ("reflexive", "create_delayed")}
        # delayed abilities created and still waiting to trigger (all last the turn, the script's only turn)
        self.live_delayed: list[dict[str, Any]] = []
        self.creations: dict[str, int] = {}  # resolving trigger -> delayed abilities it has created so far
        # (source, printed index) -> phase's "When you do" effect, which tells a reflexive entry of phase's stack
        # from its parent's (both name the parent's printed_index and trigger event)
        self.reflexive_effects = {
            (o["id"], n): json.dumps(_when_you_do(t["execute"]), sort_keys=True)
            for o in scenario["objects"] for n, t in enumerate(faces[card_name(o["id"]).lower()]["triggers"])
            if _when_you_do(t["execute"]) is not None}
        # reflexive abilities created and triggered, not yet seen on phase's stack or in an OrderTriggers prompt
        self.reflexive_waiting: list[dict[str, Any]] = []
        self.position = 0
        self.zones = {o["id"]: o["zone"] for o in scenario["objects"]}
        self.control = {o["id"]: o.get("controller", o["owner"]) for o in scenario["objects"]}
        self.left: set[str] = set()  # players who left the game
        self.left_since: list[tuple[str, int]] = []  # (player, their player_leaves event's number) since priority
        self.to_scenario: dict[int, str] = {}
        self.to_phase: dict[str, int] = {}
        self.known_stack: dict[int, str] = {}  # phase stack entry id -> trigger id
        self.pending: list[dict[str, Any]] = []  # trigger entries named in an OrderTriggers prompt, not yet pushed
        self.triggers: dict[str, dict[str, Any]] = {}
        self.chosen_targets: dict[str, str] = {}  # trigger -> the target chosen after it went on phase's stack
        self.offered_events: dict[str, Any] = {}  # trigger -> phase's trigger event, for prompts with a target
        self.push_orders: list[list[str]] = []  # the push order answered to such prompts (trigger ids)
        self.seen_at_priority = (0, 0)  # event and trigger counters when a player last received priority
        self.applies = 0
        engine = phase.Engine.from_json(json.dumps(faces))
        decks = [[card_name(o["id"]) for o in scenario["objects"] if o["owner"] == p] for p in self.players]
        try:
            game = engine.new_game(player=decks[0], opponent=decks[1], extra_players=decks[2:] or None, seed=1,
                                   format="FreeForAll", first_player=self.seat[self.active])
        except Exception as exc:
            raise EngineError("errored", f"phase could not start the game: {exc}") from None
        self.game = game
        while game.waiting_for()["type"] == "MulliganDecision":
            seat = game.waiting_for()["data"]["pending"][0]["player"]
            self.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
        state = game.state()
        state["state"]["debug_mode"] = True
        state["state"]["debug_permitted"] = list(range(len(self.players)))
        self.game = engine.load_game(state)
        self.waiting = self.game.waiting_for()
        for p in self.players:
            for card in self.game.hand(self.seat[p]):
                obj_id = card["name"][len("Conformance "):]
                self.to_scenario[card["id"]], self.to_phase[obj_id] = obj_id, card["id"]
        missing = [o for o in self.objects if o not in self.to_phase]
        if missing:
            raise EngineError("errored", f"phase did not deal {missing} into their owners' hands")
        for obj in scenario["objects"]:
            if obj["zone"] == "field":
                self.debug(self.seat[obj["owner"]], self.to_phase[obj["id"]], "field", simulate=False)
                if obj.get("controller", obj["owner"]) != obj["owner"]:
                    self.set_controller(self.to_phase[obj["id"]], obj["controller"])
        for player, total in (scenario.get("life") or {}).items():
            self.apply(self.seat[player], {"type": "Debug", "data": {"type": "SetLife", "data": {
                "player_id": self.seat[player], "life": total}}})
        if self.game.stack():
            raise EngineError("errored", "placing the battlefield without triggers put something on phase's stack")

    # -- phase calls ---------------------------------------------------------------------------------------------

    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        self.applies += 1
        if self.applies > MAX_APPLIES:
            raise EngineError("timed-out", f"phase did not finish the scenario within {MAX_APPLIES} actions")
        events = self.game.apply(seat, action).to_dict()["events"]
        self.waiting = self.game.waiting_for()  # what phase waits for changes only with an action: read once
        if self.waiting["type"] == "GameOver":
            raise Skipped("phase adapter: the game ended (a two-player game ends when a player loses; the scenario "
                          "goes on without them)")
        return events

    def set_controller(self, object_id: int, player: str) -> bool:
        """Debug ``SetController``; whether phase's object changed controller (read back from phase)."""
        before = self.game.object(object_id)["controller"]
        self.apply(self.seat[player], {"type": "Debug", "data": {"type": "SetController", "data": {
            "object_id": object_id, "controller": self.seat[player]}}})
        after = self.game.object(object_id)["controller"]
        if after != self.seat[player]:
            raise EngineError("errored", f"phase's SetController left object {object_id} with seat {after}")
        return after != before

    def debug(self, seat: int, object_id: int, zone: str, simulate: bool) -> list[dict[str, Any]]:
        return self.apply(seat, {"type": "Debug", "data": {"type": "MoveToZone", "data": {
            "object_id": object_id, "to_zone": PHASE_ZONE[zone], "simulate": simulate}}})

    # -- trace writing -------------------------------------------------------------------------------------------

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
        leaving = _departures(events)
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
                out.append(self.event(etype, event_cause, subject=obj, **{"from": frm, "to": to}))
            elif kind == "LifeChanged":
                player = self.players[data["player_id"]]
                nxt = events[k + 1] if k + 1 < len(events) else None
                if nxt and nxt["type"] == "DamageDealt" and nxt["data"].get("target") == {"Player": data["player_id"]} \
                        and nxt["data"]["amount"] == -data["amount"]:
                    continue  # reported again, right after, as the damage that caused it
                out.append(self.event("life", cause, player=player, amount=data["amount"]))
            elif kind == "DamageDealt":
                target = data.get("target") or {}
                fields: dict[str, Any] = {"subject": self.to_scenario.get(data.get("source_id")), "amount": data["amount"]}
                if "Player" in target:
                    fields["player"] = self.players[target["Player"]]
                elif "Object" in target:
                    fields["target"] = self.to_scenario.get(target["Object"])
                out.append(self.event("damage", cause, **fields))
            elif kind == "EffectResolved" and data.get("kind") == "CreateDelayedTrigger":
                if "resolution" not in cause:
                    raise EngineError("errored", "phase created a delayed ability outside any resolution")
                self.created_delayed(cause["resolution"])
            elif kind not in BOOKKEEPING:
                raise EngineError("errored", f"phase reported a {kind} event the adapter cannot map into the trace "
                                             f"(it never drops one): {json.dumps(data)[:200]}")
        return out

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
            raise EngineError("errored", f"{player} left the game while phase was asking them to order abilities")

    def sba_check(self) -> str:
        check = self.new_id("S")
        self.add("sba_check", id=check)
        return check

    # -- triggers ------------------------------------------------------------------------------------------------

    def ability_of(self, source: str, printed_index: int) -> str:
        abilities = self.objects[source].get("abilities", ())
        if printed_index >= len(abilities):
            raise EngineError("errored", f"phase names ability {printed_index} of {source}, which has "
                                         f"{len(abilities)}")
        return abilities[printed_index]["id"]

    def ability_index(self, source: str, ability: str) -> int:
        """phase's printed_index of ``ability`` of ``source`` (a reflexive ability's: its parent's)."""
        ability = self.parent_of.get(ability, ability)
        return [a["id"] for a in self.objects[source].get("abilities", ())].index(ability)

    def match_ability(self, source: str, description: str, taken: dict[tuple[str, int], int]) -> str:
        """The ability of ``source`` with this text. Identical lines of one card are told apart in the order offered
        (the least used first); one ability may be offered several times (it triggered on several events)."""
        lines = [n for n, text in enumerate(self.descriptions[source]) if text == description]
        if not lines:
            raise EngineError("errored", f"phase asked to order a trigger of {source} the adapter cannot name: "
                                         f"{description!r}")
        n = min(lines, key=lambda k: (taken.get((source, k), 0), k))
        taken[(source, n)] = taken.get((source, n), 0) + 1
        return self.objects[source]["abilities"][n]["id"]

    def find_event(self, trigger_event: dict[str, Any] | None, source: str, ability: str) -> str | None:
        """The trace event standing for the phase event a stack entry names as its trigger event: the latest one
        that matches and did not trigger this ability already (phase's payloads of two damage events dealt alike in
        one resolution are identical: each gets its own)."""
        if not trigger_event:
            return None
        kind, data = trigger_event.get("type"), trigger_event.get("data") or {}
        if kind == "ZoneChanged":
            want = {"subject": self.to_scenario.get(data["object_id"]), "from": ZONES.get(data["from"]),
                    "to": ZONES.get(data["to"])}
        elif kind == "DamageDealt":
            target = data.get("target") or {}
            want = {"type": "damage", "subject": self.to_scenario.get(data.get("source_id")), "amount": data.get("amount")}
            if "Player" in target:
                want["player"] = self.players[target["Player"]]
            else:
                want["target"] = self.to_scenario.get(target.get("Object"))
        elif kind == "LifeChanged":
            want = {"type": "life", "player": self.players[data["player_id"]], "amount": data.get("amount")}
        elif kind in ("PlayerLost", "PlayerEliminated"):
            want = {"type": "player_leaves", "player": self.players[data["player_id"]]}
        else:
            return None
        used = {t["event"] for t in self.triggers.values() if t["source"] == source and t["ability"] == ability}
        wants = [want] + ([want | {"to": "removed"}] if want.get("to") == "exile" else [])  # a departure's exile
        for want in wants:
            for entry in reversed(self.entries):
                if entry["kind"] == "event" and entry["id"] not in used \
                        and all(entry.get(k) == v for k, v in want.items()):
                    return entry["id"]
        return None

    def insert_trigger(self, entry: dict[str, Any]) -> None:
        """Place a trigger entry right after the event that triggered it (after triggers already placed there)."""
        at = len(self.entries)
        for n, e in enumerate(self.entries):
            if e["kind"] == "event" and e["id"] == entry["event"]:
                at = n + 1
                while at < len(self.entries) and "group" in e and self.entries[at].get("group") == e["group"]:
                    at += 1  # after every event of its group (one event, several occurrences)
                while at < len(self.entries) and self.entries[at]["kind"] == "trigger":
                    at += 1
                break
        self.entries.insert(at, entry)

    def answer_order(self, prompt: dict[str, Any]) -> list[dict[str, Any]]:
        seat = prompt["player"]
        player = self.players[seat]
        offered = []
        taken: dict[tuple[str, int], int] = {}
        waiting = self.phase_pending(seat, prompt) if self.live_delayed else None
        for n, t in enumerate(prompt["triggers"]):
            source = self.to_scenario[t["source_id"]]
            entry = {"kind": "trigger", "id": self.new_id("T"), "ability": None, "source": source,
                     "controller": player, "event": None}
            if waiting is not None and waiting[n]["ability"].get("trigger_definition_ref") is None:
                self.name_delayed(entry, waiting[n]["ability"], waiting[n].get("trigger_event"))
            else:
                entry["ability"] = self.match_ability(source, t["description"], taken)
            offered.append(entry)
        targeted = any("target" in self.spec(e) for e in offered)
        if targeted or self.reflexive_waiting:
            waiting = waiting or self.phase_pending(seat, prompt)
            for entry, pending in zip(offered, waiting):
                if "delayed" not in entry:
                    self.name_reflexive(entry, pending["ability"])
            if targeted:
                self.note_offered_events(offered, waiting)
        resolve = self.chooser.order(player, offered)
        push = list(reversed(resolve))
        self.pending.extend(offered)
        if targeted:
            self.push_orders.append([offered[k]["id"] for k in push])
        self.add("choice", player=player, decision="order", among=[e["id"] for e in offered],
                 chosen=[offered[k]["id"] for k in resolve])
        return self.apply(seat, {"type": "OrderTriggers", "data": {"order": push}})

    def phase_effect(self, entry: dict[str, Any]) -> str | None:
        """The effect phase gives a delayed trigger entry's ability (as JSON), from the live delayed abilities."""
        return next((d["effect"] for d in self.live_delayed if d["create"] == entry.get("delayed")), None)

    def spec(self, trigger: dict[str, Any]) -> dict[str, Any]:
        """The scenario's ability of a trigger entry (or of any dict naming an ``ability``)."""
        return self.specs[trigger["ability"]]

    def phase_pending(self, seat: int, prompt: dict[str, Any]) -> list[dict[str, Any]]:
        """phase's pending abilities behind an ``OrderTriggers`` prompt to ``seat`` (``pending_trigger_order`` in
        phase's state, in the prompt's order), each with its ``ability`` and ``trigger_event``: read only for prompts
        where the adapter needs more than the prompt says."""
        groups = self.game.state()["state"].get("pending_trigger_order") or {}
        waiting = [t["pending"] for g in groups.get("groups") or () if g.get("controller") == seat
                   for t in g.get("triggers") or ()]
        if len(waiting) != len(prompt["triggers"]) or any(
                pending["ability"]["source_id"] != item["source_id"]
                for pending, item in zip(waiting, prompt["triggers"])):
            raise EngineError("errored", f"phase's pending abilities ({len(waiting)}) do not match the "
                                         f"{len(prompt['triggers'])} it asked {self.players[seat]} to order")
        return waiting

    def note_offered_events(self, offered: list[dict[str, Any]], waiting: list[dict[str, Any]]) -> None:
        """The event each ability offered in an ``OrderTriggers`` prompt triggered on, as phase's pending abilities
        say (read for prompts offering a targeted ability): phase may remove such an ability as it would go on the
        stack, with no legal target (603.3d), and then names its event nowhere else."""
        for entry, pending in zip(offered, waiting):
            ability = pending["ability"]
            if "delayed" in entry:
                continue
            index = ability["trigger_definition_ref"]["occurrence"]["data"]["printed_index"]
            if self.ability_index(entry["source"], entry["ability"]) != index:
                raise EngineError("errored", f"phase's pending abilities are not in the order of its prompt: "
                                             f"{ability['description']!r} for {entry['ability']}")
            self.offered_events[entry["id"]] = pending.get("trigger_event")

    def is_reflexive(self, source: str, ability: dict[str, Any]) -> bool:
        """Whether phase's ability (a stack entry's or a pending one's) is the "When you do" of its printed ability:
        its effect is that sub-ability's and nothing follows it (the parent's chain always goes on to it)."""
        index = ability["trigger_definition_ref"]["occurrence"]["data"]["printed_index"]
        want = self.reflexive_effects.get((source, index))
        return want is not None and ability.get("sub_ability") is None \
            and json.dumps(ability.get("effect"), sort_keys=True) == want

    def name_reflexive(self, entry: dict[str, Any], ability: dict[str, Any]) -> bool:
        """If phase's ``ability`` is a reflexive ability waiting since the resolution that created it (``reflexive``),
        give trigger ``entry`` its identity: the reflexive ability, its creation, the death it triggered on; it is
        placed right after its creation. Whether it was."""
        if not self.is_reflexive(entry["source"], ability):
            return False
        index = ability["trigger_definition_ref"]["occurrence"]["data"]["printed_index"]
        made = next((w for w in self.reflexive_waiting if w["key"] == (entry["source"], index)), None)
        if made is None:  # e.g. an optional ability whose choice was made, its "destroy" destroying nothing
            raise Skipped(f"phase adapter: phase triggered a 'When you do' ability of {entry['source']} with no death "
                          f"in the resolution that created it: phase's 'When you do' does not watch a death")
        self.reflexive_waiting.remove(made)
        entry.update(ability=made["ability"], controller=made["controller"], event=made["event"],
                     delayed=made["create"])
        at = next(n for n, e in enumerate(self.entries) if e["kind"] == "delayed_create" and e["id"] == made["create"])
        self.entries.insert(at + 1, entry)
        self.triggers[entry["id"]] = entry
        return True

    def removed_unplaced(self) -> None:
        """Abilities phase offered in an ``OrderTriggers`` prompt, that have a target, and that it never put on its
        stack once it gives priority again: phase removed them as they would go on the stack, no legal target
        being left (603.3d). Each is written where the order put it: its trigger after its event, its stack_push
        (no target) among the pushes of its prompt, removed for ``no_target`` right after."""
        for entry in [e for e in self.pending if e["id"] in self.offered_events and "target" in self.spec(e)]:
            entry["event"] = self.find_event(self.offered_events[entry["id"]], entry["source"], entry["ability"])
            if entry["event"] is None:
                raise EngineError("errored", f"phase's pending {entry['ability']} names an event the trace does not "
                                             f"hold: {json.dumps(self.offered_events[entry['id']])[:200]}")
            self.pending.remove(entry)
            order = next(o for o in self.push_orders if entry["id"] in o)
            after = order[order.index(entry["id"]) + 1:]
            at = next((n for n, e in enumerate(self.entries) if e["kind"] == "stack_push" and e["trigger"] in after),
                      len(self.entries))
            self.entries[at:at] = [{"kind": "stack_push", "trigger": entry["id"]},
                                   {"kind": "removed", "trigger": entry["id"], "reason": "no_target"}]
            self.insert_trigger(entry)
            self.triggers[entry["id"]] = entry

    def take_pushes(self) -> list[dict[str, Any]]:
        """New entries on phase's stack (bottom to top: the order they were put there) become trigger instances
        and stack pushes; returns phase's stack as read. Abilities that phase put there without asking their controller for an order because their
        text is identical (phase asks only when a player's waiting abilities differ) are interchangeable when the
        text names no object through "this creature" and they triggered on the same event: their identities are
        mapped onto phase's stack entries in the order the chooser wants (see ``interchange``)."""
        unasked: list[tuple[dict[str, Any], str]] = []
        stack = self.game.stack()
        for item in stack:
            if item["id"] in self.known_stack:
                continue
            if item["kind"]["type"] != "TriggeredAbility":
                raise EngineError("errored", f"phase put a {item['kind']['type']} on the stack")
            if item["kind"]["data"]["ability"].get("trigger_definition_ref") is None:  # a delayed ability
                source = self.to_scenario.get(item["source_id"])
                if source is None:
                    raise EngineError("errored", f"phase put an ability of unknown object {item['source_id']} on "
                                                 f"the stack")
                entry = next((e for e in self.pending if e["source"] == source and "delayed" in e
                              and e["ability"] in {d["ability"] for d in self.live_delayed}
                              and self.phase_effect(e) == json.dumps(item["kind"]["data"]["ability"].get("effect"),
                                                                     sort_keys=True)), None)
                if entry is not None:  # named as phase asked for the order
                    self.pending.remove(entry)
                else:
                    entry = {"kind": "trigger", "id": self.new_id("T"), "ability": None, "source": source,
                             "controller": self.players[item["controller"]], "event": None}
                    self.name_delayed(entry, item["kind"]["data"]["ability"], item["kind"]["data"].get("trigger_event"))
                self.known_stack[item["id"]] = entry["id"]
                self.add("stack_push", trigger=entry["id"])
                continue
            if self.is_reflexive(self.to_scenario.get(item["source_id"]), item["kind"]["data"]["ability"]):
                source = self.to_scenario[item["source_id"]]
                entry = next((e for e in self.pending if e["source"] == source and "delayed" in e
                              and self.parent_of.get(e["ability"]) is not None
                              and any(a.get("do") == "reflexive" and a["ability"]["id"] == e["ability"]
                                      for a in self.specs[self.parent_of[e["ability"]]]["effect"])), None)
                if entry is not None:  # named as phase asked for the order
                    self.pending.remove(entry)
                else:
                    entry = {"kind": "trigger", "id": self.new_id("T"), "ability": None, "source": source,
                             "controller": self.players[item["controller"]], "event": None}
                    self.name_reflexive(entry, item["kind"]["data"]["ability"])
                self.known_stack[item["id"]] = entry["id"]
                self.add("stack_push", trigger=entry["id"])
                continue
            data = item["kind"]["data"]
            source = self.to_scenario.get(item["source_id"])
            if source is None:
                raise EngineError("errored", f"phase put an ability of unknown object {item['source_id']} on the stack")
            index = data["ability"]["trigger_definition_ref"]["occurrence"]["data"]["printed_index"]
            ability = self.ability_of(source, index)
            entry = next((e for e in self.pending if e["source"] == source and e["ability"] == ability), None)
            if entry is not None:
                self.pending.remove(entry)
            else:
                entry = {"kind": "trigger", "id": self.new_id("T"), "ability": ability, "source": source,
                         "controller": self.players[item["controller"]], "event": None}
                unasked.append((entry, self.descriptions[source][index]))
            entry["controller"] = self.players[item["controller"]]
            owner = self.objects[source]["owner"]
            if entry["controller"] != owner and FOLLOWS_CONTROLLER.search(FOLLOWS_ALIKE.sub("", self.texts[ability])):
                # "you" is the new controller where the scenario names the owner (an intervening "if" about "your
                # graveyard" can only have been true for the new controller if it was true for the owner too)
                raise Skipped(f"phase adapter: {source} changed hands and its ability {ability} names a player "
                              f"through its controller: {self.texts[ability]!r}")
            entry["event"] = self.find_event(data.get("trigger_event"), source, ability)
            if entry["event"] is None:
                raise EngineError("errored", f"phase's trigger of {source} names an event the trace does not hold: "
                                             f"{json.dumps(data.get('trigger_event'))[:200]}")
            self.insert_trigger(entry)
            self.triggers[entry["id"]] = entry
            self.known_stack[item["id"]] = entry["id"]
            push = self.add("stack_push", trigger=entry["id"])
            chosen = self.phase_targets(data)
            if chosen:  # phase chose the only legal target as it put the ability on the stack
                push["target"] = chosen[0]
        self.interchange(unasked)
        if self.waiting["type"] == "Priority":  # phase is done putting abilities on the stack
            self.removed_unplaced()
        return stack

    def phase_targets(self, data: dict[str, Any]) -> list[str]:
        """The scenario players (or objects) a phase stack entry targets, in phase's order (empty: none yet)."""
        out = []
        for t in data["ability"].get("targets") or []:
            if "Player" in t:
                out.append(self.players[t["Player"]])
            elif "Object" in t and t["Object"] in self.to_scenario:
                out.append(self.to_scenario[t["Object"]])
            else:
                raise EngineError("errored", f"phase's ability targets {t!r}, which the adapter cannot name")
        return out

    def answer_target(self, prompt: dict[str, Any]) -> list[dict[str, Any]]:
        """phase's ``TriggerTargetSelection``: the harness's chooser picks among the legal targets phase offers (the
        players still in the game, or creatures on the battlefield), listed in the scenario's order. Asked before
        anyone received priority since the push, the target is the push's (603.3d); asked after a priority pass with
        the ability already on the stack (phase-rs/phase#1287), the choice is written where phase asked for it, and
        the ability's ``stack_push`` keeps no target (mtg.no-legal-target reads that as 603.3d broken;
        docs/engines/phase.md)."""
        seat = prompt["player"]
        player = self.players[seat]
        legal = prompt["selection"]["current_legal_targets"]
        if len(prompt["target_slots"]) != 1 or any(not ("Player" in t or t.get("Object") in self.to_scenario)
                                                    for t in legal):
            raise EngineError("errored", f"phase asked for targets the adapter cannot name: {legal!r}")
        before = {s["id"]: self.phase_targets(s["kind"]["data"]) for s in self.game.stack()
                  if s["kind"]["type"] == "TriggeredAbility"}
        named = [self.players[t["Player"]] if "Player" in t else self.to_scenario[t["Object"]] for t in legal]
        untargeted = [self.known_stack[i] for i, got in before.items() if not got and i in self.known_stack
                      and "target" in self.spec(self.triggers[self.known_stack[i]])]
        source = self.to_scenario.get(prompt.get("source_id"))
        asked = [t for t in untargeted if self.triggers[t]["source"] == source and prompt.get("description") in
                 (None, self.descriptions[source][self.ability_index(source, self.triggers[t]["ability"])])]
        untargeted = asked or untargeted
        if not untargeted:
            raise EngineError("errored", "phase asked for a target, but every ability on its stack has one")
        # the chooser is asked about the ability phase asks for, known only after the answer: the topmost untargeted one
        # stands for it in the question (the answer depends only on the candidates and the player); the candidates in
        # the order the scenario lists them (its objects, then its players), as the reference engine offers them
        asking = self.triggers[untargeted[-1]]
        aim = self.spec(asking).get("target") or {}
        listed = list(aim.get("candidates") or ()) + list(aim.get("players") or ())
        among = sorted(named, key=lambda c: (listed.index(c) if c in listed else len(listed), named.index(c)))
        k = self.chooser.target(player, dict(asking), among) if len(among) > 1 else 0
        events = self.apply(seat, {"type": "ChooseTarget", "data": {"target": legal[named.index(among[k])]}})
        after = {s["id"]: self.phase_targets(s["kind"]["data"]) for s in self.game.stack()
                 if s["kind"]["type"] == "TriggeredAbility"}
        got = [i for i, t in after.items() if t and not before.get(i) and i in self.known_stack]
        if len(got) != 1 or after[got[0]] != [among[k]]:
            raise EngineError("errored", f"phase's ChooseTarget did not target {among[k]} for one known ability")
        trigger = self.known_stack[got[0]]
        self.chosen_targets[trigger] = among[k]
        push = max(n for n, e in enumerate(self.entries) if e["kind"] == "stack_push" and e["trigger"] == trigger)
        if not any(e["kind"] == "priority" for e in self.entries[push:]):
            # asked before anyone received priority: chosen as the ability went on the stack (603.3d)
            self.entries[push]["target"] = among[k]
        self.add("choice", player=player, decision="target", among=among, chosen=[among[k]])
        return events

    def interchange(self, unasked: list[tuple[dict[str, Any], str]]) -> None:
        """Give phase's self-ordered pushes of interchangeable abilities (one controller, one event, the same text
        naming no object as "this creature": ``~`` in phase's description) the identities the chooser orders: the
        first pushed gets the identity the chooser wants to resolve last. Nothing else is touched: those pushes do
        the same thing whichever source they are told to come from."""
        groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for entry, description in unasked:
            if "~" not in description:
                groups.setdefault((entry["controller"], entry["event"], description), []).append(entry)
        for (player, _, _), group in groups.items():
            if len(group) < 2:
                continue
            identities = [(e["source"], e["ability"]) for e in group]
            resolve = self.chooser.order(player, [dict(e) for e in group])
            for entry, k in zip(group, reversed(resolve)):
                entry["source"], entry["ability"] = identities[k]

    # -- the game ------------------------------------------------------------------------------------------------

    def play(self) -> dict[str, Any]:
        for step_index, step in enumerate(self.scenario["script"]):
            self.add("step_begin", step=step_index)
            for action_index, action in enumerate(step["actions"]):
                ref = [step_index, action_index]
                self.add("action_begin", action=ref)
                later: list[dict[str, Any]] = []
                for effect in action["effect"]:
                    if effect["do"] == "concede":  # the player concedes (GameAction Concede): 800.4a
                        if effect["player"] in self.left:
                            continue
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        seat = self.seat[effect["player"]]
                        events = self.apply(seat, {"type": "Concede", "data": {"player_id": seat}})
                        cut = _first_sba(events)
                        self.record_events(events[:cut], {"action": ref})
                        later = events[cut:]
                        continue
                    obj = effect["object"]
                    if effect["do"] == "gain_control":
                        # phase reports no event for a debug SetController: the control event is the action's
                        # own, written only when phase's object did change controller
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        if self.zones.get(obj) != "field" and self.control[obj] == effect["player"] \
                                or effect["player"] in self.left:
                            # nothing to change (a player who left controls nothing), and phase is not asked: it
                            # would see a change, or give control to a seat that has left
                            continue
                        if self.zones.get(obj) == "hand":
                            raise Skipped(f"phase adapter: a control change of {obj}, a card in a hand (phase puts a "
                                          f"card onto the battlefield under its owner's control whoever controlled it "
                                          f"in the hand; the scenario keeps the controller)")
                        if self.zones.get(obj) != "field":
                            # phase gives a card back to its owner as it leaves the battlefield, the scenario keeps
                            # its controller; cards never come back from a graveyard or exile in the subset, so this
                            # is bookkeeping only: phase's card is given the scenario's controller first, unrecorded
                            self.set_controller(self.to_phase[obj], self.control[obj])
                        if self.set_controller(self.to_phase[obj], effect["player"]):
                            self.event("control", {"action": ref}, subject=obj, controller=effect["player"])
                        self.control[obj] = effect["player"]
                        continue
                    if self.zones.get(obj) == effect["from"] and effect["from"] != effect["to"]:
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        events = self.debug(self.seat[self.active], self.to_phase[obj], effect["to"], simulate=True)
                        cut = _first_sba(events)  # phase checks state-based actions once the action is done
                        self.delayed_after_debug(self.record_events(events[:cut], {"action": ref}))
                        later = events[cut:]
                self.add("action_end", action=ref)
                self.settle(later)
            self.add("step_advance", **{"from": step_index})
        return {"format": "trigger-conformance/trace/1", "entries": self.entries}

    def settle(self, sba_events: list[dict[str, Any]]) -> None:
        """Until the stack is empty: state-based actions, waiting triggers on the stack (answering phase's ordering
        prompts), priority, and the top of the stack resolving."""
        while True:
            checked = bool(sba_events)
            pushed_early = False  # stack pushes written while answering a target prompt, before the loop's own
            if sba_events:
                self.record_sbas(sba_events, self.sba_check())
                sba_events = []
            while True:
                wait = self.waiting
                if wait["type"] == "TriggerTargetSelection":  # a target asked as the ability goes on the stack
                    if not checked:
                        self.sba_check()
                        checked = True
                    self.take_pushes()
                    pushed_early = True
                    answered = self.answer_target(wait["data"])
                    if any(e["type"] not in BOOKKEEPING for e in answered):
                        # state-based actions phase performed once the target was chosen (as after OrderTriggers)
                        self.record_sbas(answered, self.sba_check())
                    continue
                if wait["type"] != "OrderTriggers":
                    break
                # phase may ask for the order of the triggers a resolution caused before it performs the state-based
                # actions that follow it (their events come with the answer): recorded as that check
                after_order = self.answer_order(wait["data"])
                if any(e["type"] not in BOOKKEEPING for e in after_order):
                    self.record_sbas(after_order, self.sba_check())
                    checked = True
            if not checked:
                self.sba_check()
            if wait["type"] != "Priority":
                raise EngineError("errored", f"phase is waiting for {wait['type']}, which the adapter does not answer")
            before = len(self.entries)
            stack = self.take_pushes()
            if len(self.entries) > before or pushed_early:
                self.sba_check()
            self.unseen_of_departed()
            self.unseen_without_target()
            self.add("priority", player=self.players[wait["data"]["player"]])
            if not stack:
                return
            sba_events = self.resolve_top(stack[-1])

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
                      and any(_may_trigger(a["trigger"], e, o["id"]) for e in before)]
            unseen += [r["ability"] for r in self.reflexive_waiting if r["controller"] == player]
            unseen += [d["ability"] for d in self.live_delayed if d["controller"] == player
                       and not any(t.get("delayed") == d["create"] for t in shown)
                       and any(_may_trigger(d["trigger"], e, d["source"]) for e in before)]
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
                        and any(_may_trigger(ability["trigger"], e, obj["id"]) for e in new):
                    raise Skipped(f"phase adapter: {ability['id']} targets {candidates}, none on the battlefield: "
                                  f"phase reports nothing of an ability it removes for want of a target unless it "
                                  f"asked for an order with it, so whether it triggered cannot be seen")

    def record_sbas(self, events: list[dict[str, Any]], check: str) -> None:
        """Events phase reported outside any resolution or action: they must be state-based actions, performed by
        the check ``check``; another check follows (the one that finds nothing more to do)."""
        leaving = _departures(events)
        strays = [e["type"] for k, e in enumerate(events) if e["type"] not in BOOKKEEPING and e["type"] not in NEUTRAL
                  and not _is_sba_move(e, events) and k not in leaving]
        if strays:
            raise EngineError("errored", f"phase reported {strays} outside any resolution or action, and outside any "
                                         f"state-based action; the adapter cannot place them")
        self.record_events(events, {"sba": check}, sba_cause={"sba": check})
        self.sba_check()

    def resolve_top(self, top: dict[str, Any]) -> list[dict[str, Any]]:
        """Every player passes; the top resolves. Returns the state-based actions phase reported once the
        resolution was over (recorded by settle()).

        What phase reports while the object resolves is recorded in phase's order. Only a final run of state-based
        action events (nothing but rule-destroyed creatures and neutral bookkeeping after them, not even phase's
        ``StackResolved``) counts as performed after the resolution; a state-based action followed by anything else
        of the resolution stays where phase put it, inside the resolution, where 704.4 forbids it. (``StackResolved``
        alone does not end the resolution: phase reports it before the effect of an optional ability whose choice
        is still pending.)"""
        trigger = self.known_stack[top["id"]]
        spec = self.spec(self.triggers[trigger])
        self.reflexive_check(spec)
        events: list[dict[str, Any]] = []
        choices: list[tuple[int, dict[str, Any]]] = []  # (number of phase events before the choice, the choice)
        changed = False  # whether phase reported anything but priority passes since the stack was last read
        while True:
            wait = self.waiting
            if wait["type"] == "Priority":
                # the stack changes only with an event: reading it (a large document) after a mere pass is waste
                if changed:
                    if not any(s["id"] == top["id"] for s in self.game.stack()):
                        break
                    changed = False
                step = self.apply(wait["data"]["player"], {"type": "PassPriority"})
                changed = any(e["type"] != "PriorityPassed" for e in step)
                events += step
            elif wait["type"] == "OptionalEffectChoice":
                player = self.players[wait["data"]["player"]]
                use = bool(self.chooser.optional(player, self.triggers[trigger]))
                choices.append((len(events), {"player": player, "decision": "optional", "among": [trigger],
                                              "chosen": use}))
                events += self.apply(wait["data"]["player"], {"type": "DecideOptionalEffect", "data": {"accept": use}})
                changed = True
            elif wait["type"] == "OrderTriggers":
                break  # the resolution is over; new triggers wait for settle()
            elif wait["type"] == "TriggerTargetSelection" and not any(s["id"] == top["id"] for s in self.game.stack()):
                break  # the resolution is over and phase asks a target of what it triggered: settle() answers
            elif wait["type"] == "TriggerTargetSelection" and not any(
                    e["type"] not in BOOKKEEPING and e["type"] not in NEUTRAL for e in events):
                # asked after a priority pass, of an ability already on the stack, before anything resolves
                # (phase-rs/phase#1287); phase may put abilities that were still waiting on the stack with the
                # answer, and gives priority again: settle() writes that and resolves whatever is on top then
                answered = self.answer_target(wait["data"])
                if any(e["type"] not in BOOKKEEPING for e in answered):
                    raise EngineError("errored", f"phase changed the game as a target was chosen: "
                                                 f"{[e['type'] for e in answered]}")
                return []
            else:
                raise EngineError("errored", f"phase is waiting for {wait['type']} while {trigger} resolves")
        target = next((e.get("target") for e in self.entries if e["kind"] == "stack_push" and e["trigger"] == trigger),
                      None) or self.chosen_targets.get(trigger)
        if target in self.left:
            raise Skipped(f"phase adapter: {trigger}'s target {target} left the game before it resolved (how phase "
                          f"removes such an ability is not mapped)")
        cut = _sba_tail(events)
        during, after = events[:cut], events[cut:]
        did_something = any(e["type"] == "EffectResolved" for e in during) or choices
        gone = target in self.objects and self.zones.get(target) != "field"  # 608.2b: no longer a legal target
        if "target" in spec and gone and not did_something and "intervening_if" in spec:
            raise Skipped(f"phase adapter: phase resolved {trigger}, whose target {target} had left the battlefield, "
                          f"doing nothing; it has an intervening 'if' too, and phase does not report which removed it")
        if "target" in spec and target is None and not did_something and "intervening_if" in spec:
            raise Skipped(f"phase adapter: phase resolved {trigger}, a targeted ability it never gave a target, doing "
                          f"nothing; it has an intervening 'if' too, and phase does not report which removed it")
        if "target" in spec and (target is None or gone) and not did_something:
            # an object target that has left the battlefield: phase reports StackResolved alone (608.2b: the ability
            # is removed and does nothing). Or phase resolved a targeted ability it never gave a target, doing
            # nothing: as an ability whose targets are all illegal; its stack_push shows no target, which
            # mtg.no-legal-target reports (violation 8)
            if any(e["type"] not in BOOKKEEPING for e in during):
                raise EngineError("errored", f"phase changed the game while removing {trigger}, which has no target: "
                                             f"{[e['type'] for e in during]}")
            self.add("removed", trigger=trigger, reason="illegal_target")
        elif "intervening_if" in spec and not did_something:
            if any(e["type"] not in BOOKKEEPING for e in during):
                raise EngineError("errored", f"phase changed the game while removing {trigger} for its intervening "
                                             f"'if': {[e['type'] for e in during]}")
            self.add("removed", trigger=trigger, reason="intervening_if")
        else:
            self.add("resolve_begin", trigger=trigger)
            start = 0
            for at, choice in choices:
                self.record_events(during[start:at], {"resolution": trigger})
                self.add("choice", **choice)
                start = at
            self.record_events(during[start:], {"resolution": trigger})
            if reflexive_victim(spec.get("effect") or []) is not None \
                    and not any(c["decision"] == "optional" and not c["chosen"] for _, c in choices):
                self.reflexive(trigger, spec)
            self.add("resolve_end", trigger=trigger)
        return after

    def created_delayed(self, trigger: str) -> None:
        """phase reported the creation of a delayed ability (``EffectResolved`` of kind ``CreateDelayedTrigger``) as
        ``trigger`` resolves: the next ``create_delayed`` instruction of its ability, written where phase did it
        (603.7a)."""
        parent = self.triggers[trigger]
        made = [a for a in self.spec(parent)["effect"] if a.get("do") == "create_delayed"]
        n = self.creations.get(trigger, 0)
        if n >= len(made):
            raise EngineError("errored", f"phase created more delayed abilities than {trigger}'s effect says")
        self.creations[trigger] = n + 1
        create = self.add("delayed_create", id=self.new_id("D"), ability=made[n]["ability"]["id"],
                          source=parent["source"], controller=parent["controller"], created_by=trigger,
                          duration=made[n]["duration"])
        index = self.ability_index(parent["source"], parent["ability"])
        effect = _delayed_effect(self.faces[card_name(parent["source"]).lower()]["triggers"][index]["execute"], n)
        self.live_delayed.append({"create": create["id"], "ability": made[n]["ability"]["id"],
                                  "source": parent["source"], "controller": parent["controller"],
                                  "trigger": made[n]["ability"]["trigger"],
                                  "effect": json.dumps(effect, sort_keys=True)})

    def name_delayed(self, entry: dict[str, Any], ability: dict[str, Any], trigger_event: Any) -> None:
        """A phase ability with no printed trigger (``trigger_definition_ref`` null): a delayed ability of
        ``entry``'s source, told apart from that source's other live ones by its effect. Gives ``entry`` its
        identity and event, and places it after that event."""
        mine = [d for d in self.live_delayed if d["source"] == entry["source"]
                and d["effect"] == json.dumps(ability.get("effect"), sort_keys=True)]
        if not mine:
            raise EngineError("errored", f"phase put an ability of {entry['source']} with no printed trigger on the "
                                         f"stack, and no delayed ability of it is waiting: {ability.get('effect')}")
        if len({d["ability"] for d in mine}) > 1:
            raise Skipped(f"phase adapter: {entry['source']} has several live delayed abilities doing the same: "
                          f"which one phase triggered cannot be told")
        made = mine[0] if len(mine) == 1 else None
        if made is None:  # several creations of one ability: interchangeable but for their creation
            raise Skipped(f"phase adapter: {entry['source']}'s delayed ability {mine[0]['ability']} was created "
                          f"{len(mine)} times: which creation phase triggered cannot be told")
        entry.update(ability=made["ability"], controller=made["controller"], delayed=made["create"])
        entry["event"] = self.find_event(trigger_event, entry["source"], made["ability"])
        if entry["event"] is None:
            raise EngineError("errored", f"phase's delayed ability of {entry['source']} names an event the trace "
                                         f"does not hold: {json.dumps(trigger_event)[:200]}")
        self.insert_trigger(entry)
        self.triggers[entry["id"]] = entry

    def delayed_after_debug(self, events: list[dict[str, Any]]) -> None:
        """phase's debug MoveToZone (the scripted actions) fires printed triggers but never delayed ones: a scripted
        event a live delayed ability may trigger on is Skipped (never reported as a missed trigger)."""
        for d in self.live_delayed:
            if any(_may_trigger(d["trigger"], e, d["source"]) for e in events):
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

    def reflexive(self, trigger: str, spec: dict[str, Any]) -> None:
        """The reflexive ability of ``spec`` created at the end of ``trigger``'s resolution (603.12: its last
        instruction). If its object died in that resolution it triggers: its trigger entry is written once phase
        shows it, on its stack or in an ``OrderTriggers`` prompt (``name_reflexive``), right after this creation;
        if phase never does, the trace has the creation alone and the judge says what is missing."""
        made = spec["effect"][-1]["ability"]
        parent = self.triggers[trigger]
        create = self.new_id("D")
        self.add("delayed_create", id=create, ability=made["id"], source=parent["source"],
                 controller=parent["controller"], created_by=trigger, reflexive=True)
        victim = reflexive_victim(spec["effect"])
        died = [e["id"] for e in self.entries if e["kind"] == "event" and e["cause"] == {"resolution": trigger}
                and e["type"] == "leave" and e.get("subject") == victim and e.get("to") == "graveyard"]
        if died:  # it triggers; phase puts it on the stack, or offers it for ordering, afterwards (name_reflexive)
            self.reflexive_waiting.append({"key": (parent["source"], self.ability_index(parent["source"],
                                                                                        parent["ability"])),
                                           "ability": made["id"], "controller": parent["controller"],
                                           "event": died[0], "create": create})
