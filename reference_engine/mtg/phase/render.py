"""Rendering: a scenario's objects as synthetic phase.rs creature cards whose Oracle text phase's own parser reads
(``phase.build_oracle_face``), one line per triggered ability in the ability's order, and the check that a whole
scenario lies in the rendered subset (anything else is ``Skipped``, never guessed). The subset is listed in
docs/engines/phase.md; :mod:`reference_engine.mtg.phase.profile` keeps the generator inside it."""

from __future__ import annotations

import json
import re
from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.mtg.phase.combat import PING, PLACED, check_script, combat_hits, damage_trigger, pings
from reference_engine.mtg.phase.signals import PHASE_SIGNALS, check_signals, end_step_delayed, render_signal
from reference_engine.mtg.phase.tokens import check_tokens, created, entering

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
        # the scenario's card types and tokens (205.2a, 111.1), read by trigger filters only (every card is rendered
        # a creature card): a filter is rendered where it excludes no object of the scenario (filter_inert,
        # subject_noun)
        self.card_types = {o["id"]: frozenset(o.get("types") or ()) for o in objects}
        self.tokens = frozenset(o["id"] for o in objects if o.get("token"))
        # tokens not created yet: phase creates them as real tokens of their own types (tokens.py), where every other
        # object is a creature card
        self.uncreated = frozenset(o["id"] for o in objects if o["zone"] == "uncreated")
        self.noncreature = frozenset(o["id"] for o in objects if o["id"] in self.uncreated and o.get("types")
                                     and "creature" not in o["types"])
        self.entering: set[str] | None = None  # the objects that may enter (None: any), see tokens.entering
        self.never: frozenset[str] | set[str] = frozenset()  # tokens never created: no event is about them
        self.players = list(players)
        self.power: dict[str, int] = {}  # combat.py: the script's attackers, each its combat damage
        self.sources: set[str] | None = None  # what may deal damage (None: anything): the attackers, damage effects
        self.pings: dict[str, list[int]] = {}  # combat.py: noncombat damage of the script, activated abilities

    @staticmethod
    def of(scenario: dict[str, Any]) -> "Names":
        names = Names(scenario["objects"], scenario["players"])
        names.power, names.pings = combat_hits(scenario), pings(scenario)
        names.sources = set(names.power) | set(names.pings) | {o["id"] for o in scenario["objects"] for ab in o.get("abilities", ())
                                            for a in ab.get("effect", ()) if a.get("do") == "damage"}
        names.entering = entering(scenario)
        names.never = names.uncreated - created(scenario)
        return names

    @staticmethod
    def alone(obj: dict[str, Any]) -> "Names":
        return Names([obj], [obj["owner"]])

    def one(self, obj_id: str) -> str:
        if obj_id not in self.types:
            raise Skipped(f"phase adapter: {obj_id!r} names no object of the scenario")
        if obj_id in self.noncreature:
            raise Skipped(f"phase adapter: {obj_id!r}, a noncreature token, has no creature type naming it")
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


def filter_inert(trigger: dict[str, Any], names: Names | None) -> bool:
    """Whether the trigger's ``type`` and ``nontoken`` filters exclude no object of the scenario (603.2): every
    object has the card type, none is a token. Only then are they rendered on a trigger about one object, as
    nothing."""
    if names is None:
        return "type" not in trigger and not trigger.get("nontoken")
    return ("type" not in trigger or all(trigger["type"] in kinds for kinds in names.card_types.values())) \
        and (not trigger.get("nontoken") or not names.tokens)


