"""Random Momon Wonder scenarios: nested Effect-Based Summons, Summons of several monsters at once, failed Summons,
several players, several triggers on one event, triggers arising inside packages and during Snatch Checks,
State-Based Conditions that defeat objects, optional triggers, intervening conditions and the Missed Trigger Remedy
(from the script and from inside an ability's effect).

Swarm testing (Groce, Zhang, Eide, Chen and Regehr, "Swarm Testing", ISSTA 2012): each scenario first draws which
of the features of :data:`FEATURES` it may use, one answer per feature (0, the simplest answer, turns the feature
off), and builds only from those. In one fixed mix every feature is always present, so the features that get in
each other's way (a Summon whose On Summon triggers fill the queue before a signal's, a mark for defeat that
removes the object an intervening condition watches) always do; a random subset tries each feature alone and in
company. Because the feature draws come first, shrinking turns features off before it simplifies what remains. An
engine's generation profile (``{"exclude": [...]}``, same names) keeps excluded features off in every scenario;
without "failed_summon" no Summon fails (each monster is named by one Summon, performed once).

Shaped for size: signal-triggered abilities of objects in play are dealt out on a ladder (an ability that reacts
to ``sL`` signals ``s(L+1)``), so one scripted ``s0`` sets off a cascade several resolutions deep; On Summon
abilities summon in turn, nesting packages. The cascade grows as a product of the abilities on each rung, so it
is trimmed to :data:`CASCADE_BUDGET` signal events per signal.

Shaped for shrinking: every list is drawn as "another one?" followed by the whole element, so Hypothesis can delete
an object, an ability or an action by deleting one contiguous run of answers. References to objects are drawn as
indexes and resolved modulo the final object list, so deleting an object never leaves a dangling reference.

Every scenario terminates: an object is summoned at most once (nothing returns to hand or deck), leaves play at most
once (nothing but a Summon puts it back), a signal ``sK`` only triggers abilities that emit signals of a higher
level, a remedy inside an ability restores only signal abilities of a higher level than its own, and an ability
triggered by a failed Summon neither summons, signals nor restores.
"""

from __future__ import annotations

from typing import Any

from reference_engine.common.into_play import put_into_play
from reference_engine.common.zone_tour import fresh_id, taken_ids, zone_tour
from reference_engine.kernel.derived import tour_words
from reference_engine.kernel.source import ChoiceSource
from reference_engine.momon_wonder.judge.vocabulary import VOCABULARY

MAX_LEVEL = 3
MAX_OBJECTS = 10
MAX_ABILITIES = 2
MAX_ACTIONS = 3
LADDER_WIDTH = 2  # signal abilities dealt to each rung of the ladder, at most
TOUR_CHANCE = 40  # percent: a card's tour of the zones (reference_engine/common/zone_tour.py)
CASCADE_BUDGET = 30  # signal events one signal may set off at most, by the abilities' own count (see _Builder.trim)
REFERENCE_RANGE = 15  # object references are drawn in [0, REFERENCE_RANGE) and taken modulo the object count

# The swarm's features, in the order they are drawn, each with the percentage of scenarios that enable it (when the
# profile allows it). A profile excludes any of them: ``{"exclude": ["summon", "failed_summon", ...]}``.
FEATURES: dict[str, int] = {
    "signal": 90,
    "summon": 75,
    "several_monsters": 55,
    "failed_summon": 55,
    "snatch_check": 60,
    "mark_defeat": 60,
    "move": 45,
    "remedy": 50,
    "optional": 50,
    "intervening_if": 50,
    "several_players": 70,
}
# What a scenario has with each feature (docs/checking.md lists them, generated from here).
FEATURE_DOCS: dict[str, str] = {
    "zone_tour": "a card's tour of the zones, watched from each zone an ability works from (issue 30); a profile excluding this leaves it out (the editors' small scenarios do)",
    "signal": "signal actions (script and effects) and signal-triggered abilities",
    "summon": "successful Effect-Based Summons (packages), On Summon abilities",
    "several_monsters": 'one Summon of several monsters (``also``); needs "summon"',
    "failed_summon": "Summons that fail (``succeeds: false``) and abilities triggered by a failed Summon",
    "snatch_check": "a Summon's Snatch Check actions; needs \"summon\"",
    "mark_defeat": 'marking for defeat (State-Based Conditions) and "when defeated" abilities',
    "move": 'zone moves (to exile or graveyard) and "when it leaves play" abilities',
    "remedy": "the Missed Trigger Remedy, in the script and inside abilities' effects",
    "optional": "optional abilities (and declined ones)",
    "intervening_if": "intervening conditions",
    "several_players": "two to four players (else one)",
}
# zone_tour: a profile may leave the card's tour of the zones out (the editors' small scenarios do); not swarmed
PROFILE_FEATURES = frozenset(FEATURES) | {"zone_tour"}
# Features that cause events from the script; a scenario enables at least one (the first its profile allows).
_EVENT_FEATURES = ("signal", "summon", "failed_summon", "move", "mark_defeat")


