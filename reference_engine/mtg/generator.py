"""Random MTG scenarios: simultaneous triggers from two to four players with the active player in any seat,
triggers during resolutions and from state-based actions, intervening 'if' clauses, optional, targeted, delayed,
reflexive and state triggers (intervening 'if' clauses on delayed and state triggers too), abilities triggering on
other abilities triggering (603.3b's second pass), permanents leaving the battlefield together, cards leaving a
graveyard together watched by abilities of cards in that graveyard (603.10a), abilities with no legal target left,
abilities targeting players (one of them a player who leaves the game before it resolves), prevented damage,
control changes (also of the source of a delayed ability before it triggers) and players leaving
the game, permanents put onto the battlefield in the middle of a resolution, scripts of one to three steps, and
how many times abilities trigger ("one or more", additional times, "only once each turn", on an ability resolving),
and spells cast onto the stack, resolving, countered or removed for an illegal target, watched by abilities.

Swarm testing (Groce et al., ISSTA 2012): the first answers a scenario reads are one per feature of
:data:`PROFILE_FEATURES` (:func:`draw_features`, 0 meaning off), so each scenario enables its own random subset of
the features instead of one fixed mix, and shrinking toward 0 turns the features a failure does not need off; the
features an engine's profile excludes stay off whatever is drawn. Under the mix, set pieces make the rarer situations
likely: a backbone of resolutions ``s1 -> s2 -> ... -> s4`` for nesting, a delayed ability whose source changes
hands before it triggers (603.7e), two abilities on one signal, the first to resolve destroying the other's target
(603.3d), a doomed player's ability waiting as they leave (800.4a), "the next time a creature dies" as several die
at once (603.7b).

Every scenario terminates:
* objects only move forward (hand -> battlefield -> graveyard -> exile; every move names the zone it moves from),
  so zone changes are finite;
* a signal ``sK`` only triggers abilities whose effects emit signals of a higher level (at most one signal per
  effect, so that chains grow deep rather than exponentially wide); abilities at the top level, and abilities
  triggered by damage, life, players leaving or other abilities, emit at most a top-level signal or a forward move
  (where a profile or the swarm leaves signals or empty effects out, the source's own destruction instead);
* a state trigger ("X is in a graveyard") always ends by exiling X, and is never optional or targeted; its
  intervening 'if', if any, is checked again on resolution, and while false it neither triggers nor resolves;
* an ability of a card in a graveyard that watches cards leaving the graveyard answers with a top-level signal or
  a life change;
* the reflexive ability of an optional ability ("you may ...; when you do, ...") only moves an object forward or
  does nothing, so even an engine that wrongly lets it trigger every time cannot loop through it;
* a delayed ability created by a set piece ("the next time a creature dies") only signals at the top level, and
  one lasting a step or a turn (triggering on every occurrence) that watches a signal signals nothing;
* an ability that watches another object's abilities (triggering or being put on the stack) watches an object
  that has no such watcher.
"""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.source import ChoiceSource

MAX_LEVEL = 4
TOP = f"s{MAX_LEVEL}"


# Features an engine's generation profile may exclude (``profile={"exclude": [...]}``, see build_scenario).
PROFILE_FEATURES = frozenset({
    "signals",            # named signals: as trigger conditions, in effects and in the script
    "state_triggers",     # 603.8 state triggers
    "watchers",           # abilities triggering on another ability triggering or being put on the stack
    "event_triggers",     # abilities triggering on damage, life changes or a player leaving
    "targets",            # targeted abilities (603.3d)
    "delayed",            # delayed triggered abilities (603.7)
    "reflexive",          # reflexive triggered abilities (603.12)
    "move_together",      # several permanents leaving the battlefield in one event
    "prevented",          # prevented damage (603.2g)
    "gain_control",       # control changes
    "players_leaving",    # players at low life and conceding (800.4a)
    "dies_when",          # permanents dying when another is in a graveyard
    "script_damage",      # damage dealt by a scripted action (no source)
    "empty_effects",      # abilities whose effect does nothing
    "other_objects",      # ability effects and intervening conditions naming an object other than the source
                          # (also: a card put from a hand onto the battlefield by a resolving ability)
    "other_players",      # ability effects on a player other than the ability's controller
    "exile",              # abilities and actions exiling permanents (they destroy instead; a state trigger still
                          # exiles the card it watches from a graveyard)
    "zone_conditions",    # intervening conditions about zones (life conditions stay)
    "graveyard_triggers", # cards in a graveyard watching cards leave it, exiled together (implied by "exile")
    "player_targets",     # abilities targeting a player (115.1), also one whose target leaves the game before it
                          # resolves (implied by "targets")
    "turns",              # scripts spanning several turns (500.1; the active player changes), and delayed abilities
                          # lasting "next turn" or "until your next turn", with a set piece: a delayed ability
                          # limited to a turn whose event comes again in a later turn (603.7b)
    "zone_changes",       # triggers on a zone change between any two zones ("put into exile from anywhere", "put
                          # into a hand or a library", "leaves a graveyard"), and a scripted event moving several
                          # objects to different zones (603.10a)
    "filters",            # card types and tokens on objects; trigger filters "you control", "an opponent
                          # controls", "a creature", "a nontoken", "you gain life", "a source you control deals
                          # damage" (603.2, 603.3a), with a set piece whose event matters only to the ability's
                          # controller, not to the active player
})


# Finer features an engine's profile may exclude too, which the swarm does not draw (so the stream's layout stays as
# it is): what an adapter can word only in part (e.g. phase.rs's, reference_engine/mtg/phase/__init__.py).
PROFILE_ONLY_FEATURES = frozenset({
    "other_players_multiplayer",     # effects on a player other than the ability's controller in games of 3-4 players
    "life_triggers",                 # abilities triggering on a life change (they become damage triggers)
    "foreign_graveyard_conditions",  # an intervening "if" that a card another player owns is not in a graveyard
    "concede_effects",               # abilities making a player lose the game (scripted concessions stay)
    "delayed_anywhere",              # delayed abilities anywhere in an effect, of any duration, trigger and effect,
                                     # with an intervening "if" (the default); a profile excluding this gets only
                                     # those closing their effect, lasting the turn, on a creature (any, or one)
                                     # leaving the battlefield or dying, doing one thing ("whenever a creature dies
                                     # this turn, ...")
    "reflexive_anywhere",            # reflexive abilities anywhere in an effect, watching any creature's death, with
                                     # an intervening "if" (the default); a profile excluding this gets only those
                                     # closing their effect right after destroying the object whose death they watch,
                                     # an object no earlier instruction of the effect names, with no intervening "if"
                                     # ("destroy X. When you do, ..."), never in an optional ability
    "untargeted_zone_triggers",      # enter/leave abilities never target (the default); a profile excluding this lets
                                     # them target "target player" (any player of the game), every object ("target
                                     # creature") or one object, maybe one in a hand (no legal target, 603.3d), for
                                     # an engine that reads targets but no named signals (the other targeted triggers)
    # The five below are for an engine whose adapter cannot see some shapes (phase.rs's: docs/engines/phase.md); each
    # is the default, and a profile excluding it gets the narrower shape described.
    "stray_targets",                 # targeted enter/leave abilities (see untargeted_zone_triggers) on any trigger,
                                     # their one object any (the default); a profile excluding this gets them only on
                                     # their source's own entering or leaving (once), each one-object target a
                                     # permanent nothing else in the scenario moves or damages (where there is one),
                                     # and a target with no legal candidate (a card in a hand, 603.3d) only with no
                                     # intervening "if" and with a second ability of its source on the same trigger,
                                     # so that both trigger at once and their controller orders them
    "scripted_delayed_triggers",     # a scripted event may trigger a live delayed ability (the default); a profile
                                     # excluding this gets delayed abilities watching deaths only and, in a scenario
                                     # that has one, scripted removals that exile (none where exile is left out)
    "repeated_delayed_creations",    # an ability creating a delayed ability may trigger several times (the default);
                                     # a profile excluding this gets creators of delayed abilities triggering only on
                                     # their own source's entering or leaving (at most once)
    "optional_for_others",           # an optional ability may begin with an instruction about another player (putting
                                     # a card from their hand, their life); a profile excluding this leaves such an
                                     # ability not optional
    "hand_control_changes",          # scripted control changes of any object, to any other player (the default); a
                                     # profile excluding this gets them only of permanents, to players who do not
                                     # leave the game, preferring permanents with abilities that name no player
                                     # through their controller ("you", "your", "opponent")
})