def subject_noun(trigger: dict[str, Any], names: Names | None) -> str:
    """The noun of an enter/leave/damage trigger's subject ``any`` or ``other`` with its ``type`` and ``nontoken``
    filters (603.2), read by phase on the objects the event may be about (on entering: ``names.entering``): every
    card is a nontoken creature card in phase, a token it creates has its own types (tokens.py). "creature" (a
    ``creature`` filter where every such card is one; no filter where every such object is a creature), "permanent"
    (no filter, a noncreature token may enter), "nontoken creature"; a filter is otherwise rendered only where it
    excludes no such object. Raises Skipped for any other filter."""
    if names is None:
        if "type" in trigger or trigger.get("nontoken"):
            raise Skipped(f"phase adapter: trigger filter {json.dumps(trigger, sort_keys=True)} is not rendered alone")
        return "creature"
    ids = set(names.types) if trigger.get("event") != "enter" or names.entering is None else names.entering
    ids = ids - names.never
    cards = {i for i in ids if i not in names.uncreated}
    kind = trigger.get("type")
    if kind == "creature" and all("creature" in names.card_types[i] for i in cards):
        noun = "creature"
    elif kind is None or all(kind in names.card_types[i] for i in ids):
        noun = "permanent" if ids & names.noncreature else "creature"
    else:
        raise Skipped(f"phase adapter: trigger filter {json.dumps(trigger, sort_keys=True)} excludes an object of "
                      f"the scenario (every card is rendered a creature card)")
    if trigger.get("nontoken") and ids & names.tokens:
        if ids & names.tokens - names.uncreated:
            raise Skipped(f"phase adapter: trigger filter {json.dumps(trigger, sort_keys=True)} excludes an object, "
                          f"a token rendered a card")
        noun = f"nontoken {noun}"
    if noun.endswith("permanent") and trigger.get("event") != "enter" \
            and (trigger.get("event") != "leave" or trigger.get("to") is not None):
        raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} on a noncreature token is "
                      f"rendered on entering and leaving the battlefield only")
    return noun


def controlled_by(trigger: dict[str, Any]) -> str:
    """The words of a ``controller`` (or ``owner``) filter on the event's object (603.2, relative to the ability's
    controller, 603.3a): " you control", " an opponent controls", " you own", " an opponent owns" or nothing."""
    if "owner" in trigger:  # issue 32 item 3: who owns it (108.3), phase's "Owned" property
        return {"you": " you own", "opponent": " an opponent owns"}[trigger["owner"]]
    return {None: "", "you": " you control", "opponent": " an opponent controls"}[trigger.get("controller")]


def card_name(obj_id: str) -> str:
    return f"Conformance {obj_id}"