class _Builder:
    def __init__(self, source: ChoiceSource, edition: str, exclude: frozenset[str] = frozenset()):
        self.source = source
        self.edition = edition
        self.next_ability = 0
        self.signal_abilities = 0  # signal-triggered abilities built so far: the ladder deals their levels out
        self.on = self.draw_features(exclude)
        self.exclude = exclude

    def draw_features(self, exclude: frozenset[str]) -> frozenset[str]:
        """The swarm draw: one answer per feature, always read (so the answers keep their places whatever the
        profile); a feature is on when drawn and allowed."""
        on = {name for name, percent in FEATURES.items() if self.source.chance(percent) and name not in exclude}
        if "summon" not in on:
            on -= {"several_monsters", "snatch_check"}
        if not on & set(_EVENT_FEATURES):
            on |= set([f for f in _EVENT_FEATURES if f not in exclude][:1])
        return frozenset(on)

    def ladder_short(self) -> bool:
        """Whether the signal ladder still lacks a rung (s0 -> s1 -> s2 -> s3 is three resolutions deep)."""
        return "signal" in self.on and self.signal_abilities < MAX_LEVEL

    def more(self, have: int, most: int, percent: int) -> bool:
        """Whether a list that has ``have`` elements gets another (never beyond ``most``)."""
        return have < most and self.source.chance(percent)

    # -- Actions (object references stay symbolic until the object list is final) -----------------------------------

    def signal(self, above: int) -> dict[str, Any]:
        """A signal of a level above ``above``: the next level up, mostly (the ladder)."""
        level = above + 1 if self.source.chance(85) or above + 1 >= MAX_LEVEL else self.source.integer(above + 1,
                                                                                                         MAX_LEVEL)
        return {"do": "signal", "name": f"s{min(level, MAX_LEVEL)}"}

    def reference(self) -> int:
        return self.source.integer(0, REFERENCE_RANGE - 1)

    def can_summon(self) -> bool:
        return bool(self.on & {"summon", "failed_summon"})

    def summon(self, with_snatch: bool = True) -> dict[str, Any]:
        """A Summon: it fails only when "failed_summon" is on (then in about a fifth of Summons, all of them without
        "summon")."""
        fails = "summon" not in self.on or ("failed_summon" in self.on and self.source.chance(20))
        action: dict[str, Any] = {"do": "summon", "object": ("hand", self.reference()), "succeeds": not fails}
        if "several_monsters" in self.on and self.source.chance(50):
            # One Summon of several monsters: one event with an occurrence per monster, and one package.
            action["also"] = [("hand", self.reference()) for _ in range(self.source.count(1, 2))]
        if with_snatch and "snatch_check" in self.on and self.source.chance(55):
            snatch: list[dict[str, Any]] = []
            kinds = [k for k, feature in (("signal", "signal"), ("mark", "mark_defeat"), ("summon", "summon"))
                     if feature in self.on]
            while kinds and (not snatch or self.more(len(snatch), 2, 35)):
                kind = self.source.pick(kinds)
                if kind == "signal":
                    snatch.append({"do": "signal", "name": f"s{self.source.integer(0, MAX_LEVEL)}"})
                elif kind == "mark":
                    snatch.append({"do": "mark_defeat", "object": ("any", self.reference())})
                else:
                    snatch.append(self.summon(with_snatch=False))
            if snatch:
                action["snatch_check"] = snatch
        return action

    def may_summon(self, once: bool) -> bool:
        """Whether an effect may summon: without "failed_summon", only effects performed once (the script's, an On
        Summon ability's), so that no Summon names a monster already summoned."""
        return self.can_summon() and (once or "failed_summon" in self.on)

    def side_action(self, level: int | None, quiet: bool, once: bool = False,
                    summons: bool = True) -> dict[str, Any] | None:
        """One more action of an effect: ``level`` is the signal level of a signal-triggered ability (None for
        others); ``quiet`` effects neither summon, signal nor restore; ``once``: the effect is performed at most
        once; ``summons``: it may summon. None when the features allow nothing."""
        kinds = []
        if self.may_summon(once) and summons and not quiet:
            kinds.append("summon")
        if "mark_defeat" in self.on:
            kinds.append("mark")
        if "move" in self.on:
            kinds.append("move")
        if "remedy" in self.on and level is not None and level < MAX_LEVEL:
            kinds.append("remedy")
        if "signal" in self.on and not quiet and (level or 0) < MAX_LEVEL:
            kinds.append("signal")
        if not kinds:
            return None
        kind = self.source.pick(kinds)
        if kind == "summon":
            return self.summon()
        if kind == "mark":
            return {"do": "mark_defeat", "object": ("any", self.reference())}
        if kind == "move":
            return {"do": "move", "object": ("any", self.reference()), "to": self.source.pick(["exile", "graveyard"])}
        if kind == "remedy":
            # Restores a signal ability of a higher level than this one's: a restored trigger never restores back.
            return {"do": "remedy_missed_trigger", "source": ("above", level, self.reference())}
        return self.signal(level or 0)

    # -- Abilities ------------------------------------------------------------------------------------------------

    def trigger_condition(self, in_hand: bool) -> tuple[dict[str, Any], int | None] | None:
        """A trigger condition the features allow, and its signal level (None for other events)."""
        kinds: list[str] = []
        if "signal" in self.on and not in_hand and self.source.chance(95 if self.ladder_short() else 65):
            # The ladder, dealt out over the objects in play: s0, s1, s2, s0, ... (at most LADDER_WIDTH rungs a
            # level, so that the cascade stays small enough to play fast; later ones react to the top level).
            dealt = self.signal_abilities
            level = dealt % MAX_LEVEL if dealt < LADDER_WIDTH * MAX_LEVEL else MAX_LEVEL
            self.signal_abilities += 1
            return {"event": "signal", "name": f"s{level}"}, level
        if "signal" in self.on:
            kinds += ["signal"] * (2 if in_hand else 4)
        if "summon" in self.on:
            kinds += ["on-summon"] * (3 if in_hand else 0) + ["summon"]
        if "mark_defeat" in self.on:
            kinds += ["defeated"] * 2
        if "move" in self.on:
            kinds.append("leave")
        if "failed_summon" in self.on:
            kinds.append("summon_failed")
        if not kinds:
            return None
        kind = self.source.pick(kinds)
        if kind == "signal":
            level = self.source.integer(0, MAX_LEVEL)
            return {"event": "signal", "name": f"s{level}"}, level
        if kind == "on-summon":
            return {"event": "summon", "subject": "self"}, None
        if kind == "summon":
            # A monster in hand may react to another monster summoned with it ("other").
            return {"event": "summon", "subject": self.source.pick(["any", "other"])}, None
        if kind == "defeated":
            # "when this is defeated" looks back
            return {"event": "defeated", "subject": self.source.pick(["self", "any"])}, None
        if kind == "leave":
            return {"event": "leave", "subject": self.source.pick(["any", "self"])}, None
        return {"event": "summon_failed"}, None

    def ability(self, in_hand: bool) -> dict[str, Any] | None:
        drawn = self.trigger_condition(in_hand)
        if drawn is None:
            return None
        trigger, level = drawn
        quiet = trigger["event"] == "summon_failed"
        once = trigger == {"event": "summon", "subject": "self"}
        effect: list[dict[str, Any]] = []
        if trigger == {"event": "summon", "subject": "self"}:
            # An On Summon ability that summons in turn: chains of these nest packages several levels deep.
            if self.source.chance(65):
                effect.append(self.summon())
        elif level is not None and level < MAX_LEVEL:
            if "signal" in self.on and self.source.chance(92):
                effect.append(self.signal(level))  # the next rung of the ladder
            if self.may_summon(False) and self.source.chance(30):
                # A package created while an ordinary ability resolves.
                effect.append(self.summon())
        elif level is None and not quiet and "signal" in self.on and self.source.chance(60):
            effect.append(self.signal(0))
        while self.more(len(effect), MAX_ACTIONS, 45):
            # One Summon an effect, at most: effects performed many times would mostly repeat a failed Summon.
            action = self.side_action(level, quiet, once, summons=not any(a["do"] == "summon" for a in effect))
            if action is None:
                break
            effect.append(action)
        self.next_ability += 1
        ability: dict[str, Any] = {"id": f"A{self.next_ability}", "trigger": trigger, "effect": effect}
        if level is not None:
            ability["_level"] = level
        if "optional" in self.on and self.source.chance(30):
            ability["optional"] = True
        if "intervening_if" in self.on and self.source.chance(40):
            # "if this is still in play", or "if that other object is still in play": effects that defeat or move
            # objects make either fail by the time the trigger would resolve.
            watched = "self" if self.source.chance(50) else ("field", self.reference())
            ability["intervening_if"] = {"test": "in_zone", "object": watched, "zone": "field"}
        return ability

    # -- The scenario ---------------------------------------------------------------------------------------------

    def script_effect(self, first: bool) -> list[dict[str, Any]]:
        """A scripted action's effect: the first one of the scenario starts the ladder with ``s0``."""
        source = self.source
        effect: list[dict[str, Any]] = []
        if "signal" in self.on and (first or source.chance(80)):
            effect.append({"do": "signal", "name": "s0" if source.chance(75) or first else
                           f"s{source.integer(0, MAX_LEVEL)}"})
        if self.can_summon() and (not effect or source.chance(60)):
            effect.append(self.summon())
        while not effect or self.more(len(effect), MAX_ACTIONS, 40):
            kinds = [k for k, feature in (("summon", "summon"), ("summon", "failed_summon"), ("signal", "signal"),
                                          ("mark", "mark_defeat"), ("move", "move"), ("remedy", "remedy"))
                     if feature in self.on]
            kind = source.pick(kinds)
            if kind == "summon":
                effect.append(self.summon())
            elif kind == "signal":
                effect.append({"do": "signal", "name": f"s{source.integer(0, MAX_LEVEL)}"})
            elif kind == "mark":
                effect.append({"do": "mark_defeat", "object": ("any", self.reference())})
            elif kind == "move":
                effect.append({"do": "move", "object": ("any", self.reference()),
                               "to": source.pick(["exile", "graveyard"])})
            else:
                effect.append({"do": "remedy_missed_trigger", "source": ("any", None, self.reference())})
        return effect

    def build(self) -> dict[str, Any]:
        source = self.source
        players = [f"P{n + 1}" for n in range(source.count(2, 4) if "several_players" in self.on else 1)]
        active = players[source.integer(0, len(players) - 1)]
        # Mostly in play: the ladder's rungs are dealt to objects in play.
        zones = (["field", "hand", "field", "deck", "field", "field"] if self.can_summon()
                 else ["field", "field", "hand"])
        objects: list[dict[str, Any]] = []
        # At least five objects, mostly, and more while the ladder lacks a rung.
        while not objects or self.more(len(objects), MAX_OBJECTS, 97 if len(objects) < 5 or self.ladder_short()
                                       else 70):
            zone = source.pick(zones if not self.ladder_short() or source.chance(30) else ["field"])
            obj: dict[str, Any] = {"owner": players[source.integer(0, len(players) - 1)], "zone": zone}
            abilities: list[dict[str, Any]] = []
            while self.more(len(abilities), MAX_ABILITIES, (70 if zone == "field" else 45) if abilities else 95):
                ability = self.ability(in_hand=zone != "field")
                if ability is None:
                    break
                abilities.append(ability)
            if abilities:
                obj["abilities"] = abilities
            objects.append(obj)
        self.trim(objects)
        script: list[dict[str, Any]] = []
        while not script or self.more(len(script), 3, 40):
            actions: list[dict[str, Any]] = []
            while not actions or self.more(len(actions), 3, 55):
                effect = self.script_effect(first=not script and not actions)
                actions.append({"by": players[source.integer(0, len(players) - 1)], "effect": effect})
            script.append({"step": f"step-{len(script) + 1}", "actions": actions})

        names = self.name_objects(objects)
        summonable = [n for n, obj in zip(names, objects) if obj["zone"] != "field"]
        for step in script:  # first, so that the script's Summons name monsters before abilities do
            for action in step["actions"]:
                action["effect"] = self.resolve(action["effect"], objects, names, summonable)
        for obj in objects:
            for ability in obj.get("abilities", ()):
                ability["effect"] = self.resolve(ability["effect"], objects, names, summonable)
                condition = ability.get("intervening_if")
                if condition and isinstance(condition["object"], tuple):
                    in_play = [n for n, o in zip(names, objects) if o["zone"] == "field"] or names
                    condition["object"] = in_play[condition["object"][1] % len(in_play)]
        for obj in objects:
            for ability in obj.get("abilities", ()):
                ability.pop("_level", None)

        abilities = [ab["id"] for obj in objects for ab in obj.get("abilities", ())]
        choices: dict[str, Any] = {"trigger_order": source.permutation(abilities)}
        declined = {ab["id"]: False for obj in objects for ab in obj.get("abilities", ())
                    if ab.get("optional") and source.chance(40)}
        if declined:
            choices["optional"] = declined
        scenario = {
            "format": "trigger-conformance/scenario/1",
            "ruleset": "momon-wonder",
            "edition": self.edition,
            "players": players,
            "active_player": active,
            "objects": objects,
            "script": script,
            "choices": choices,
        }
        # issue 30: a card put into play (an enter event), drawn last
        put_into_play(scenario, source, 12, ("hand", "graveyard"), enabled="move" in self.on)
        self.tour(scenario)
        return scenario

    def tour(self, scenario: dict[str, Any]) -> None:
        """Issue 30 item 2: a card's tour of the zones, watched from each zone an ability works from (drawn last; not
        under a profile excluding "move"); its last move marks cards in play for defeat now and then (the card
        itself if it ends in play), defeated in one check; its first remedies a missed trigger of the watcher's
        (before any of the watcher's abilities triggers); with it, a nested Summon."""
        words = tour_words(VOCABULARY)
        if "mark_defeat" in self.exclude:  # "when defeated" abilities are that feature's
            words["kinds"] = tuple(k for k in words["kinds"] if k != "defeated")
        tests = () if "intervening_if" in self.exclude else tuple(sorted(VOCABULARY.condition_tests))
        tour = zone_tour(scenario, self.source, TOUR_CHANCE, **words, tests=tests, enabled=not {"move", "zone_tour"} & self.exclude)
        if not tour:
            return
        if "mark_defeat" not in self.exclude and self.source.chance(85):
            marked = [tour["card"]["id"]] if tour["path"][-1] == "field" else []
            in_play = [obj["id"] for obj in scenario["objects"] if obj["zone"] == "field" and obj["id"] not in marked]
            while in_play and len(marked) < 3:  # several defeated in one check: their order
                marked.append(in_play.pop(self.source.integer(0, len(in_play) - 1)))
            tour["actions"][-1]["effect"] += [{"do": "mark_defeat", "object": obj} for obj in marked]
        if "remedy" not in self.exclude and self.source.chance(80):  # the Missed Trigger Remedy of a watcher's ability
            restored = self.source.pick(tour["watcher"]["abilities"])
            tour["actions"][0]["effect"].insert(0, {"do": "remedy_missed_trigger", "source": tour["watcher"]["id"],
                                                    "ability": restored["id"]})  # before it ever triggers: missed
        if "summon" not in self.exclude and self.source.chance(70):
            self.nested_summon(scenario)

    def nested_summon(self, scenario: dict[str, Any]) -> None:
        """With the tour: a card in hand whose On Summon ability summons a card from a deck (a package opened while
        its package is processed, deferred until it finishes) and, unless a profile excludes "failed_summon", a card
        in no hand or deck (a failed Summon, watched), the script summoning the first card first in its last step."""
        taken = taken_ids(scenario)
        owner = self.source.pick(scenario["players"])
        outer, inner, absent = (fresh_id(taken, "Y") for _ in range(3))
        effect: list[dict[str, Any]] = [{"do": "summon", "object": inner, "succeeds": True}]
        watcher: list[dict[str, Any]] = []
        if "failed_summon" not in self.exclude:
            effect.append({"do": "summon", "object": absent, "succeeds": False})
            watcher = [{"id": fresh_id(taken, "YA"), "trigger": {"event": "summon_failed"}, "effect": []}]
        scenario["objects"] += [
            {"id": outer, "owner": owner, "zone": "hand", "abilities": [
                {"id": fresh_id(taken, "YA"), "trigger": {"event": "summon", "subject": "self"}, "effect": effect}]
                + watcher},
            {"id": inner, "owner": owner, "zone": "deck", "abilities": [
                {"id": fresh_id(taken, "YA"), "trigger": {"event": "summon", "subject": "self"}, "effect": []}]},
            {"id": absent, "owner": owner, "zone": "graveyard"}]
        scenario["choices"]["trigger_order"] += [a["id"] for obj in scenario["objects"][-3:]
                                                 for a in obj.get("abilities", ())]
        scenario["script"][-1]["actions"].insert(0, {"by": owner, "effect": [
            {"do": "summon", "object": outer, "succeeds": True}]})

    @staticmethod
    def cascade(objects: list[dict[str, Any]]) -> dict[int, int]:
        """Signal level -> how many signal events one signal of that level sets off at most (itself included),
        counting every signal ability as if in play, and a remedy inside one as restoring the most prolific ability of
        a higher level."""
        by_level: dict[int, list[dict[str, Any]]] = {level: [] for level in range(MAX_LEVEL + 1)}
        for obj in objects:
            for ability in obj.get("abilities", ()):
                if ability.get("_level") is not None:
                    by_level[ability["_level"]].append(ability)
        events: dict[int, int] = {}
        best: dict[int, int] = {}  # level -> the most signal events one resolution of an ability of it sets off
        for level in range(MAX_LEVEL, -1, -1):
            above = max((best[m] for m in best if m > level), default=0)
            per_ability = [sum(events[int(a["name"][1:])] for a in ab["effect"] if a["do"] == "signal")
                           + above * sum(a["do"] == "remedy_missed_trigger" for a in ab["effect"])
                           for ab in by_level[level]]
            best[level] = max(per_ability, default=0)
            events[level] = 1 + sum(per_ability)
        return events

    def trim(self, objects: list[dict[str, Any]]) -> None:
        """Keep the signal cascade within :data:`CASCADE_BUDGET` (it grows as a product of the abilities on each
        rung): drop second signals and remedies first, then rungs, from the lowest level up. A function of the
        abilities alone, so the answers read stay the same."""
        while max(self.cascade(objects).values()) > CASCADE_BUDGET:
            signal_abilities = [ab for obj in objects for ab in obj.get("abilities", ())
                                if ab.get("_level") is not None]
            signal_abilities.sort(key=lambda ab: ab["_level"])
            extra = [ab for ab in signal_abilities if sum(a["do"] in ("signal", "remedy_missed_trigger")
                                                          for a in ab["effect"]) > 1]
            for ability in extra or signal_abilities:
                spread = [n for n, a in enumerate(ability["effect"]) if a["do"] in ("signal", "remedy_missed_trigger")]
                if spread:
                    del ability["effect"][spread[-1]]
                    break
            else:
                return

    @staticmethod
    def name_objects(objects: list[dict[str, Any]]) -> list[str]:
        counters = {"hand": 0, "deck": 0, "field": 0}
        names = []
        for obj in objects:
            counters[obj["zone"]] += 1
            prefix = {"hand": "H", "deck": "D", "field": "F"}[obj["zone"]]
            obj["id"] = f"{prefix}{counters[obj['zone']]}"
            names.append(obj["id"])
        for obj in objects:  # put id first, for readers
            obj_items = dict(obj)
            obj.clear()
            obj.update({"id": obj_items.pop("id"), **obj_items})
        return names

    def resolve(self, actions: list[dict[str, Any]], objects: list[dict[str, Any]], names: list[str],
                summonable: list[str]) -> list:
        """Turn symbolic references into object ids; drop a remedy when no ability may be restored.

        Without "failed_summon", a Summon never fails: each monster is named by one Summon at most (``summonable``:
        the monsters in hand or deck no Summon names yet), Summons are only performed once (see
        :meth:`may_summon`), and moves only take objects that start in play (a monster moved out of hand could not
        be summoned)."""
        movable = names if "failed_summon" in self.on else [n for n, o in zip(names, objects) if o["zone"] == "field"]
        out = []
        for action in actions:
            action = dict(action)
            if action["do"] == "remedy_missed_trigger":
                _, above, index = action["source"]
                pool = [(obj, ab) for obj in objects for ab in obj.get("abilities", ())
                        if (above is None or ab.get("_level", -1) > above)
                        and ("failed_summon" in self.on or not any(a["do"] == "summon" for a in ab["effect"]))]
                if not pool:
                    continue
                obj, ab = pool[index % len(pool)]
                action = {"do": "remedy_missed_trigger", "source": obj["id"], "ability": ab["id"]}
            elif action["do"] == "summon":
                if "failed_summon" in self.on:
                    pool = [n for n, obj in zip(names, objects) if obj["zone"] != "field"] or names
                    action["object"] = pool[action["object"][1] % len(pool)]
                    also = [pool[i % len(pool)] for _, i in action.get("also", ())]
                else:
                    if not summonable:
                        continue
                    action["object"] = summonable.pop(action["object"][1] % len(summonable))
                    also = [summonable.pop(i % len(summonable)) for _, i in action.get("also", ()) if summonable]
                also = [name for n, name in enumerate(also) if name != action["object"] and name not in also[:n]]
                if also:
                    action["also"] = also
                else:
                    action.pop("also", None)
            elif action["do"] == "move":
                if not movable:
                    continue
                action["object"] = movable[action["object"][1] % len(movable)]
            elif action["do"] == "mark_defeat":
                # Marks that can matter: on objects in play, or with an ability that looks back at leaving play.
                pool = [n for n, obj in zip(names, objects) if obj["zone"] == "field" or any(
                    ab["trigger"]["event"] in ("defeated", "leave") for ab in obj.get("abilities", ()))] or names
                action["object"] = pool[action["object"][1] % len(pool)]
            if "snatch_check" in action:
                action["snatch_check"] = self.resolve(action["snatch_check"], objects, names, summonable)
                if not action["snatch_check"]:
                    del action["snatch_check"]
            out.append(action)
        return out


def build_scenario(source: ChoiceSource, edition: str = "1.0.0",
                   profile: dict[str, Any] | None = None) -> dict[str, Any]:
    """Build one Momon Wonder scenario (without ``options``) from ``source``'s answers.

    ``profile`` (declared by an engine's adapter, see ``Engine.generation_profile``) restricts the scenarios to what
    the engine can play: ``{"exclude": [feature, ...]}`` with features from :data:`FEATURES` (excluding "summon"
    also excludes "several_monsters" and "snatch_check", which need it). Raises ValueError for an unknown feature.
    """
    exclude = frozenset((profile or {}).get("exclude", ()))
    unknown = exclude - PROFILE_FEATURES
    if unknown:
        raise ValueError(f"unknown Momon Wonder generation profile features: {sorted(unknown)}")
    return _Builder(source, edition, exclude).build()