def _move_triggers_declared() -> bool:
    """Whether the MTG vocabulary gives abilities triggering on ``move`` events (zone changes outside the
    battlefield, e.g. a card leaving a graveyard) a meaning: generate them only then."""
    from reference_engine.mtg.judge.vocabulary import VOCABULARY

    return "move" in VOCABULARY.trigger_events


# Issue 12, item 1f (kept apart from the set above so that other vocabulary items can add theirs alongside).
PROFILE_FEATURES = PROFILE_FEATURES | frozenset({
    "batching",           # "whenever one or more ..." (603.2c), abilities triggering additional times (603.2d),
                          # "do this only once each turn" (603.2h), abilities triggering on an ability resolving
})

# Issue 12, item 1g.
PROFILE_FEATURES = PROFILE_FEATURES | frozenset({
    "spells",             # spells cast from a hand onto the stack, resolving, countered, or removed for an illegal
                          # target (608.2b); abilities triggering on casting and on countering
})


# Swarm testing (Groce et al., ISSTA 2012): each scenario first enables a random subset of the features, each with
# these odds (percent; the others: SWARM_ODDS_DEFAULT), so that scenarios differ in kind and not only in detail, and
# a feature that masks another (players leaving take their abilities with them...) is often absent. A feature drawn
# "off" reads 0, so shrinking turns features off; a profile's exclusions stay off whatever is drawn.
SWARM_ODDS_DEFAULT = 70
SWARM_ODDS = {"signals": 92, "other_objects": 80, "empty_effects": 50}
SWARM_ORDER = tuple(sorted(PROFILE_FEATURES))


def draw_features(source: ChoiceSource, exclude: frozenset[str] = frozenset()) -> frozenset[str]:
    """The features a scenario leaves out: those ``exclude`` names (a profile's, for good) and those the swarm draw
    switches off. The first answers of ``source``: one per feature of :data:`SWARM_ORDER`, 0 meaning off."""
    off = {feature for feature in SWARM_ORDER if not source.chance(SWARM_ODDS.get(feature, SWARM_ODDS_DEFAULT))}
    return frozenset(off | exclude)