def render_trigger(trigger: dict[str, Any], names: Names | None = None) -> str:
    """The trigger condition as Oracle text (no comma). Raises Skipped outside the rendered subset."""
    event, subject = trigger.get("event"), trigger.get("subject", "any")
    if event == "signal":  # signals.py: a helper land played
        return render_signal(trigger)
    if event == "state":  # 603.8, issue 32 item 3: phase's StateCondition trigger
        state = trigger.get("state") or {}
        if set(trigger) != {"event", "state"} or state.get("test") != "not_in_zone" or state.get("zone") != "field" \
                or names is None or state.get("object") not in names.types or set(state) != {"test", "object", "zone"}:
            raise Skipped(f"phase adapter: state trigger {json.dumps(trigger, sort_keys=True)} is not rendered (only "
                          f"'no Goblins on the battlefield', one object)")
        return f"When there are no {names.all(state['object'])} on the battlefield"
    if event == "damage" and trigger.get("player") == "you" and set(trigger) - {"subject"} == {"event", "player"} \
            and subject == "any":
        return "Whenever a source deals damage to you"  # issue 32 item 3: phase's DamageDone to its Controller
    if event == "damage" and set(trigger) - {"subject"} == {"event", "player", "controller", "type", "batch"} \
            and (subject, trigger["player"], trigger["controller"], trigger["type"], trigger["batch"]) == \
            ("any", "opponent", "you", "creature", True) and names is not None and names.sources is not None \
            and all("creature" in names.card_types[o] for o in names.sources):  # the filter reads the source only
        return "Whenever one or more creatures you control deal damage to an opponent"  # phase: once by controller
    extra = set(trigger) - {"event", "subject", "to", "controller", "type", "nontoken", "owner", "from", "batch"}
    if extra and damage_trigger(trigger, names):  # combat.py: "deals combat damage to an opponent"
        return damage_trigger(trigger, names)
    if extra:
        raise Skipped(f"phase adapter: trigger fields {sorted(extra)} are not rendered")
    if event == "zone_change" and trigger.get("from") == "field":
        # a zone change from the battlefield is leaving it (every object is a permanent there): "dies" to a graveyard
        trigger = {k: v for k, v in trigger.items() if k != "from"} | {"event": "leave"}
        event = "leave"
    elif event == "zone_change":
        return render_anywhere(trigger, names)
    if trigger.get("batch"):
        return render_batch(trigger, names)
    noun = subject_noun(trigger, names) if subject in ("other", "any") else None
    if noun is None and not filter_inert(trigger, names):
        raise Skipped(f"phase adapter: trigger filter {json.dumps(trigger, sort_keys=True)} excludes an object of "
                      f"the scenario (every card is rendered a creature card, none a token)")
    if "controller" in trigger:
        if event not in ("enter", "leave") or trigger["controller"] not in ("you", "opponent") \
                or subject == "self" and trigger["controller"] == "opponent":
            raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the subset")
        if subject == "self":  # its source is controlled by the ability's controller: "you control" is inert
            trigger = {k: v for k, v in trigger.items() if k != "controller"}
    if "owner" in trigger and (event not in ("enter", "leave") or subject == "self" or "controller" in trigger
                               or trigger["owner"] not in ("you", "opponent")):
        raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the subset (an owner "
                      f"filter is rendered on another object's entering or leaving, without a controller filter)")
    if event == "player_leaves" and subject == "any":
        return "Whenever a player loses the game"
    if event == "life":
        if subject != "any" or "to" in trigger:
            raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the subset")
        return "Whenever a player gains or loses life"
    if subject in ("self", "other", "any"):
        who = {"self": "When this creature", "other": f"Whenever another {noun}", "any": f"Whenever a {noun}"}[subject]
        who += controlled_by(trigger)  # "Whenever a creature you control dies"
    elif names is not None and subject in names.types:
        who = f"Whenever {names.a(subject)}{controlled_by(trigger)}"
    else:
        raise Skipped(f"phase adapter: a trigger watching {subject!r} has no Oracle wording here")
    if event == "damage" and "to" not in trigger:
        return f"{who.replace('When this', 'Whenever this')} deals damage"
    if event == "enter" and "to" not in trigger:
        # issue 32 item 3: "from" a graveyard or exile on entering (phase's ChangesZone origin)
        origin = {None: "", "graveyard": " from a graveyard", "exile": " from exile"}.get(trigger.get("from"))
        if origin is None:
            raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the subset (an "
                          f"entering is rendered from a graveyard or exile)")
        return f"{who} enters{origin}"
    if "from" in trigger:
        raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the subset ('from' "
                      f"is rendered on entering only)")
    if event == "leave":
        to = trigger.get("to")
        if to == "graveyard":
            return f"{who} dies"
        if to is None:
            return f"{who} leaves the battlefield"
    raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the rendered subset")


def render_batch(trigger: dict[str, Any], names: Names | None) -> str:
    """A 'one or more' trigger (603.2c: once per event, however many objects it is about; issue 32 item 3) as
    phase's batched wording: "Whenever one or more other creatures you control die" / "... enter" / "... leave the
    battlefield" (phase's ``batched`` ChangesZoneAll / ChangesZone / LeavesBattlefield), on any or another object's
    entering or leaving; its filters as in :func:`render_trigger`."""
    event, subject = trigger.get("event"), trigger.get("subject", "any")
    verb = {("enter", None): "enter", ("leave", "graveyard"): "die", ("leave", None): "leave the battlefield"}.get(
        (event, trigger.get("to")))
    if verb is None or subject not in ("any", "other") or "from" in trigger or "owner" in trigger \
            or trigger.get("controller") not in (None, "you", "opponent"):
        raise Skipped(f"phase adapter: 'one or more' trigger {json.dumps(trigger, sort_keys=True)} is outside the "
                      f"subset (rendered on any or another object's entering, dying or leaving the battlefield)")
    noun = subject_noun({k: v for k, v in trigger.items() if k != "batch"}, names)
    other = "other " if subject == "other" else ""
    return f"Whenever one or more {other}{noun}s{controlled_by(trigger)} {verb}"


