"""Scenarios, outcomes and judge messages in plain English, for rules editors (issue 21, item 4).

A :class:`Describer` reads one scenario document and names what it holds the way a player would: players by name
(Alice, Bob, ...: the scenario's ids in order), cards by a name (the object's ``name``, else a plain card name
given in order: Watcher, Herald, ...), abilities by their card ("Watcher's ability", "Watcher's 2nd ability"),
zones in the ruleset's words. It writes:

* :meth:`Describer.scenario_lines`: the scenario in sentences ("Alice's Watcher (on the field): whenever a card
  is defeated, Alice gains 1 life."), options by name and value, never a Python dictionary;
* :meth:`Describer.outcome_line`: one line of an outcome (:func:`conformance.editors.enumeration.signature`) in
  words ("Watcher's ability (set off by the signal “go”) resolves");
* :meth:`Describer.message`: a judge's message with the trace's ids (``T2``, ``E1``, ``P1c2``, ``A6``) replaced by
  those names.

Nothing here judges or plays anything: it only words what the scenario vocabulary says.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

PLAYER_NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")
CARD_NAMES = ("Watcher", "Herald", "Sentinel", "Scout", "Warden", "Oracle", "Keeper", "Ranger", "Mystic", "Squire",
              "Tinker", "Bard", "Archer", "Monk", "Pilgrim", "Sage")
ORDINALS = ("", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")

ZONES = {
    "momon-wonder": {"field": "the field", "deck": "the deck", "graveyard": "the graveyard"},
    "mtg": {"field": "the battlefield", "deck": "the library", "graveyard": "the graveyard", "stack": "the stack",
            "uncreated": "no zone yet"},
    "redemption": {"field": "play", "deck": "the deck", "graveyard": "the discard pile",
                   "set_aside": "the set-aside area"},
}
ZONE_DEFAULT = {"field": "the field", "hand": "the hand", "deck": "the deck", "graveyard": "the graveyard",
                "exile": "exile", "removed": "the removed-from-game area", "set_aside": "the set-aside area",
                "stack": "the stack"}
REMOVED = {"declined": "declined", "intervening_if": "its condition no longer holds", "negated": "negated",
           "source_gone": "its card is gone", "card_left": "its card left play", "expired": "it expired",
           "no_target": "no legal target", "illegal_target": "its target became illegal",
           "player_left": "its player left the game"}
SIMPLE = {"mark_defeat": "{object} is defeated", "play": "{actor} plays {object}", "end_phase": "{actor} ends the phase",
          "concede": "{player} concedes", "cast": "{actor} casts {object}"}
DURATIONS = {"step": "until the end of this step", "turn": "until the end of this turn",
             "next_turn": "during the next turn", "until_your_next_turn": "until its controller's next turn"}


def _join(items: list[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def quoted(text: str) -> str:
    return f"“{text}”"


class Describer:
    """Names for one scenario document (a prepared scenario too)."""

    def __init__(self, scenario: dict[str, Any]):
        self.scenario = scenario
        self.ruleset = scenario.get("ruleset", "")
        self.players = {p: (PLAYER_NAMES[n] if n < len(PLAYER_NAMES) else f"Player {n + 1}")
                        for n, p in enumerate(scenario.get("players", ()))}
        self.cards: dict[str, str] = {}
        self.objects: dict[str, dict[str, Any]] = {}
        used: set[str] = set()
        for n, obj in enumerate(scenario.get("objects", ())):
            name = obj.get("name") or CARD_NAMES[n % len(CARD_NAMES)] + (
                f" {n // len(CARD_NAMES) + 1}" if n >= len(CARD_NAMES) else "")
            while name in used:
                name += "′"
            used.add(name)
            self.cards[obj["id"]] = name
            self.objects[obj["id"]] = obj
        self.abilities: dict[str, str] = {}  # ability id -> "Watcher's ability"
        self.ability_source: dict[str, str] = {}
        for obj in scenario.get("objects", ()):
            printed = obj.get("abilities", ())
            for n, ability in enumerate(printed):
                ordinal = f" {ORDINALS[n]}" if len(printed) > 1 and 0 < n < len(ORDINALS) else (
                    " 1st" if len(printed) > 1 else "")
                self.abilities.setdefault(ability["id"], f"{self.cards[obj['id']]}'s{ordinal} ability")
                self.ability_source.setdefault(ability["id"], obj["id"])
                self._nested(ability.get("effect", ()), obj["id"])
            self._nested(obj.get("spell", {}).get("effect", ()), obj["id"])
        for step in scenario.get("script", ()):
            for action in step.get("actions", ()):
                self._nested(action.get("effect", ()), None)

    def _nested(self, effect: Iterable[dict[str, Any]], source: str | None) -> None:
        for action in effect or ():
            if action.get("do") in ("create_delayed", "reflexive") and isinstance(action.get("ability"), dict):
                kind = "delayed" if action["do"] == "create_delayed" else "reflexive"
                owner = f"{self.cards[source]}'s " if source in self.cards else ""
                self.abilities.setdefault(action["ability"]["id"], f"{owner}{kind} ability")
                if source:
                    self.ability_source.setdefault(action["ability"]["id"], source)
                self._nested(action["ability"].get("effect", ()), source)
            if action.get("snatch_check"):
                self._nested(action["snatch_check"], source)

    # -- names ------------------------------------------------------------------------------------------------------

    def player(self, pid: Any) -> str:
        return self.players.get(pid, str(pid)) if pid is not None else "someone"

    def card(self, oid: Any, source: str | None = None) -> str:
        if oid == "self":
            return self.cards.get(source, "this card") if source else "this card"
        return self.cards.get(oid, self.players.get(oid, str(oid)))

    def owned(self, oid: str) -> str:
        obj = self.objects[oid]
        controller = obj.get("controller", obj["owner"])
        owned = f"{self.player(controller)}'s {self.cards[oid]}"
        return owned if controller == obj["owner"] else f"{owned} (owned by {self.player(obj['owner'])})"

    def ability(self, aid: Any) -> str:
        return self.abilities.get(aid, f"ability {aid}")

    def zone(self, zone: Any) -> str:
        return ZONES.get(self.ruleset, {}).get(zone) or ZONE_DEFAULT.get(zone, str(zone))

    def at(self, zone: Any) -> str:
        """Where something is: "on the battlefield", "in play", "in the graveyard"."""
        words = self.zone(zone)
        if zone == "uncreated":  # MTG: a token not created yet
            return "not created yet"
        return f"on {words}" if words in ("the field", "the battlefield") else f"in {words}"

    def _controller(self, source: str | None) -> str | None:
        obj = self.objects.get(source or "")
        return obj.get("controller", obj["owner"]) if obj else None

    # -- triggers, effects, conditions -------------------------------------------------------------------------------

    def _subject(self, trigger: dict[str, Any], source: str | None) -> str:
        subject = trigger.get("subject", "any")
        noun = trigger.get("type") or "card"
        if trigger.get("nontoken"):
            noun = f"nontoken {noun}"
        if subject == "self":
            return self.card("self", source)
        if subject in ("any", None):
            words = f"{'one or more' if trigger.get('batch') else 'a'} {noun}{'s' if trigger.get('batch') else ''}"
        elif subject == "other":
            words = f"another {noun}"
        else:
            return self.card(subject)
        you = self.player(self._controller(source)) if source else "you"
        if trigger.get("controller") == "you":
            words += f" {you} controls"
        elif trigger.get("controller") == "opponent":
            words += f" an opponent of {you} controls"
        if trigger.get("owner") == "you":
            words += f" {you} owns"
        elif trigger.get("owner") == "opponent":
            words += f" an opponent of {you} owns"
        return words

    def _who(self, trigger: dict[str, Any], source: str | None) -> str:
        you = self.player(self._controller(source)) if source else "you"
        return {"you": you, "opponent": f"an opponent of {you}"}.get(trigger.get("player"), "a player")

    def event_clause(self, kind: str, subject: str, name: str = "", who: str = "a player",
                     from_: str | None = None, to: str | None = None, gain: bool = False) -> str:
        """What happens, as a clause: ``subject`` is already in words."""
        where = (f" from {self.zone(from_)}" if from_ else "") + (f" to {self.zone(to)}" if to else "")
        generic = not subject or subject.startswith(("a ", "an ", "one or more", "another "))
        table = {
            "signal": f"the signal {quoted(name)} is given" if generic else f"{subject} gives the signal {quoted(name)}",
            "end_phase": "the phase ends",
            "enter": f"{subject} enters {self.zone(to or 'field')}",
            "leave": (f"{subject} dies" if self.ruleset == "mtg" and to == "graveyard" and not from_
                      else f"{subject} leaves {self.zone(from_ or 'field')}" + (f" for {self.zone(to)}" if to else "")),
            "move": f"{subject} moves{where}",
            "zone_change": f"{subject} changes zone{where}",
            "control": f"{subject} changes control",
            "summon": f"{subject} is summoned",
            "summon_failed": f"a summon of {subject} fails",
            "defeated": f"{subject} is defeated",
            "play": f"{subject} is played",
            "damage": "damage is dealt" if generic else f"{subject} deals damage",
            "dealt_damage": "a permanent is dealt damage" if generic else f"{subject} is dealt damage",
            "life": f"{who} {'gains' if gain else 'gains or loses'} life",
            "player_leaves": f"{who} leaves the game",
            "ability_triggered": f"an ability of {subject} triggers",
            "ability_stacked": f"an ability of {subject} is put on the stack",
            "resolved": f"an ability of {subject} resolves",
            "cast": f"{subject} is cast",
            "countered": f"{subject} is countered",
            "state": "a state holds",
        }
        return table.get(kind, f"{kind.replace('_', ' ')}" + (f" of {subject}" if subject else ""))

    def trigger(self, trigger: dict[str, Any], source: str | None) -> str:
        kind = trigger.get("event", "?")
        if kind == "state" and trigger.get("state"):
            return f"when {self.condition(trigger['state'], source)}"
        clause = self.event_clause(kind, self._subject(trigger, source), trigger.get("name", ""),
                                   self._who(trigger, source), trigger.get("from"), trigger.get("to"),
                                   trigger.get("change") == "gain")
        if "combat" in trigger:  # MTG: "deals combat damage", "is dealt noncombat damage" (120.2)
            clause = clause.replace("damage", ("combat" if trigger["combat"] else "noncombat") + " damage", 1)
        return "whenever " + clause

    def condition(self, cond: dict[str, Any], source: str | None) -> str:
        test = cond.get("test")
        what = self.card(cond.get("object", "self"), source)
        player = self.player(self._controller(source)) if cond.get("player") == "controller" else \
            self.player(cond.get("player"))
        return {
            "in_zone": f"{what} is {self.at(cond.get('zone'))}",
            "not_in_zone": f"{what} is not {self.at(cond.get('zone'))}",
            "life_at_least": f"{player} has at least {cond.get('value')} life",
            "life_at_most": f"{player} has at most {cond.get('value')} life",
            "zone_empty": f"{player}'s {self.zone(cond.get('zone')).removeprefix('the ')} is empty",
        }.get(test, f"{test}")

    def effect(self, effect: Iterable[dict[str, Any]], actor: str, source: str | None = None) -> str:
        """The actions of an effect as clauses joined by "then": ``actor`` does them ("it", "Alice")."""
        parts = [self.action(a, actor, source) for a in effect or ()]
        return ", then ".join(parts) if parts else "nothing happens"

    def action(self, a: dict[str, Any], actor: str, source: str | None) -> str:
        do = a.get("do")
        card = lambda key: self.card(a.get(key), source)  # noqa: E731
        if do in SIMPLE:
            return SIMPLE[do].format(actor=actor, object=card("object"), player=self.player(a.get("player")))
        if do == "signal":
            about = f" about {card('subject')}" if a.get("subject") else ""
            return f"{actor} gives the signal {quoted(a.get('name', ''))}{about}"
        if do == "move":
            return f"{actor} moves {card('object')}" + (f" from {self.zone(a['from'])}" if a.get("from") else "") \
                + f" to {self.zone(a.get('to'))}"
        if do == "move_together":
            return f"{actor} moves {_join([self.card(o, source) for o in a.get('objects', ())])} together" + (
                f" from {self.zone(a['from'])}" if a.get("from") else "") + f" to {self.zone(a.get('to'))}"
        if do == "move_each":
            return f"{actor} moves at once " + _join([f"{self.card(m.get('object'), source)} to "
                                                      f"{self.zone(m.get('to'))}" for m in a.get("moves", ())])
        if do == "move_target":
            return f"{actor} moves its target to {self.zone(a.get('to'))}"
        if do == "gain_control":
            return f"{self.player(a.get('player'))} gains control of {card('object')}"
        if do == "summon":
            cards = _join([card("object")] + [self.card(o, source) for o in a.get("also", ())])
            words = f"{actor} summons {cards}" if a.get("succeeds", True) else \
                f"{actor} tries to summon {cards} (the summon fails)"
            if a.get("snatch_check"):
                words += f" (its Snatch Check: {self.effect(a['snatch_check'], 'it', source)})"
            return words
        if do == "remedy_missed_trigger":
            return f"{actor} restores the missed trigger of {self.ability(a.get('ability'))} (Missed Trigger Remedy)"
        if do == "negate":
            what = f"the pending {self.ability(a['ability'])}" if a.get("ability") else \
                f"{card('object')}'s pending abilities"
            return f"{actor} negates {what}"
        if do == "damage":
            amount = "that much" if a.get("that_many") else str(a.get("amount", 1))
            to = "its target" if a.get("target") else "that player" if a.get("that_player") else \
                self.card(a.get("object") or a.get("player"), source)
            by = f"{card('source')} deals" if a.get("source") else f"{actor} deals"
            return f"{by} {amount} {'combat ' if a.get('combat') else ''}damage to {to}"
        if do == "damage_together":  # MTG: one damage event with several occurrences
            kind = "combat damage" if a.get("combat") else "damage"
            hits = [f"{self.card(h['source'], source) if h.get('source') else actor} deals {h.get('amount', 1)} {kind} "
                    f"to {self.card(h.get('object') or h.get('player'), source)}" for h in a.get("hits", ())]
            return "at once, " + "; ".join(hits)
        if do == "create_token":  # MTG: tokens coming into existence on the battlefield, at once
            made = [self.card(t, source) for t in a.get("objects", ())]
            return f"{actor} creates {'the token' if len(made) == 1 else 'at once the tokens'} {_join(made)}"
        if do == "activate":  # MTG: a printed activated ability, put on the stack, then its cost paid (602.2)
            return f"{actor} activates {self.ability(a.get('ability'))} of {card('object')}"
        if do == "life":
            who = "its target player" if a.get("target") else "that player" if a.get("that_player") else \
                self.player(a.get("player"))
            amount = a.get("amount", 0)
            verb = "gains" if amount >= 0 else "loses"
            return f"{who} {verb} {'that much' if a.get('that_many') else abs(amount)} life"
        if do == "create_delayed":
            ability = a.get("ability", {})
            duration = DURATIONS.get(a.get("duration"), "")
            return (f"{actor} creates a delayed ability{' ' + duration if duration else ''}: "
                    f"{self.ability_text(ability, source)}")
        if do == "reflexive":
            return f"{actor} sets off a reflexive ability: {self.ability_text(a.get('ability', {}), source)}"
        if do == "counter":
            return f"{actor} counters {'its target' if a.get('target') else card('object')}"
        rest = ", ".join(f"{k} {self.card(v, source) if isinstance(v, str) else v}" for k, v in a.items() if k != "do")
        return f"{actor} does {str(do).replace('_', ' ')}" + (f" ({rest})" if rest else "")

    def ability_text(self, ability: dict[str, Any], source: str | None) -> str:
        controller = self.player(self._controller(source)) if source else "its controller"
        head = self.trigger(ability.get("trigger", {}), source)
        if ability.get("intervening_if"):
            head += f", if {self.condition(ability['intervening_if'], source)}"
        body = self.effect(ability.get("effect", ()), "it", source)
        notes = []
        if ability.get("optional"):
            notes.append(f"optional: {controller} may decline it")
        if ability.get("checks_on_play"):
            notes.append("checked as the card is played"
                         + (f", if {self.condition(ability['condition'], source)}" if ability.get("condition") else ""))
        if ability.get("target"):
            target = ability["target"]
            notes.append("targets " + _join([self.card(c, source) for c in target.get("candidates", ())]
                                            + [self.player(p) for p in target.get("players", ())]).replace(
                " and ", " or "))
        if ability.get("once_each_turn"):
            notes.append("only once each turn")
        if ability.get("ends_if_card_leaves"):
            notes.append("ends if its card leaves play")
        if ability.get("active_in") and ability["active_in"] != ["field"]:
            notes.append("works from " + _join([self.zone(z) for z in ability["active_in"]]).replace(" and ", " or "))
        return f"{head}, {body}" + (f" ({'; '.join(notes)})" if notes else "")

    # -- the scenario ---------------------------------------------------------------------------------------------

    def scenario_lines(self, ruleset=None) -> list[str]:
        """The scenario in sentences. ``ruleset`` (a Ruleset) names option values that differ from its defaults."""
        s = self.scenario
        names = [self.player(p) for p in s.get("players", ())]
        lines = [f"Players: {_join(names)}; {self.player(s.get('active_player'))} is the active player."]
        life = s.get("life") or {}
        if life:
            lines.append("Life: " + ", ".join(f"{self.player(p)} starts at {v}" for p, v in life.items()) + ".")
        options = self.options_words(s.get("options") or {}, ruleset)
        if options:
            lines.append(f"Options: {options}.")
        for oid, obj in self.objects.items():
            place = self.at(obj["zone"])
            extra = []
            if obj.get("types"):
                extra.append(_join(obj["types"]))
            if obj.get("token"):
                extra.append("a token")
            if obj.get("toughness", 1) != 1:
                extra.append(f"toughness {obj['toughness']}")
            if obj.get("dies_when"):
                extra.append(f"dies when {self.condition(obj['dies_when'], oid)}")
            if obj.get("additional_triggers"):
                more = obj["additional_triggers"]
                extra.append(f"abilities of its controller's permanents trigger {more['times']} more time(s)"
                             + (f" on {more['event'].replace('_', ' ')} events" if more.get("event") else ""))
            if obj.get("spell"):
                spell = obj["spell"]
                extra.append("a spell: " + self.effect(spell.get("effect", ()), "it", oid)
                             + (", then stays as a permanent" if spell.get("permanent") else ""))
            head = f"{self.owned(oid)} ({place}{'; ' + '; '.join(extra) if extra else ''})"
            abilities = obj.get("abilities", ())
            if not abilities:
                lines.append(f"{head}.")
            for ability in abilities:
                label = self.ability(ability["id"]).split("'s", 1)[1].strip()
                lines.append(f"{head}, {label}: {self.ability_text(ability, oid)}.")
        for n, step in enumerate(s.get("script", ()), 1):
            turn = f"turn {step['turn']}, " if step.get("turn") else ""
            for k, action in enumerate(step.get("actions", ())):
                who = self.player(action.get("by"))
                head = f"Step {n} ({turn}{step.get('step', '')})" if k == 0 else "Then"
                lines.append(f"{head}: {self.effect(action.get('effect', ()), who)}.")
        lines += self.choice_lines(s.get("choices") or {})
        return lines

    def options_words(self, options: dict[str, Any], ruleset=None) -> str:
        defaults = {o.name: o.default for o in getattr(ruleset, "options", ())}
        shown = {k: v for k, v in options.items() if k not in defaults or defaults[k] != v}
        words = "; ".join(f"{k.replace('_', ' ')}: {self.value(v)}" for k, v in shown.items())
        if ruleset is not None and shown != options:
            words += ("; " if words else "") + "every other option at its default"
        return words

    @staticmethod
    def value(v: Any) -> str:
        return {True: "yes", False: "no", None: "none"}.get(v, str(v)) if isinstance(v, (bool, type(None))) else str(v)

    def choice_lines(self, choices: dict[str, Any]) -> list[str]:
        lines = []
        if choices.get("trigger_order"):
            lines.append("Players order simultaneous triggers to resolve "
                         + ", then ".join(self.ability(a) for a in choices["trigger_order"]) + ", in that order.")
        for aid, yes in (choices.get("optional") or {}).items():
            lines.append(f"{self.ability(aid)} is {'used' if yes else 'declined'} when optional.")
        for aid, targets in (choices.get("targets") or {}).items():
            lines.append(f"{self.ability(aid)} targets " + " or else ".join(self.card(t) for t in targets) + ".")
        for aid, subjects in (choices.get("occurrence") or {}).items():
            lines.append(f"{self.ability(aid)} prefers the occurrence about "
                         + " or else ".join(self.card(t) for t in subjects) + ".")
        return lines

    # -- outcomes and messages ------------------------------------------------------------------------------------

    def _event_words(self, text: str) -> str:
        """An event as :func:`signature` writes it ("signal go of W", "leave of C1") in words."""
        kind, _, rest = text.partition(" ")
        name, subject = rest, ""
        if " of " in f" {rest}":
            name, _, subject = f" {rest}".rpartition(" of ")
            name = name.strip()
        who = self.player(subject) if subject in self.players else "a player"
        return self.event_clause(kind, self.card(subject) if subject else "", name, who)

    def _trigger_words(self, text: str) -> str:
        found = re.match(r"(\S+?)/(\S+) \[(.*)\]$", text)
        if not found:
            return self.ids(text)
        _, ability, origin = found.groups()
        why = "restored by the Missed Trigger Remedy" if origin == "remedy" else \
            f"set off when {self._event_words(origin)}"
        return f"{self.ability(ability)} ({why})"

    def outcome_line(self, line: str) -> str:
        """One line of :func:`conformance.editors.enumeration.signature` in words."""
        kind, _, rest = line.partition(" ")
        if kind == "event":
            event = self._event_words(rest)
            return event[0].upper() + event[1:]
        if kind in ("enqueue", "stack_push", "resolve_begin", "removed"):
            found = re.match(r"(.*?\])(?: -> (front of )?(.*?))?(?: \((\w+)\))?$", rest)
            if not found:
                return self.ids(line)
            trigger, front, queue, reason = found.groups()
            what = self._trigger_words(trigger)
            if kind == "enqueue":
                return f"{what} goes to the {'front' if front else 'back'} of {self.queue(queue)}"
            if kind == "stack_push":
                return f"{what} is put on the stack"
            if kind == "removed":
                return f"{what} is removed ({REMOVED.get(reason or '', reason or 'removed')})"
            return f"{what} resolves"
        if kind in ("package_open", "package_close", "snatch_check_begin", "create"):
            package = self.package(rest.removeprefix("package of "))
            verb = {"package_open": "opens", "package_close": "closes", "snatch_check_begin": "has its Snatch Check",
                    "create": "is made"}[kind]
            return f"The package of {package} {verb}"
        if kind in ("sbc_check", "sba_check"):
            return "State-based " + ("conditions" if kind == "sbc_check" else "actions") + " are checked"
        if kind == "delayed_end":
            found = re.match(r"(\S+?)/(\S*) \((\w*)\)$", rest)
            if found:
                return f"{self.ability(found.group(2))} ends ({found.group(3).replace('_', ' ')})"
        if kind == "activation_begin":
            return f"{self.ability(rest.partition('/')[2])} activates"
        return self.ids(line)

    def package(self, event: str) -> str:
        """What a package is of: "Watcher's summon" for a summon event (as :func:`signature` writes it)."""
        kind, _, rest = event.partition(" ")
        if kind == "summon" and rest.startswith("of "):
            return f"{self.card(rest[3:])}'s summon"
        return self._event_words(event)

    def queue(self, queue: str | None) -> str:
        if not queue:
            return "the queue"
        if queue.startswith("package of "):
            return f"the package of {self.package(queue.removeprefix('package of '))}"
        return "the Trigger Queue" if queue == "main" else f"queue {queue}"

    def trace_names(self, trace: dict[str, Any] | None) -> dict[str, str]:
        """The ids a trace gives (triggers, events, packages, delayed abilities) in words."""
        names: dict[str, str] = {}
        events: dict[str, str] = {}
        for entry in (trace or {}).get("entries", ()):
            kind = entry.get("kind")
            if kind == "event":
                subject = entry.get("subject")
                who = self.player(entry.get("player") or subject) if (entry.get("player") or subject) in self.players \
                    else "a player"
                words = self.event_clause(entry.get("type", ""), self.card(subject) if subject else "",
                                          entry.get("name", ""), who, entry.get("from"), entry.get("to"))
                events[entry["id"]] = words
                names[entry["id"]] = f"the event “{words}”"
            elif kind == "trigger":
                why = "restored by the remedy" if entry.get("remedy") or not entry.get("event") else \
                    f"set off when {events.get(entry['event'], 'an event happened')}"
                names[entry["id"]] = f"{self.ability(entry.get('ability'))} ({why})"
            elif kind == "enqueue" and entry.get("queue") == "main":
                names["main"] = "the Trigger Queue"
            elif kind == "package_create":
                names[entry["package"]] = f"the package of {events.get(entry.get('event'), 'a summon')}"
            elif kind == "activation_begin" and entry.get("id"):
                names[entry["id"]] = f"the activation of {self.ability(entry.get('ability'))}"
            elif kind == "delayed_create" and entry.get("id"):
                names[entry["id"]] = self.ability(entry.get("ability"))
        return names

    def ids(self, text: str, trace: dict[str, Any] | None = None) -> str:
        """``text`` with every id of the scenario and of ``trace`` replaced by its name."""
        names = self.trace_names(trace)
        text = re.sub(r"\b(\w+) \(ability (\w+) of ([\w-]+)(, |\))",
                      lambda m: (names.get(m.group(1), self.ability(m.group(2))).split(" (")[0]
                                 + (" (" if m.group(4) == ", " else "")), text)
        text = re.sub(r"\b(?:the )?event (\w+)", lambda m: names.get(m.group(1), m.group(0)), text)
        text = re.sub(r"\bability (\w+) of ([\w-]+)", lambda m: self.ability(m.group(1)), text)
        text = re.sub(r"\bability (\w+)\b", lambda m: self.ability(m.group(1)) if m.group(1) in self.abilities
                      else m.group(0), text)
        text = re.sub(r"\b([\w-]+)/(\w+)\b", lambda m: self.ability(m.group(2)) if m.group(2) in self.abilities
                      else m.group(0), text)
        table = {**{a: n for a, n in self.abilities.items()}, **self.cards, **self.players, **names}
        if not table:
            return text
        pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
                             + r")(?![\w-])")
        return pattern.sub(lambda m: table[m.group(1)], text)