class _Builder:
    def __init__(self, source: ChoiceSource, edition: str, exclude: frozenset[str] = frozenset()):
        self.source = source
        self.edition = edition
        self.excluded = exclude
        self.no = draw_features(source, exclude)
        if "targets" in self.no:
            self.no |= {"player_targets"}
        self.current: dict[str, Any] | None = None  # the object whose ability is being built (profiles only)
        self.doomed: list[str] = []  # players who may leave the game
        self.objects: list[dict[str, Any]] = []
        self.next_ability = 0
        self.graveyard_ids: list[str] = []  # abilities given by graveyard_ability (G1, G2, ...)
        self.optional_ids: list[str] = []
        self.targeted_ids: list[str] = []
        self.delayed_ids: list[str] = []
        self.gone_player: tuple[str, str, str] | None = None  # (signal, the targeting ability, the one removing)
        # (object, the signal that triggers its ability, the delayed ability's trigger) for abilities creating one
        self.delayed_sites: list[tuple[str, str, dict[str, Any]]] = []
        # profiles only: enter/leave abilities targeting a card in a hand ("stray_targets"), with their objects
        self.strays: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self.made_delayed = False  # whether some ability creates a delayed ability ("scripted_delayed_triggers")
        self.killers: list[tuple[dict[str, Any], dict[str, Any]]] = []  # (the same: creators, their triggers)

    # -- Helpers ---------------------------------------------------------------------------------------------------

    def ability_id(self, prefix: str = "A") -> str:
        self.next_ability += 1
        return f"{prefix}{self.next_ability}"

    def creatures(self) -> list[str]:
        return [o["id"] for o in self.objects if o["zone"] == "field" or o.get("castable")]

    def some_creature(self) -> str:
        return self.source.pick(self.creatures())

    def destroy(self, obj: str | None = None) -> dict[str, Any]:
        if "other_objects" in self.no and self.current is not None:
            obj = self.current["id"]
        obj = obj or self.some_creature()
        to = self.source.pick(["graveyard", "graveyard", "exile"])
        return {"do": "move", "object": obj, "from": "field", "to": "graveyard" if "exile" in self.no else to}

    def some_player(self) -> str:
        if ("other_players" in self.no or "other_players_multiplayer" in self.no and self.player_count > 2) \
                and self.current is not None:
            return self.current["owner"]
        return self.source.pick(self.vulnerable)

    def damage(self) -> dict[str, Any]:
        action: dict[str, Any] = {"do": "damage", "amount": self.source.integer(1, 3)}
        if self.source.chance(50):
            action["object"] = (self.current["id"] if "other_objects" in self.no and self.current is not None
                                else self.some_creature())
        else:
            action["player"] = self.some_player()
        if self.source.chance(45) and "prevented" not in self.no:
            action["prevented"] = True
        return action

    def condition(self, self_zone: str | None = "field", self_weight: int = 1) -> dict[str, Any]:
        """An intervening 'if' (603.4): about zones (unless the profile excludes them) or a life total; ``self``
        conditions (the source in ``self_zone``) ``self_weight`` times as likely as each other kind."""
        life = {"test": "life_at_least", "player": "controller", "value": self.source.integer(15, 20)}
        if "zone_conditions" in self.no:
            return life
        own = [{"test": "in_zone", "object": "self", "zone": self_zone}] * self_weight if self_zone else []
        mine = [c for c in self.creatures() if self.current is not None
                and next(o["owner"] for o in self.objects if o["id"] == c) == self.current["owner"]]
        gone = self.source.pick(mine) if "foreign_graveyard_conditions" in self.no and mine else self.some_creature()
        return self.source.pick(own + [
            {"test": "in_zone", "object": self.some_creature(), "zone": "field"},
            {"test": "not_in_zone", "object": gone, "zone": "graveyard"},
            life,
        ])

    def allowed(self, kind: int, allowed: dict[int, str | None]) -> int | None:
        """Under a profile, ``kind`` if its feature is allowed, else another allowed kind (None: none is)."""
        if not self.no or allowed.get(kind) not in self.no:
            return kind
        ok = [k for k, feature in allowed.items() if feature not in self.no]
        return self.source.pick(ok) if ok else None

    # -- Effects by level (see the module docstring for why this terminates) ----------------------------------------

    def effect(self, level: int, allow_created: bool = True) -> list[dict[str, Any]]:
        """An effect of an ability triggered by signal s<level> (level 0: by a zone change, or a script)."""
        if level >= MAX_LEVEL:
            return [self.destroy()] if self.source.chance(40) else []
        actions: list[dict[str, Any]] = []
        for _ in range(self.source.count(1 if "empty_effects" in self.no else 0, 3)):
            kind = self.allowed(self.source.integer(0, 10), {
                0: "signals", 1: "signals", 2: None, 3: None, 4: None, 5: "move_together",
                6: "delayed" if allow_created else "-", 7: "reflexive" if allow_created else "-", 8: "signals",
                9: "delayed" if allow_created else "-", 10: "other_objects"})
            if kind is None:
                break
            if kind in (0, 1, 8) and any(a["do"] == "signal" for a in actions):
                kind = 2  # one signal per effect: chains grow deep, not exponentially wide
            if kind in (6, 9) and "scripted_delayed_triggers" in self.excluded and "exile" in self.no:
                kind = 2  # profiles only: the script's removals could not exile, so no delayed ability
            if kind <= 1:
                actions.append(self.next_signal(level))
            elif kind == 10:  # "put a creature card from your hand onto the battlefield": it enters mid-resolution
                actions.append(self.put_onto_field())
            elif kind == 2:
                actions.append(self.destroy())
            elif kind == 3:
                actions.append(self.damage())
            elif kind == 4:
                if self.doomed and self.source.chance(25) and "concede_effects" not in self.no:
                    # "target player loses the game", mid-resolution (800.4a)
                    actions.append({"do": "concede", "player": self.source.pick(self.doomed)})
                    continue
                actions.append({"do": "life", "player": self.some_player(),
                                "amount": self.source.pick([-1, -2, -3, 2])})
            elif kind == 5:
                field = self.creatures()
                together = [o for o in field if self.source.chance(60)] or field[:2]
                actions.append({"do": "move_together", "objects": together, "from": "field", "to": "graveyard"})
            elif kind in (6, 9) and allow_created:
                actions.append(self.delayed(level))
                if "delayed_anywhere" in self.excluded:  # profiles only: the delayed ability closes the effect
                    break
            elif kind == 7 and allow_created:
                victim = self.some_creature()
                actions.append(self.destroy(victim) | {"to": "graveyard"})
                rid = self.ability_id("R")
                follow = ({"do": "signal", "name": f"s{self.source.integer(level + 1, MAX_LEVEL)}"}
                          if self.source.chance(50) and "signals" not in self.no else self.damage())
                reflexive: dict[str, Any] = {
                    "id": rid, "trigger": {"event": "leave", "subject": victim if self.source.chance(70) else "any",
                                           "to": "graveyard"}, "effect": [follow]}
                if self.source.chance(40):  # 603.4 with 603.12: checked as it is created, and on resolution
                    reflexive["intervening_if"] = self.condition()
                if "reflexive_anywhere" in self.excluded:  # profiles only: "destroy X. When you do, ..."
                    named = {a.get("object") for a in actions[:-1]} | {
                        o for a in actions[:-1] for o in a.get("objects", ())}
                    if actions[-1]["object"] in named:  # an object no earlier instruction names
                        free = [c for c in self.creatures() if c not in named]
                        if not free or "other_objects" in self.no:
                            actions.pop()
                            break
                        actions[-1]["object"] = self.source.pick(free)
                    reflexive["trigger"]["subject"] = actions[-1]["object"]
                    reflexive.pop("intervening_if", None)
                    actions.append({"do": "reflexive", "ability": reflexive})
                    break
                actions.append({"do": "reflexive", "ability": reflexive})
            else:
                actions.append({"do": "signal", "name": TOP})
        return actions

    def next_signal(self, level: int) -> dict[str, Any]:
        """A signal above ``level``, most often the next one up (so that chains of resolutions grow deep)."""
        if level < MAX_LEVEL - 1 and self.source.chance(60):
            return {"do": "signal", "name": f"s{level + 1}"}
        up = self.source.integer(level + 1, MAX_LEVEL)
        return {"do": "signal", "name": f"s{up}"}

    def at_target_player(self) -> dict[str, Any]:
        """'deals N damage to target player' or 'target player loses (gains) N life'."""
        if self.source.chance(50):
            return {"do": "damage", "amount": self.source.integer(1, 3), "target": True}
        return {"do": "life", "amount": self.source.pick([-1, -2, -3, 2]), "target": True}

    def put_onto_field(self) -> dict[str, Any]:
        """A card put from a hand onto the battlefield (objects only move forward: at most once), else a destroy."""
        hand = [o["id"] for o in self.objects if o["zone"] == "hand"]
        if not hand:
            return self.destroy()
        return {"do": "move", "object": self.source.pick(hand), "from": "hand", "to": "field"}

    def delayed(self, level: int) -> dict[str, Any]:
        did = self.ability_id("D")
        self.delayed_ids.append(did)
        duration = self.source.pick([None, None, None, "step", "turn"] +
                                    ([] if "turns" in self.no else ["next_turn", "until_your_next_turn"]))
        if self.source.chance(50) or "signals" in self.no:
            subject = self.source.pick(["self", self.some_creature(), "any", "any", "any"])
            trigger = {"event": "leave", "subject": subject}
            effect = [{"do": "signal", "name": TOP}] if self.source.chance(60) else []
        else:
            j = self.source.integer(level + 1, MAX_LEVEL)
            trigger = {"event": "signal", "name": f"s{j}"}
            # one lasting a step or a turn triggers on every signal: it signals nothing, or scenarios balloon
            effect = ([self.destroy()] if self.source.chance(40) else []) if duration else self.effect(
                j, allow_created=False)
        ability: dict[str, Any] = {"id": did, "trigger": trigger, "effect": effect}
        if self.source.chance(65):  # 603.4 applies to delayed triggered abilities too
            ability["intervening_if"] = self.condition()
        if "delayed_anywhere" in self.excluded:  # profiles only: "whenever a creature dies this turn, ..."
            duration = "turn"
            ability.pop("intervening_if", None)
            if trigger.get("event") != "leave" or trigger["subject"] == "self":
                ability["trigger"] = trigger = {"event": "leave", "subject": "any"}
            if self.source.chance(50) or "scripted_delayed_triggers" in self.excluded:
                trigger["to"] = "graveyard"
            owner = self.current["owner"] if self.current is not None else self.all_players[0]
            ability["effect"] = [self.source.pick([self.destroy(), {"do": "life", "player": owner,
                                                                     "amount": self.source.pick([1, 2, -1])}])]
        action: dict[str, Any] = {"do": "create_delayed", "ability": ability}
        self.made_delayed = True
        if duration:
            action["duration"] = duration
        return action

    # -- Abilities ---------------------------------------------------------------------------------------------------

    def ability(self, obj: dict[str, Any]) -> dict[str, Any]:
        aid = self.ability_id()
        self.current = obj if self.no else None
        kind = self.allowed(self.source.integer(0, 8), {
            0: "signals", 1: "signals", 2: "signals", 3: None, 4: None, 5: "event_triggers", 6: "state_triggers",
            7: "state_triggers", 8: "state_triggers"})
        ability: dict[str, Any] = {"id": aid}
        if kind <= 2:  # "Whenever sK happens" (a stand-in for casting, attacking, upkeep...)
            level = self.source.integer(1, MAX_LEVEL)
            ability["trigger"] = {"event": "signal", "name": f"s{level}"}
            ability["effect"] = self.effect(level)
            for action in ability["effect"]:
                if action["do"] == "create_delayed":
                    self.delayed_sites.append((obj["id"], f"s{level}", action["ability"]["trigger"]))
            if level < MAX_LEVEL and self.source.chance(35) and "targets" not in self.no:
                ability["target"] = {"candidates": [c for c in self.creatures() if self.source.chance(50)]
                                     or [self.some_creature()]}
                hand = [o["id"] for o in self.objects if o["zone"] == "hand"]
                if self.source.chance(35):  # 603.3d: one that may well have no legal target when it triggers
                    ability["target"]["candidates"] = hand[:1] or ability["target"]["candidates"][:1]
                ability["effect"] = [{"do": "move_target", "to": "graveyard"}] + ability["effect"]
                if "player_targets" not in self.no and self.source.chance(40):  # "... target player" (115.1)
                    ability["target"] = {"players": [p for p in self.vulnerable if self.source.chance(60)]
                                         or [self.some_player()]}
                    ability["effect"][0] = self.at_target_player()
                self.targeted_ids.append(aid)
        elif kind <= 4:  # dies / leaves / enters
            event = self.source.pick(["leave", "leave", "enter"])
            ability["trigger"] = {"event": event, "subject": self.source.pick(["any", "any", "self", "other"])}
            if event == "leave" and self.source.chance(60):
                ability["trigger"]["to"] = "graveyard"
            # "put into exile from anywhere": drawn whether the feature is on or not, so that shrinking can turn it
            # off without shifting the draws that follow
            anywhere, to = self.source.chance(30), self.source.pick(["exile", "graveyard", "hand", "deck"])
            if "zone_changes" not in self.no and anywhere:
                ability["trigger"] = {"event": "zone_change", "subject": ability["trigger"]["subject"], "to": to}
            if "filters" not in self.no and self.source.chance(60):  # "a nontoken creature you control dies"
                self.filter_objects(ability["trigger"])
            ability["effect"] = self.effect(0)
            if "untargeted_zone_triggers" in self.excluded and self.source.chance(35):  # profiles only: "target player"
                ability["target"] = {"players": list(self.all_players)}
                aimed = ({"do": "damage", "amount": self.source.integer(1, 3), "target": True} if self.source.chance(50)
                         else {"do": "life", "amount": -self.source.integer(1, 3), "target": True})
                if self.source.chance(50):  # "target creature" (every object) or one object ("target Elf")
                    everyone = [o["id"] for o in self.objects]
                    field = [o["id"] for o in self.objects if o["zone"] == "field" and o is not obj]
                    # one object: rarely one in a hand (no legal target while it is there, 603.3d)
                    ability["target"] = {"candidates": everyone if self.source.chance(40) else [
                        self.source.pick(everyone if self.source.chance(25) or not field else field)]}
                    exile = "graveyard" if "exile" in self.no else "exile"
                    aimed = self.source.pick([{"do": "move_target", "to": "graveyard"},
                                              {"do": "move_target", "to": exile},
                                              {"do": "damage", "amount": self.source.integer(1, 3), "target": True}])
                ability["effect"] = [aimed] + ability["effect"]
                self.targeted_ids.append(aid)
                if "stray_targets" in self.excluded:  # profiles only: on its own source's zone change (once)
                    ability["trigger"]["subject"] = "self"
                    aims = ability["target"].get("candidates") or []
                    if len(aims) == 1 and next(o for o in self.objects if o["id"] == aims[0])["zone"] == "hand":
                        self.strays.append((obj, ability))  # with no legal target: see stray_siblings
            if "repeated_delayed_creations" in self.excluded and any(
                    a["do"] == "create_delayed" for a in ability["effect"]):  # profiles only: created at most once
                ability["trigger"]["subject"] = "self"
            if "scripted_delayed_triggers" in self.excluded and any(
                    a["do"] == "create_delayed" for a in ability["effect"]):  # profiles only: a death to see
                self.killers.append((obj, ability["trigger"]))
        elif kind == 5:  # damage, life, a player leaving: answered with a top-level signal
            ability["trigger"] = {"event": self.source.pick(["damage", "damage", "life", "player_leaves"])}
            if ability["trigger"]["event"] == "life" and "life_triggers" in self.no:
                ability["trigger"]["event"] = "damage"
            if "filters" not in self.no and self.source.chance(60):  # "you gain life", "a source you control ..."
                self.filter_players(ability["trigger"])
            ability["effect"] = [{"do": "signal", "name": TOP}] if self.source.chance(70) else []
        else:  # a state trigger (603.8): "whenever X is in a graveyard, exile it"
            watched = self.some_creature()
            ability["trigger"] = {"event": "state", "state": {"test": "in_zone", "object": watched, "zone": "graveyard"}}
            ability["effect"] = ([{"do": "signal", "name": TOP}] if self.source.chance(60) else []) + [
                {"do": "move", "object": watched, "from": "graveyard", "to": "exile"}]
            if self.source.chance(60):  # 603.4 with 603.8: while false, the state trigger does not trigger
                ability["intervening_if"] = self.condition(None)
            return ability
        if self.source.chance(25) and not ("delayed_anywhere" in self.excluded and any(
                a["do"] == "create_delayed" for a in ability["effect"])) and not (  # (profiles: a delayed one closes it)
                "reflexive_anywhere" in self.excluded and ability["effect"]
                and ability["effect"][-1]["do"] == "reflexive") and not (  # (profiles: nor a reflexive one)
                "optional_for_others" in self.excluded and self.about_others(obj, ability["effect"])):
            ability["optional"] = True
            self.optional_ids.append(aid)
            if self.source.chance(55) and "reflexive" not in self.no \
                    and "reflexive_anywhere" not in self.excluded:  # "you may ...; when you do, ..." (603.12)
                victim = self.some_creature()
                ability["effect"] = ability["effect"] + [self.destroy(victim) | {"to": "graveyard"}, {
                    "do": "reflexive", "ability": {"id": self.ability_id("R"), "trigger": {
                        "event": "leave", "subject": victim, "to": "graveyard"},
                        # (a profile leaving out empty effects gets an effect every time)
                        "effect": [self.destroy()] if self.source.chance(50) or "empty_effects" in self.excluded
                        else []}}]
                if self.source.chance(20):  # 603.4 with 603.12
                    ability["effect"][-1]["ability"]["intervening_if"] = self.condition()
        looking_back = ability["trigger"]["event"] == "leave"  # 603.10: its 'if' is judged before the event
        if "zone_conditions" in self.no:
            if self.source.chance(40):
                ability["intervening_if"] = self.condition()
        elif self.source.chance(60 if looking_back else 40):
            ability["intervening_if"] = self.condition(self_weight=3 if looking_back else 1)
        return ability

    # -- Profiles only: shapes an adapter can see (PROFILE_ONLY_FEATURES) ----------------------------------------------

    def about_others(self, obj: dict[str, Any], effect: list[dict[str, Any]]) -> bool:
        """Whether ``effect`` begins with an instruction about a player other than ``obj``'s owner (a card put from
        their hand, their life): "you may ..." cannot say it ("optional_for_others")."""
        first = effect[0] if effect else {}
        if first.get("do") == "move" and first.get("from") == "hand":
            return any(o["id"] == first["object"] and o["owner"] != obj["owner"] for o in self.objects)
        return first.get("do") == "life" and "player" in first and first["player"] != obj["owner"]

    def names_controller(self, obj: dict[str, Any]) -> bool:
        """Whether an ability of ``obj`` names a player through its controller ("you gain 1 life", "your graveyard",
        "each opponent"): once its source changed hands, such a text means another player than the scenario's."""
        for ability in obj.get("abilities", ()):
            if (ability.get("intervening_if") or {}).get("test") == "not_in_zone":
                return True
            actions = list(ability.get("effect", ()))
            while actions:
                action = actions.pop()
                if action.get("do") in ("life", "damage") and "player" in action \
                        or action.get("do") == "move" and action.get("from") == "hand":
                    return True
                if isinstance(action.get("ability"), dict):
                    actions += action["ability"].get("effect", ())
        return False

    def profile_siblings(self) -> None:
        """"stray_targets": an ability targeting a card in a hand (no legal target while it is there, 603.3d) gets
        no intervening "if", is not optional, and gets a second ability of its source on the same trigger ("you gain
        1 life"), so that both trigger at once and their controller is asked to order them.
        "scripted_delayed_triggers": an ability creating a delayed ability (which scripted deaths, exiles there, no
        longer trigger) gets a second ability of its source on the same trigger destroying another permanent, so
        that a death may follow the creation (when it resolves later) or precede it (603.7a)."""
        for obj, trigger in self.killers:
            field = [o["id"] for o in self.objects if o["zone"] == "field" and o is not obj]
            if field:
                obj["abilities"].append({"id": self.ability_id(), "trigger": dict(trigger), "effect": [
                    {"do": "move", "object": self.source.pick(field), "from": "field", "to": "graveyard"}]})
        for obj, ability in self.strays:
            ability.pop("intervening_if", None)
            if ability.pop("optional", None):
                self.optional_ids.remove(ability["id"])
            obj["abilities"].append({"id": self.ability_id(), "trigger": dict(ability["trigger"]),
                                     "effect": [{"do": "life", "player": obj["owner"], "amount": 1}]})

    def shelter_targets(self, steps: list[dict[str, Any]], doomed: list[str]) -> None:
        """"stray_targets": an ability targeting one permanent that something else in the scenario moves or damages
        (or that a leaving player takes away) targets instead one that nothing does, if there is one (each such
        permanent for one ability: its instruction removes or damages its target)."""
        named: set[str] = set()

        def note(actions: list[dict[str, Any]]) -> None:
            for action in actions:
                if action.get("do") != "gain_control":
                    named.update([action["object"]] if isinstance(action.get("object"), str) else [])
                    named.update(action.get("objects", ()))
                if isinstance(action.get("ability"), dict):
                    note(action["ability"].get("effect", []))

        for obj in self.objects:
            for ability in obj.get("abilities", ()):
                note(ability.get("effect", []))
        for step in steps:
            for action in step["actions"]:
                note(action["effect"])
        field = {o["id"]: o for o in self.objects if o["zone"] == "field" and o["owner"] not in doomed}
        aimed = [(obj, a) for obj in self.objects for a in obj.get("abilities", ())
                 if len((a.get("target") or {}).get("candidates") or ()) == 1
                 and a["target"]["candidates"][0] in field]
        taken = named | {a["target"]["candidates"][0] for _, a in aimed}
        for obj, ability in aimed:
            aim = ability["target"]["candidates"][0]
            if aim not in named and aim != obj["id"]:
                continue
            free = [c for c in field if c not in taken and c != obj["id"]]
            if free:
                ability["target"]["candidates"] = [self.source.pick(free)]
                taken.add(ability["target"]["candidates"][0])

    def filter_objects(self, trigger: dict[str, Any]) -> None:
        """Filters on the event's object: who controls it (relative to the ability's controller), a card type, not a
        token (603.2; 603.3a for "you")."""
        if self.source.chance(60):
            trigger["controller"] = self.source.pick(["you", "opponent"])
        if self.source.chance(45):
            trigger["type"] = self.source.pick(["creature", "creature", "artifact"])
        if self.source.chance(30):
            trigger["nontoken"] = True

    def filter_players(self, trigger: dict[str, Any]) -> None:
        """Filters of a damage, life or leaving event: the player it happens to, relative to the ability's controller;
        a damage source you (an opponent) control; life gained."""
        if trigger["event"] == "damage" and self.source.chance(50):
            trigger["controller"] = self.source.pick(["you", "opponent"])  # "a source you control deals damage"
        else:
            trigger["player"] = self.source.pick(["you", "opponent"])
        if trigger["event"] == "life" and self.source.chance(60):
            trigger["change"] = "gain"

    def graveyard_ability(self, card: dict[str, Any]) -> None:
        """Give ``card``, a permanent a set piece hands to another player and that may then die, an ability working
        from its owner's graveyard: once it is there it triggers under its owner's control, since control does not
        outlive the battlefield (400.7, 108.4a, 603.3a). A state trigger exiling the card (603.8, so it cannot loop).
        It draws nothing and is numbered apart (G1, G2, ...), last in the trigger order, so that the rest of the
        scenario (choices included) is as without it."""
        if "state_triggers" in self.no or any(a.get("active_in") == ["graveyard"]
                                               for a in card.get("abilities") or ()):
            return
        self.graveyard_ids.append(f"G{len(self.graveyard_ids) + 1}")
        card.setdefault("abilities", []).append({
            "id": self.graveyard_ids[-1], "active_in": ["graveyard"],
            "trigger": {"event": "state", "state": {"test": "in_zone", "object": "self", "zone": "graveyard"}},
            "effect": [{"do": "move", "object": card["id"], "from": "graveyard", "to": "exile"}]})

    def graveyard_card(self, owner: str) -> dict[str, Any]:
        """A card in its owner's graveyard with an ability that triggers on cards leaving a graveyard, which looks
        back in time (603.10a): leaving together with other cards, it sees them all leave."""
        ability: dict[str, Any] = {"id": self.ability_id(), "trigger": {
            "event": "zone_change" if "zone_changes" not in self.no and self.source.chance(40) else "move",
            "from": "graveyard", "subject": self.source.pick(["any", "other", "self"])},
            "active_in": ["graveyard"],
            "effect": [self.source.pick([{"do": "signal", "name": TOP},
                                         {"do": "life", "player": owner, "amount": 1}])]}
        if self.source.chance(35):
            ability["intervening_if"] = ({"test": "in_zone", "object": "self", "zone": "graveyard"}
                                         if "zone_conditions" not in self.no else self.condition())
        return {"id": f"C{len(self.objects) + 1}", "owner": owner, "zone": "graveyard", "abilities": [ability]}

    def watcher(self, watched: str) -> dict[str, Any]:
        """An ability triggering on another object's ability triggering (603.3b's second pass) or, rarely, being put
        on the stack."""
        event = "ability_stacked" if self.source.chance(15) else "ability_triggered"
        effect = [self.destroy()] if self.source.chance(30) else []
        return {"id": self.ability_id(), "trigger": {"event": event, "subject": watched}, "effect": effect}

    # -- The scenario --------------------------------------------------------------------------------------------------

    def build(self) -> dict[str, Any]:
        src = self.source
        n = src.pick([2, 3, 3, 4, 4])
        players = [f"P{k + 1}" for k in range(n)]
        active = src.pick(players)
        others = [p for p in players if p != active]
        doomed = [] if "players_leaving" in self.no else [p for p in others if n >= 3 and src.chance(55)][: n - 2]
        self.vulnerable = doomed or players
        self.all_players = players
        self.player_count = n
        self.doomed = doomed
        life = {p: src.integer(1, 3) for p in doomed}
        for p in players:
            for _ in range(src.count(1, 3)):
                obj: dict[str, Any] = {"id": f"C{len(self.objects) + 1}", "owner": p, "zone": "field"}
                if src.chance(20):
                    obj["toughness"] = 2
                self.objects.append(obj)
            if src.chance(40):
                self.objects.append({"id": f"C{len(self.objects) + 1}", "owner": p, "zone": "hand", "castable": True})
        for obj in self.objects:  # card types (205.2a) and tokens (111.1), read by trigger filters: drawn whether the
            # feature is on or not, so that shrinking can turn it off without shifting the draws that follow
            kind, token = src.pick(["creature", "creature", "creature", "artifact", "enchantment"]), src.chance(20)
            if "filters" not in self.no:
                obj["types"] = [kind]
                if obj["zone"] == "field" and token:
                    obj["token"] = True
        for obj in self.objects:
            obj["abilities"] = [self.ability(obj) for _ in range(src.count(0, 2))]
        self.profile_siblings()
        steady = [o for o in self.objects if o["zone"] == "field" and o["owner"] not in doomed]
        chain = None
        if src.chance(90) and "signals" not in self.no:
            # a backbone of resolutions (nesting): s1's ability signals s2, whose ability signals s3, ... each maybe
            # doing more, held by permanents of players who stay in the game
            chain = "s1"
            for k in range(1, MAX_LEVEL):
                holder = src.pick(steady)
                self.current = holder if self.no else None
                effect = self.effect(k) if src.chance(50) else []
                effect.insert(src.integer(0, len(effect)), {"do": "signal", "name": f"s{k + 1}"})
                holder["abilities"].append({"id": self.ability_id(), "trigger": {"event": "signal", "name": f"s{k}"},
                                            "effect": effect})
                for action in effect:
                    if action["do"] == "create_delayed":
                        self.delayed_sites.append((holder["id"], f"s{k}", action["ability"]["trigger"]))
        self.current = None
        handoff = None
        if src.chance(30) and not {"delayed", "gain_control", "signals"} & self.no:
            # a delayed ability created, then its source changes hands, then it triggers: it stays its creator's
            # controller's (603.7e)
            holder = src.pick(steady)
            did = self.ability_id("D")
            self.delayed_ids.append(did)
            own = src.chance(50)
            delayed = {"id": did, "trigger": {"event": "leave", "subject": "self"} if own else {
                "event": "signal", "name": TOP}, "effect": [{"do": "signal", "name": TOP}] if own and src.chance(50)
                else []}
            create: dict[str, Any] = {"do": "create_delayed", "ability": delayed}
            if src.chance(40):
                create["duration"] = "turn"
            signal = f"s{src.integer(1, MAX_LEVEL - 1)}"
            holder["abilities"].append({"id": self.ability_id(), "trigger": {"event": "signal", "name": signal},
                                        "effect": [create]})
            taker = src.pick([p for p in players if p != holder["owner"]])
            if src.chance(60):  # and one of its own abilities triggers under its new controller (603.3a)
                holder["abilities"].append({"id": self.ability_id(), "trigger": dict(delayed["trigger"]), "effect": []})
            self.graveyard_ability(holder)  # and if it dies, from the graveyard it is its owner's again (400.7)
            fire = ({"do": "move", "object": holder["id"], "from": "field", "to": "graveyard"} if own
                    else {"do": "signal", "name": TOP})
            handoff = [{"do": "signal", "name": signal},
                       {"do": "gain_control", "object": holder["id"], "player": taker}, fire]
        gone = None
        if src.chance(30) and not {"targets", "signals"} & self.no and len(steady) >= 2:
            # two abilities on one signal: the first to resolve destroys the other's target (603.3d on resolution)
            victim = src.pick(steady)
            holder = src.pick([o for o in steady if o is not victim])
            level = src.integer(1, MAX_LEVEL - 1)
            aimed, killer = self.ability_id(), self.ability_id()
            self.targeted_ids.append(aimed)
            holder["abilities"].append({"id": aimed, "trigger": {"event": "signal", "name": f"s{level}"},
                                        "target": {"candidates": [victim["id"]]},
                                        "effect": [{"do": "move_target", "to": "graveyard"}]})
            holder["abilities"].append({"id": killer, "trigger": {"event": "signal", "name": f"s{level}"},
                                        "effect": [{"do": "move", "object": victim["id"], "from": "field",
                                                    "to": "graveyard"}]})
            gone = (f"s{level}", aimed, killer, victim["id"])
        if doomed and src.chance(45) and not {"player_targets", "signals"} & self.no and steady:
            # two abilities on one signal: the first to resolve makes a player leave the game, the other targets
            # that player, no longer a legal target when it resolves (800.4a, 608.2b)
            holder, leaver = src.pick(steady), src.pick(doomed)
            level = src.integer(1, MAX_LEVEL - 1)
            aimed, killer = self.ability_id(), self.ability_id()
            self.targeted_ids.append(aimed)
            holder["abilities"].append({"id": aimed, "trigger": {"event": "signal", "name": f"s{level}"},
                                        "target": {"players": [leaver]}, "effect": [self.at_target_player()]})
            holder["abilities"].append({"id": killer, "trigger": {"event": "signal", "name": f"s{level}"},
                                        "effect": [src.pick([{"do": "concede", "player": leaver},
                                                             {"do": "life", "player": leaver, "amount": -20}])]})
            self.gone_player = (f"s{level}", aimed, killer)
        mine = None
        if "filters" not in self.no and steady and src.chance(85):
            # an event that matters to an ability only relative to its controller, held by a player who is not active
            # ("whenever you gain life", "whenever a creature an opponent controls enters"): 603.3a's "you"
            holder = src.pick([o for o in steady if o["owner"] != active] or steady)
            stayers = [p for p in players if p not in doomed]
            relation = src.pick(["you", "opponent"])
            who = holder["owner"] if relation == "you" else src.pick([p for p in stayers if p != holder["owner"]]
                                                                       or [p for p in players if p != holder["owner"]])
            hand = [o for o in self.objects if o["zone"] == "hand" and o["owner"] == who]
            effect = [{"do": "signal", "name": TOP}] if src.chance(50) and "signals" not in self.no else []
            if not effect and "empty_effects" in self.no:
                effect = [self.destroy(holder["id"])]
            if hand and (src.chance(50) or "event_triggers" in self.no):
                # "whenever a creature you control / an opponent controls enters"
                card = src.pick(hand)
                holder["abilities"].append({"id": self.ability_id(), "trigger": {
                    "event": "enter", "controller": relation} | ({"type": card["types"][0]} if src.chance(50) else {}),
                    "effect": effect})
                mine = {"do": "move", "object": card["id"], "from": "hand", "to": "field"}
            elif "event_triggers" not in self.no:  # "whenever you gain life", "whenever an opponent gains life"
                holder["abilities"].append({"id": self.ability_id(), "trigger": {
                    "event": "life", "player": relation, "change": "gain"}, "effect": effect})
                mine = {"do": "life", "player": who, "amount": src.integer(1, 3)}
        departure = None
        if doomed and src.chance(60) and "signals" not in self.no:
            # a doomed player's ability and another's "that player loses the game" trigger on the same signal: the
            # doomed player leaves while their ability waits or is on the stack (800.4a)
            level = src.integer(1, MAX_LEVEL)
            leaver = src.pick(doomed)
            theirs = [o for o in self.objects if o["owner"] == leaver and o["zone"] == "field"]
            others = [o for o in self.objects if o["owner"] != leaver and o["zone"] == "field"]
            if theirs and others:
                departure = f"s{level}"
                effect: list[dict[str, Any]] = [{"do": "signal", "name": TOP}] if level < MAX_LEVEL else []
                if src.chance(65) and "delayed" not in self.no:  # it outlives them, or ends with them (800.4a)
                    did = self.ability_id("D")
                    self.delayed_ids.append(did)
                    effect = [{"do": "create_delayed", "ability": {"id": did, "trigger": {"event": "leave",
                              "subject": "any"}, "effect": []}} | ({"duration": "turn"} if src.chance(50) else {})]
                src.pick(theirs)["abilities"].append({"id": self.ability_id(), "trigger": {
                    "event": "signal", "name": departure}, "effect": effect})
                src.pick(others)["abilities"].append({"id": self.ability_id(), "trigger": {
                    "event": "signal", "name": departure}, "effect": [{"do": "concede", "player": leaver}]})
        shield = None
        if src.chance(45) and not {"prevented", "event_triggers", "script_damage"} & self.no:
            # "whenever this deals damage, ...", and all the damage it would deal is prevented (603.2g)
            dealer = src.pick([o for o in self.objects if o["zone"] == "field"])
            dealer["abilities"].append({"id": self.ability_id(), "trigger": {"event": "damage", "subject": "self"},
                                        "effect": [{"do": "signal", "name": TOP}] if src.chance(50) else []})
            shield = {"do": "damage", "source": dealer["id"], "amount": src.integer(1, 3), "prevented": True,
                      "player": src.pick(players)}
        once = None
        if src.chance(45) and not {"delayed", "signals", "move_together"} & self.no:
            # "the next time a creature dies, ...", then several die at once: it triggers once, on the occurrence
            # its controller chooses (603.7b)
            holder = src.pick([o for o in self.objects if o["zone"] == "field"])
            did = self.ability_id("D")
            self.delayed_ids.append(did)
            delayed: dict[str, Any] = {"id": did, "trigger": {"event": "leave", "subject": "any", "to": "graveyard"},
                                       "effect": [{"do": "signal", "name": TOP}] if src.chance(50) else []}
            once = (f"s{src.integer(1, MAX_LEVEL)}", holder["id"], holder["owner"])
            holder["abilities"].append({"id": self.ability_id(), "trigger": {"event": "signal", "name": once[0]},
                                        "effect": [{"do": "create_delayed", "ability": delayed}]})
        graveyard = (src.chance(40) and "graveyard_triggers" not in self.no and "exile" not in self.no
                     and _move_triggers_declared())
        if graveyard:
            for _ in range(src.count(1, 2)):
                self.objects.append(self.graveyard_card(src.pick(players)))
        if src.chance(30) and "dies_when" not in self.no:
            # a permanent dies when another is in a graveyard: deaths from state-based actions
            a, b = src.pick(self.objects), src.pick(self.objects)
            if a is not b:
                a["dies_when"] = {"test": "in_zone", "object": b["id"], "zone": "graveyard"}
        watched_ids: set[str] = set()
        holders: set[str] = set()
        if src.chance(60) and "watchers" not in self.no:
            for _ in range(src.count(1, 2)):  # a watched object never holds a watcher: no chains of watchers
                pool = [o for o in self.objects if o["abilities"] and o["id"] not in holders]
                if not pool:
                    break
                watched = src.pick(pool)
                spots = [o for o in self.objects if o is not watched and o["id"] not in watched_ids]
                if not spots:
                    break
                holder = src.pick(spots)
                watched_ids.add(watched["id"])
                holders.add(holder["id"])
                holder["abilities"].append(self.watcher(watched["id"]))
        batching = self.batching(players, watched_ids) if "batching" not in self.no else []
        casting = self.spells(active) if "spells" not in self.no else []
        for obj in self.objects:
            obj.pop("castable", None)
            if not obj["abilities"]:
                del obj["abilities"]
        steps = []
        conceded: list[str] = []
        turn = 1
        for s in range(src.count(1, 3)):
            actions = []
            for _ in range(src.count(1, 3)):
                actions.append({"by": active, "effect": [self.script_action(players, active, doomed, conceded)]})
            steps.append({"step": ["upkeep", "main", "combat"][s], "actions": actions})
            if s and "turns" not in self.no and src.chance(45):  # this step begins a later turn (500.1)
                turn += src.pick([1, 1, 2])
                steps[-1]["turn"] = turn
        last = steps[-1]["actions"]
        if "zone_changes" not in self.no and src.chance(80):
            # one event moving a fresh permanent off the battlefield and maybe graveyard cards, each to its own zone,
            # watched by a fresh permanent's "whenever a card or permanent is put into <zone> from anywhere" (603.6,
            # 603.10a); fresh, so that nothing else in the scenario moves them first
            stayers = [p for p in players if p not in doomed]
            holder = {"id": f"C{len(self.objects) + 1}", "owner": src.pick(stayers), "zone": "field"}
            self.objects.append(holder)
            moved = {"id": f"C{len(self.objects) + 1}", "owner": src.pick(players), "zone": "field"}
            self.objects.append(moved)
            first = src.pick(["hand", "deck"] + ([] if "exile" in self.no else ["exile"]))
            moves = [{"object": moved["id"], "from": "field", "to": first}]
            moves += [{"object": o["id"], "from": "graveyard", "to": src.pick(["exile", "hand", "deck"])}
                      for o in self.objects if o["zone"] == "graveyard" and src.chance(35)]
            if src.chance(50):  # and another fresh permanent to another zone
                also = {"id": f"C{len(self.objects) + 1}", "owner": src.pick(players), "zone": "field"}
                self.objects.append(also)
                moves.append({"object": also["id"], "from": "field",
                              "to": src.pick([z for z in ("graveyard", "hand", "deck") if z != first])})
            trigger: dict[str, Any] = {"event": "zone_change", "to": first}
            if src.chance(30):
                trigger = {"event": "zone_change", "from": src.pick(["field", "graveyard"])}
            effect = [{"do": "signal", "name": TOP}] if src.chance(50) and "signals" not in self.no else []
            if not effect and "empty_effects" in self.no:
                effect = [self.destroy(holder["id"])]
            holder["abilities"] = [{"id": self.ability_id(), "trigger": trigger, "effect": effect}]
            last.append({"by": active, "effect": [{"do": "move_each", "moves": src.permutation(moves)}]})
        if chain:  # most often first, while its holders are all still there
            where = steps[0]["actions"] if src.chance(70) else src.pick(steps)["actions"]
            where.insert(0 if src.chance(70) else src.integer(0, len(where)), {"by": active, "effect": [
                {"do": "signal", "name": chain}]})
        if gone:
            signal, aimed, killer, victim = gone
            steps[0]["actions"].insert(0, {"by": active, "effect": [{"do": "signal", "name": signal}]})
        if self.gone_player:
            steps[0]["actions"].insert(0, {"by": active, "effect": [{"do": "signal", "name": self.gone_player[0]}]})
        if mine:
            steps[0]["actions"].insert(0, {"by": active, "effect": [mine]})
        if handoff:
            where = src.pick(steps)["actions"]
            at = src.integer(0, len(where))
            where[at:at] = [{"by": active, "effect": [action]} for action in handoff]
        if shield:
            steps[0]["actions"].append({"by": active, "effect": [shield]})
        if departure:
            steps[0]["actions"].insert(0, {"by": active, "effect": [{"do": "signal", "name": departure}]})
        if once:
            signal, holder_id, owner = once
            field = [o["id"] for o in self.objects if o["zone"] == "field"]
            last.append({"by": active, "effect": [{"do": "signal", "name": signal}]})
            if src.chance(50) and "gain_control" not in self.no:  # its source changes hands first (603.7e)
                last.append({"by": active, "effect": [{"do": "gain_control", "object": holder_id,
                                                       "player": src.pick([p for p in players if p != owner])}]})
                self.graveyard_ability(next(o for o in self.objects if o["id"] == holder_id))
            dying = [o for o in field if src.chance(70)] or field
            last.append({"by": active, "effect": [{"do": "move_together", "objects": dying, "from": "field",
                                                   "to": "graveyard"}]})
        if graveyard and src.chance(80) and "move_together" not in self.no:
            # exile every graveyard: the cards in it leave together (603.10a)
            last.append({"by": active, "effect": [{"do": "move_together", "objects": [o["id"] for o in self.objects],
                                                   "from": "graveyard", "to": "exile"}]})
        if self.delayed_sites and src.chance(85) and "gain_control" not in self.no:
            # the source of a delayed ability changes control before it triggers: the ability stays its creator's
            # controller's (603.7e)
            holder, signal, trigger = src.pick(self.delayed_sites)
            owner = next(o["owner"] for o in self.objects if o["id"] == holder)
            last.append({"by": active, "effect": [{"do": "signal", "name": signal}]})
            last.append({"by": active, "effect": [
                {"do": "gain_control", "object": holder, "player": src.pick([p for p in players if p != owner])}]})
            self.graveyard_ability(next(o for o in self.objects if o["id"] == holder))
            if trigger["event"] == "signal":
                last.append({"by": active, "effect": [{"do": "signal", "name": trigger["name"]}]})
            elif trigger.get("subject", "any") == "any" and "move_together" not in self.no:
                # several leave at once: a once-only one picks one (603.7b)
                field = [o["id"] for o in self.objects if o["zone"] == "field"]
                last.append({"by": active, "effect": [{"do": "move_together", "objects": field, "from": "field",
                                                       "to": "graveyard"}]})
            elif trigger["subject"] != "any":
                victim = holder if trigger["subject"] == "self" else trigger["subject"]
                last.append({"by": active, "effect": [{"do": "move", "object": victim, "from": "field",
                                                       "to": "graveyard"}]})
        where = src.pick(steps)["actions"]
        where[0:0] = [{"by": active, "effect": [action]} for action in casting]
        for action in batching:  # cards entering together first, while their watcher is surely there
            if action["do"] == "move_together":
                steps[0]["actions"].insert(0, {"by": active, "effect": [action]})
            else:
                last.append({"by": active, "effect": [action]})
        if not {"turns", "delayed", "signals"} & self.no and steady and src.chance(70):
            # a delayed ability lasting "this turn" ("next turn", "until your next turn") created in turn 1, and its
            # event in that turn and again in a later one (603.7b): it must not outlive its duration
            holder = src.pick(steady)
            did = self.ability_id("D")
            self.delayed_ids.append(did)
            effect = [{"do": "signal", "name": TOP}] if src.chance(50) or "empty_effects" in self.no else []
            duration = src.pick(["turn", "turn", "turn", "next_turn", "until_your_next_turn"])
            create = {"do": "create_delayed", "duration": duration, "ability": {
                "id": did, "trigger": {"event": "signal", "name": "late"}, "effect": effect}}
            holder.setdefault("abilities", []).append({
                "id": self.ability_id(), "trigger": {"event": "signal", "name": "dawn"}, "effect": [create]})
            steps[0]["actions"][:0] = [{"by": active, "effect": [{"do": "signal", "name": "dawn"}]},
                                       {"by": active, "effect": [{"do": "signal", "name": "late"}]}]
            later = max(step.get("turn", 1) for step in steps) + src.pick([1, 1, 2])
            steps.append({"step": "main", "turn": later, "actions": [
                {"by": active, "effect": [{"do": "signal", "name": "late"}]}]})
        if self.no & {"signals", "empty_effects"}:
            self.keep_out(steps)
        if self.made_delayed and "scripted_delayed_triggers" in self.excluded:  # profiles only: the script exiles
            for step in steps:
                for action in step["actions"]:
                    for effect in action["effect"]:
                        if effect["do"] == "move" and effect["from"] == "field":
                            effect["to"] = "exile"
        if "stray_targets" in self.excluded:
            self.shelter_targets(steps, doomed)
        ability_ids = [a["id"] for o in self.objects for a in o.get("abilities", ())]
        given = [i for i in ability_ids if i in self.graveyard_ids]  # last, so that the draws stay as without them
        order = src.permutation([i for i in ability_ids if i not in self.graveyard_ids]) + given
        if gone:  # the destroying ability resolves first
            order.remove(gone[2])
            order.insert(order.index(gone[1]), gone[2])
        if self.gone_player:  # the ability making the player leave resolves first
            order.remove(self.gone_player[2])
            order.insert(order.index(self.gone_player[1]), self.gone_player[2])
        choices: dict[str, Any] = {"trigger_order": order}
        optional = {a: src.chance(55) for a in self.optional_ids}
        if optional:
            choices["optional"] = optional
        if self.targeted_ids:
            choices["targets"] = {a: src.permutation([o["id"] for o in self.objects] + players)[:2]
                                  for a in self.targeted_ids}
        scenario: dict[str, Any] = {
            "format": "trigger-conformance/scenario/1",
            "ruleset": "mtg",
            "edition": self.edition,
            "players": players,
            "active_player": active,
            "objects": self.objects,
            "script": steps,
            "choices": choices,
        }
        if life:
            scenario["life"] = life
        return scenario

    def batching(self, players: list[str], watched: set[str]) -> list[dict[str, Any]]:
        """Set pieces for how many times abilities trigger, each likely on its own; returns the scripted actions
        they need (cards entering together go first in the script, the rest last; objects only move forward and nothing here emits a signal that an
        ability of level below the top answers, so the scenario still terminates):

        * "whenever one or more creatures enter the battlefield" (603.2c), then two or three cards are put onto it
          from a hand at once: once for the event;
        * a permanent making abilities triggered by a kind of event trigger an additional time (603.2d), held by
          the controller of such an ability;
        * "whenever s4 happens, ... Do this only once each turn" (603.2h), then s4 twice (its effect changes no
          life total: an engine ignoring 603.2h could otherwise loop through an ability answering life changes);
        * "whenever an ability of X resolves, ..." on an object other than X whose abilities nothing watches (of
          those in ``watched``), so it cannot feed itself through an ability watching it trigger."""
        src = self.source
        script: list[dict[str, Any]] = []
        field = [o for o in self.objects if o["zone"] == "field"]
        if not field:
            return script
        batch_holder = None
        if src.chance(60) and "move_together" not in self.no:
            # "whenever one or more creatures enter the battlefield": two or three cards put onto it at once
            batch_holder = src.pick(field)
            batch_holder["abilities"].append({"id": self.ability_id(), "trigger": {
                "event": "enter", "batch": True}, "effect": [
                {"do": "life", "player": batch_holder["owner"], "amount": 1}]})
            owner = src.pick(players)
            cards = [f"C{len(self.objects) + 1 + k}" for k in range(src.integer(2, 3))]
            self.objects += [{"id": c, "owner": owner, "zone": "hand", "abilities": []} for c in cards]
            script.append({"do": "move_together", "objects": cards, "from": "hand", "to": "field"})
        if src.chance(50):
            owner = batch_holder["owner"] if batch_holder is not None and src.chance(70) else src.pick(players)
            mine = [o for o in field if o["owner"] == owner] or field
            extra: dict[str, Any] = {"times": 1}
            if src.chance(70):
                extra["event"] = "enter" if batch_holder is not None or src.chance(50) else "leave"
            src.pick(mine)["additional_triggers"] = extra
        if src.chance(55) and "signals" not in self.no:
            holder = src.pick(field)
            aid = self.ability_id()
            ability: dict[str, Any] = {"id": aid, "trigger": {"event": "signal", "name": TOP}, "once_each_turn": True,
                                       "effect": [self.destroy()] if src.chance(50) or "empty_effects" in self.no
                                       else []}
            if src.chance(30):
                ability["optional"] = True
                self.optional_ids.append(aid)
            holder["abilities"].append(ability)
            script += [{"do": "signal", "name": TOP}, {"do": "signal", "name": TOP}]
        if src.chance(55):
            sources = [o for o in self.objects if o["abilities"]]
            if sources:
                x = src.pick(sources)
                spots = [o for o in field if o is not x and o["id"] not in watched]
                if spots:
                    # never a life change or damage: an ability of X answering those would feed it for ever
                    effect = [self.destroy()] if src.chance(50) or "empty_effects" in self.no else []
                    src.pick(spots)["abilities"].append({"id": self.ability_id(), "trigger": {
                        "event": "resolved", "subject": x["id"]}, "effect": effect})
        return script

    def spells(self, caster: str) -> list[dict[str, Any]]:
        """Set pieces for spells on the stack (405, 608.2b); returns the scripted casts. One or two cards in the
        caster's hand are spells: one targeting a permanent (destroying it, or dealing it damage), one untargeted
        (a top-level signal or a life gain, sometimes a permanent spell entering the battlefield). An ability
        watching spells being cast answers by destroying the first spell's target (so that it is removed for an
        illegal target on resolution) or by countering a spell, and another may watch spells being countered.
        Only the script casts, and every answer moves an object forward, so the scenario still terminates."""
        src = self.source
        field = [o for o in self.objects if o["zone"] == "field"]
        if not field:
            return []
        cards: list[dict[str, Any]] = []
        aim = src.pick(field)["id"]
        if "targets" not in self.no:
            hit = src.pick([{"do": "move_target", "to": "graveyard"}, {"do": "damage", "amount": 3, "target": True}])
            cards.append({"effect": [hit], "target": {"candidates": [aim]}})
        if not cards or src.chance(60):
            plain: dict[str, Any] = {"effect": [{"do": "signal", "name": TOP} if "signals" not in self.no and
                                                src.chance(50) else {"do": "life", "player": caster, "amount": 2}]}
            if src.chance(35):
                plain["permanent"] = True
            cards.append(plain)
        ids = []
        for spell in cards:
            card = f"C{len(self.objects) + 1}"
            self.objects.append({"id": card, "owner": caster, "zone": "hand", "abilities": [], "spell": spell})
            ids.append(card)
        holders = [o for o in field]
        if src.chance(70):
            answer = src.pick(["destroy", "counter"]) if "target" in cards[0] else "counter"
            victim = ids[0] if src.chance(60) else src.pick(ids)
            effect = ([{"do": "move", "object": aim, "from": "field", "to": "graveyard"}] if answer == "destroy"
                      else [{"do": "counter", "object": victim}])
            trigger = {"event": "cast"} if answer == "destroy" or src.chance(50) else {"event": "cast", "subject": victim}
            src.pick(holders)["abilities"].append({"id": self.ability_id(), "trigger": trigger, "effect": effect})
        if src.chance(50):
            effect = [self.destroy()] if src.chance(50) or "empty_effects" in self.no else []
            src.pick(holders)["abilities"].append({"id": self.ability_id(), "trigger": {"event": "countered"},
                                                   "effect": effect})
        return [{"do": "cast", "object": card} for card in ids]

    def keep_out(self, steps: list[dict[str, Any]]) -> None:
        """Keep what the scenario leaves out out of its last corners: without ``signals``, a signal some effect
        would emit (an answer at the top level) becomes its source's destruction and a scripted one a destroy;
        without ``empty_effects``, an effect that would do nothing destroys its source. Zone changes only move
        forward, so the scenario still terminates."""

        def patch(effect: list[dict[str, Any]], source: str) -> list[dict[str, Any]]:
            kill = {"do": "move", "object": source, "from": "field", "to": "graveyard"}
            if "signals" in self.no:
                effect = [kill if a["do"] == "signal" else a for a in effect]
            for action in effect:
                if isinstance(action.get("ability"), dict):
                    action["ability"]["effect"] = patch(action["ability"]["effect"], source)
            return effect or ([kill] if "empty_effects" in self.no else [])

        for obj in self.objects:
            for ability in obj.get("abilities", ()):
                ability["effect"] = patch(ability["effect"], obj["id"])
        if "signals" in self.no:
            for step in steps:
                for action in step["actions"]:
                    action["effect"] = [self.destroy() if a["do"] == "signal" else a for a in action["effect"]]

    def script_action(self, players, active, doomed, conceded) -> dict[str, Any]:
        src = self.source
        kind = self.allowed(src.integer(0, 8), {
            0: "signals", 1: "signals", 2: "move_together", 3: "move_together", 4: None, 5: None,
            6: "script_damage", 7: "gain_control", 8: "players_leaving"})
        field = [o["id"] for o in self.objects if o["zone"] == "field"]
        if kind <= 1:
            return {"do": "signal", "name": f"s{src.integer(1, MAX_LEVEL)}"}
        if kind <= 3:  # destroy all: permanents leaving the battlefield together (603.10a)
            return {"do": "move_together", "objects": [o for o in field if src.chance(75)] or field, "from": "field",
                    "to": "graveyard"}
        if kind == 4:
            return self.destroy()
        if kind == 5:
            hand = [o["id"] for o in self.objects if o["zone"] == "hand"]
            if not hand:
                return self.destroy() if "script_damage" in self.no else self.damage()
            return {"do": "move", "object": src.pick(hand), "from": "hand", "to": "field"}
        if kind == 6:
            return self.damage()
        if kind == 7 and "hand_control_changes" in self.excluded:
            # profiles only: a permanent, to a player who stays, preferably one whose abilities name no player through
            # their controller
            takers = [p for p in players if p not in doomed]
            held = [o for o in self.objects if o["zone"] == "field" and any(p != o["owner"] for p in takers)]
            if not held:
                return self.destroy()
            quiet = [o for o in held if o.get("abilities") and not self.names_controller(o)]
            obj = src.pick(quiet or held)
            return {"do": "gain_control", "object": obj["id"], "player": src.pick([p for p in takers
                                                                                    if p != obj["owner"]])}
        if kind == 7:
            obj = src.pick(self.objects)
            return {"do": "gain_control", "object": obj["id"], "player": src.pick([p for p in players if p != obj["owner"]])}
        candidates = [p for p in doomed if p not in conceded]
        if candidates:
            conceded.append(candidates[0])
            return {"do": "concede", "player": candidates[0]}
        return {"do": "signal", "name": "s1"}


def build_scenario(source: ChoiceSource, edition: str, profile: dict[str, Any] | None = None) -> dict[str, Any]:
    """A random MTG scenario document (without ``options``), a deterministic function of ``source``'s answers.

    ``profile`` (declared by an engine's adapter, see ``Engine.generation_profile``) restricts the scenarios to what
    the engine can play: ``{"exclude": [feature, ...]}`` with features from :data:`PROFILE_FEATURES` (or the finer
    :data:`PROFILE_ONLY_FEATURES`, which the swarm never draws); the swarm
    draws every feature all the same (the stream's layout does not depend on the profile), and an excluded feature
    stays off. Raises ValueError for an unknown feature.
    """
    exclude = frozenset((profile or {}).get("exclude", ()))
    unknown = exclude - PROFILE_FEATURES - PROFILE_ONLY_FEATURES
    if unknown:
        raise ValueError(f"unknown MTG generation profile features: {sorted(unknown)}")
    return _Builder(source, edition, exclude).build()