def render_anywhere(trigger: dict[str, Any], names: Names | None) -> str:
    """A card put into a graveyard from anywhere (603.6c, no look back; issue 32 item 3): "Whenever a [creature] card
    is put into [your / an opponent's / a] graveyard from anywhere", or "one or more ... cards are" (``batch``); the
    ``controller`` of a card in a graveyard is its owner (404.2), the graveyard's. Only where no token is about (a
    token is no card) and a ``creature`` filter excludes no object (every card is a creature card)."""
    whose = {None: "a graveyard", "you": "your graveyard", "opponent": "an opponent's graveyard"}
    kind = trigger.get("type")
    if trigger.get("to") != "graveyard" or trigger.get("subject", "any") != "any" or names is None or names.tokens \
            or set(trigger) - {"event", "to", "controller", "type", "batch"} or trigger.get("controller") not in whose \
            or kind not in (None, "creature") \
            or kind and any("creature" not in names.card_types[o] for o in names.types):
        raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the subset (a zone "
                      f"change is rendered from the battlefield, or to a graveyard from anywhere, of any card)")
    card = "creature card" if kind else "card"
    if trigger.get("batch"):
        return f"Whenever one or more {card}s are put into {whose[trigger.get('controller')]} from anywhere"
    return f"Whenever a {card} is put into {whose[trigger.get('controller')]} from anywhere"


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
        if candidates and sorted(candidates) == sorted(names.types) and not names.noncreature - names.never:
            return "creature"
    raise Skipped(f"phase adapter: target {json.dumps(target, sort_keys=True)} is not rendered (only 'target player', "
                  f"any player of the game; 'target creature', any object; 'target Elf', one object)")


def render_action(action: dict[str, Any], obj: dict[str, Any], names: Names | None = None,
                  own_move: bool = False, aim: str | None = None, in_graveyard: bool = False) -> str:
    """One effect instruction as an Oracle sentence (lower-case start, no period); "you" is the ability's controller
    (an ability whose source changed hands is skipped where that matters, see stack.StackReader). ``own_move``: the
    ability may have triggered on its source's own zone change, so "this creature" can find the card in its new zone
    (CR 400.7's exception for such abilities): an exile of the permanent is then worded through its creature type.
    ``aim``: the ability's :func:`target_noun` (None: it has no target). ``in_graveyard``: the ability works from a
    graveyard (:func:`from_graveyard`)."""
    names = names or Names.alone(obj)
    do = action.get("do")
    me, owner = obj["id"], obj.get("controller", obj["owner"])
    if action.get("that_many"):
        raise Skipped("phase adapter: 'that much' amounts (that_many) are not rendered")
    if do == "create_delayed":
        return render_delayed(action, obj, names)
    if do == "life" and action.get("that_player") and action.get("amount", 0) < 0 and "target" not in action:
        return f"that player loses {-action['amount']} life"  # issue 31: the trigger event's player
    if do == "damage" and action.get("that_player") and action.get("source") == me and len(action) == 4:
        return f"this creature deals {action['amount']} damage to that player"  # signals.py: the drawer
    if do == "move" and action.get("from") == "field" and action.get("to") in ("graveyard", "exile"):
        verb = "destroy" if action["to"] == "graveyard" else "exile"
        target = action.get("object")
        if target == me and not (own_move and verb == "exile"):
            return f"{verb} this creature"
        return f"{verb} all {names.all(target)}"
    if do == "move" and action.get("from") == "graveyard" and action.get("to") == "field" \
            and action.get("object") == me and in_graveyard:
        # issue 32 item 3: an ability working from a graveyard (render_ability, from_graveyard): phase's trigger
        # zone is the graveyard, from these words (checked in engine.py against the face phase parsed)
        return "return this card from your graveyard to the battlefield"
    if do == "move" and action.get("from") == "graveyard" and action.get("to") == "field" and not in_graveyard:
        # issue 32 item 3: under its owner's control, as the judge reads it (phase's ChangeZoneAll)
        return f"return all {names.one(action['object'])} cards from all graveyards to the battlefield under their " \
               f"owners' control"
    if do == "move" and action.get("from") == "deck" and action.get("to") == "field" \
            and names.owner.get(action.get("object")) == owner:
        return f"put all {names.one(action['object'])} cards from your library onto the battlefield"  # issue 32
    if do == "move" and action.get("from") == "exile" and action.get("to") == "field":
        # issue 32 item 3: back from exile, under its owner's control as the judge reads it (phase's ChangeZoneAll)
        return f"return all {names.one(action['object'])} cards from exile to the battlefield under their owners' " \
               f"control"
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
    if do == "damage" and not action.get("prevented") and action.get("source", me) == me:  # its source deals it
        n = action["amount"]
        if "object" in action:
            if action["object"] == me:
                return f"this creature deals {n} damage to this creature"  # "to itself" parses as another target
            return f"this creature deals {n} damage to each {names.one(action['object'])}"
        if action.get("player") == owner:
            return f"this creature deals {n} damage to you"
        if names.opponent(owner, action.get("player")):
            return f"this creature deals {n} damage to each opponent"
    if do == "gain_control" and action.get("player") == owner and action.get("object") in names.types:
        return f"you gain control of all {names.all(action['object'])}"  # issue 32 item 3: phase's GainControlAll
    if do == "life" and action.get("amount"):
        n = action["amount"]
        verb = f"gain {n}" if n > 0 else f"lose {-n}"
        if action.get("player") == owner:
            return f"you {verb} life"
        if names.opponent(owner, action.get("player")):
            return f"each opponent {verb.replace('gain', 'gains').replace('lose', 'loses')} life"
    raise Skipped(f"phase adapter: effect {json.dumps(action, sort_keys=True)} is outside the rendered subset")


def from_graveyard(ability: dict[str, Any], obj: dict[str, Any]) -> bool:
    """Whether ``ability`` works from a graveyard as phase reads it: "return this card from your graveyard to the
    battlefield" in its effect, the words phase infers its trigger zone (the graveyard) from, with no intervening
    "if" (issue 32 item 3)."""
    return ability.get("active_in") == ["graveyard"] and "intervening_if" not in ability \
        and ability["trigger"].get("subject", "any") != "self" and any(
        a.get("do") == "move" and a.get("from") == "graveyard" and a.get("to") == "field"
        and a.get("object") == obj["id"] for a in ability.get("effect", ()))


def render_condition(cond: dict[str, Any], names: Names | None = None, controller: str | None = None) -> str:
    """An intervening 'if' (603.4) as Oracle text: life totals of the controller, the source or one object on the
    battlefield, one card of the controller's not in their graveyard."""
    test = cond.get("test")
    if test in ("life_at_least", "life_at_most") and cond.get("player", "controller") in ("controller", controller):
        # a player named is "you" while the ability's controller as it triggers is them (StackReader.insert_trigger)
        return f"if you have {cond['value']} or {'more' if test == 'life_at_least' else 'less'} life"
    if test == "in_zone" and cond.get("zone") == "field" and cond.get("object", "self") == "self":
        return "if this creature is on the battlefield"
    if test == "not_in_zone" and cond.get("zone") == "graveyard" and names is not None \
            and names.owner.get(cond.get("object")) == controller:
        return f"if there are no {names.one(cond['object'])} cards in your graveyard"
    if test == "not_in_zone" and cond.get("zone") == "field" and names is not None \
            and cond.get("object") not in (None, "self") and cond["object"] in names.types:
        return f"if there are no {names.all(cond['object'])} on the battlefield"  # issue 32 item 3
    if test == "in_zone" and cond.get("zone") == "field" and names is not None \
            and cond.get("object") not in (None, "self") and cond["object"] in names.types:
        return f"if {names.a(cond['object'])} is on the battlefield"
    raise Skipped(f"phase adapter: intervening condition {json.dumps(cond, sort_keys=True)} is not rendered")


def render_ability(ability: dict[str, Any], obj: dict[str, Any], names: Names | None = None) -> str:
    names = names or Names.alone(obj)
    # "text" is for reports only (the schema); "active_in" the battlefield is every rendered ability's zone
    extra = set(ability) - {"id", "text", "trigger", "effect", "optional", "intervening_if", "target", "once_each_turn",
                            "triggers_once_each_turn"}
    if extra - {"active_in"} or ability.get("active_in", ["field"]) not in (["field"], ["graveyard"]):
        raise Skipped(f"phase adapter: ability fields {sorted(extra)} are not rendered (an ability working from "
                      f"another zone than the battlefield has no Oracle wording phase reads here)")
    if ability.get("active_in") == ["graveyard"] and not from_graveyard(ability, obj):
        raise Skipped("phase adapter: an ability working from a graveyard is rendered only where its effect returns "
                      "its own card from the graveyard to the battlefield (the words phase infers the zone from)")
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
    if any(a.get("that_many") for a in effect):
        # issue 32 item 3: "that much" (the trigger event's amount) only as the one instruction of an ability
        # triggered by damage, as the controller's life: "you gain that much life" (phase's event-amount reference)
        if trigger.get("event") != "damage" or len(effect) != 1 or reflexive or aim is not None \
                or any(ability.get(k) for k in ("optional", "once_each_turn", "triggers_once_each_turn")) \
                or effect[0].get("do") != "life" or effect[0].get("player") != obj.get("controller", obj["owner"]):
            raise Skipped("phase adapter: 'that much' amounts (that_many) are rendered only as the controller's "
                          "life in the one instruction of a damage trigger")
        return f"{head}, you {'gain' if effect[0]['amount'] > 0 else 'lose'} that much life."
    sentences = [render_action(a, obj, names, own_move, aim, from_graveyard(ability, obj)) for a in effect]
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
    if ability.get("once_each_turn"):
        text += " Do this only once each turn."  # 603.2h, phase's OncePerTurn constraint
    if ability.get("triggers_once_each_turn"):
        if ability.get("once_each_turn"):
            raise Skipped("phase adapter: 'do this only once each turn' and 'triggers only once each turn' on one "
                          "ability are one OncePerTurn constraint in phase")
        text += " This ability triggers only once each turn."  # issue 32 item 3; phase's OncePerTurn too
    return text


def render_delayed(action: dict[str, Any], obj: dict[str, Any], names: Names) -> str:
    """A delayed triggered ability (603.7), the last instruction of an effect: "whenever ... this turn, ..." (lasting the
    turn, a creature leaving or dying, one instruction, no "if"), or signals.end_step_delayed's "at the beginning of
    the next end step, [if ...,] ..." (no period; phase's own end step). Raises Skipped for any other."""
    made, me = action["ability"], obj.get("controller", obj["owner"])
    trigger = made.get("trigger") or {}
    subject = trigger.get("subject", "any")
    if end_step_delayed(action, obj):  # signals.py
        cond, first = made.get("intervening_if"), made["effect"][0]
        head = f"{PHASE_SIGNALS[made['trigger']['name']][1]}, " + (f"{render_condition(cond, names, me)}, "
                                                                    if cond else "")
        if len(made["effect"]) == 2:  # phase's ChangeZoneAll entering under "You" (signals.Signals.given_back)
            return f"{head}return all {names.one(first['object'])} cards from all graveyards to the battlefield under " \
                   f"your control"
        return head + render_action(first, obj, names)
    if action.get("duration") != "turn" or set(made) != {"id", "trigger", "effect"} or len(made["effect"]) != 1 \
            or trigger.get("event") != "leave" or set(trigger) - {"event", "subject", "to"} \
            or trigger.get("to") not in (None, "graveyard") or not (subject == "any" or subject in names.types):
        raise Skipped(f"phase adapter: delayed ability {json.dumps(action, sort_keys=True)} has no 'whenever ... this "
                      f"turn' wording here (a creature or one object leaving or dying, lasting the turn, one "
                      f"instruction, no intervening 'if')")
    who = "a creature" if subject == "any" else names.a(subject)
    what = "dies" if trigger.get("to") == "graveyard" else "leaves the battlefield"
    return f"whenever {who} {what} this turn, {render_action(made['effect'][0], obj, names)}"


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
    "when that object dies" (Unseen.reflexive_check)."""
    action, before = effect[-1], effect[-2] if len(effect) >= 2 else {}
    made = action["ability"]
    victim = before.get("object")
    if before.get("do") != "move" or before.get("from") != "field" or before.get("to") != "graveyard" \
            or set(made) - {"text"} != {"id", "trigger", "effect"} or len(made["effect"]) != 1 \
            or made["trigger"] != {"event": "leave", "subject": victim, "to": "graveyard"}:
        raise Skipped(f"phase adapter: reflexive ability {json.dumps(made, sort_keys=True)} has no 'When you do' "
                      f"wording here (only right after destroying the one object whose death it watches, one "
                      f"instruction, no intervening 'if')")
    # watching its own source's death, it is such an ability as 400.7 lets find the card in its new zone: an exile of
    # the source is worded through its type (as render_ability does for leaves-the-battlefield abilities)
    return render_action(made["effect"][0], obj, names, own_move=victim == obj["id"])


# issue 32 item 3: 603.2d, an object making abilities trigger an additional time; only one entering creature's worth
# (every object is a creature card, so "a creature entering" is any object entering), phase's DoubleTriggers static
ADDITIONAL_ENTER = ("If a creature entering the battlefield causes a triggered ability of a permanent you control to "
                    "trigger, that ability triggers an additional time.")


def card_text(obj: dict[str, Any], names: Names | None = None) -> str:
    lines = [render_ability(a, obj, names) for a in obj.get("abilities", ())]
    extra = obj.get("additional_triggers")
    if extra:
        if extra != {"times": 1, "event": "enter"}:
            raise Skipped(f"phase adapter: additional_triggers {json.dumps(extra, sort_keys=True)} is not rendered "
                          f"(only one additional time on entering: phase's 'creature dying' is no leave of any kind)")
        lines.append(ADDITIONAL_ENTER)
    return "\n".join(lines + [PING.format(n) for n in (names.pings.get(obj["id"], ()) if names else ())])


def mtgjson_face(obj: dict[str, Any], names: Names | None = None) -> dict[str, Any]:
    names = names or Names.alone(obj)
    toughness = obj.get("toughness", 1)
    kind = names.one(obj["id"]) if obj["id"] not in names.noncreature else names.types[obj["id"]][0]  # never dealt
    # a land creature card, so that a scripted entry from its owner's hand can be phase's own game action (playing
    # a land, 305.1) rather than a debug move: phase puts the abilities it triggers on the stack with their targets
    # chosen before anyone gets priority (603.3d), which after a debug move it does not
    return {"name": card_name(obj["id"]), "manaCost": "", "manaValue": 0.0, "types": ["Land", "Creature"],
            "supertypes": [], "subtypes": [kind], "text": card_text(obj, names),
            "type": f"Land Creature \u2014 {kind}",
            "layout": "normal",
            "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
            "foreignData": [], "rulings": [], "power": str(names.power.get(obj["id"], 1)), "toughness": str(toughness)}


def _names_a_player(action: dict[str, Any]) -> bool:
    return action.get("do") in ("life", "damage") and "player" in action


# Words of a rendered text that name a player through the ability's controller ("you", "your graveyard", "each
# opponent"), after removing those the scenario means the same way (its life conditions are the controller's too,
# 603.4; an optional ability's choice is its controller's, 603.5).
FOLLOWS_CONTROLLER = re.compile(r"\byou\b|\byour\b|\bopponent\b", re.IGNORECASE)
FOLLOWS_ALIKE = re.compile(r"if you have \d+ or (more|less) life|you may( have)?|If you do|When you do")


# Where a scenario object may start (combat.PLACED): phase's hand is where every card is dealt; the others are placed
# from it with debug MoveToZone (simulate: false, no triggers). The stack ("cast") and the out-of-the-game zone are not.
def check_scenario(scenario: dict[str, Any]) -> Names:
    """Raise Skipped unless the whole scenario is in the rendered subset (before anything is played); else return
    the names its Oracle text uses."""
    empty = [p for p in scenario["players"]
             if not any(o["owner"] == p and o["zone"] != "uncreated" for o in scenario["objects"])]
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
    texts: list[str] = []
    for obj in scenario["objects"]:
        if obj["zone"] not in PLACED + ("uncreated",):
            raise Skipped(f"phase adapter: {obj['id']} starts in {obj['zone']}; only {', '.join(PLACED)} are placed")
        if obj.get("controller", obj["owner"]) != obj["owner"] and obj["zone"] != "field":
            raise Skipped(f"phase adapter: a card in a {obj['zone']} controlled by another player is not rendered")
        # "name" (for reports), "types" and "token" (read by trigger filters only: see filter_inert) change nothing
        if "dies_when" in obj or set(obj) - {"id", "name", "owner", "zone", "toughness", "abilities", "controller",
                                             "types", "token", "additional_triggers"}:
            raise Skipped(f"phase adapter: object fields of {obj['id']} are outside the rendered subset")
        texts += [render_ability(ability, obj, names) for ability in obj.get("abilities", ())]
    check_tokens(scenario)
    check_signals(scenario, texts)
    check_script(scenario, names)  # combat.py
    return names

