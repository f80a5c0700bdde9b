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
     ``MoveToZone`` with ``simulate: true``, so phase's own zone-change pipeline and triggers run).

   :data:`PROFILE` declares this subset to the MTG scenario builder (``Engine.generation_profile``).
2. **Play**: a free-for-all game with one seat per scenario player in turn order, the active player first; every
   hand kept; debug mode on; the battlefield placed without triggers (``simulate: false``); then each scripted
   action, every player passing priority until the stack is empty. ``OrderTriggers`` prompts are answered from the
   harness's chooser, ``OptionalEffectChoice`` prompts likewise.
3. **Trace**: phase's events (``ZoneChanged``, ``DamageDealt``, ``LifeChanged``, ``StackResolved``,
   ``CreatureDestroyed``...) and its stack (``game.stack()``, bottom to top, each entry naming its source,
   controller, ``printed_index`` and ``trigger_event``) become trace entries: events, trigger instances (placed right
   after the event phase says triggered them), stack pushes in the order they appear on phase's stack, resolutions,
   state-based actions (a creature destroyed with no source) and priority.

What the adapter cannot observe it does not invent; see docs/engines/phase.md for the limits and the triage.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.adapters.base import Chooser, Engine, EngineInfo, Skipped
from conformance.errors import EngineError

PHASE_VERSION = "0.103.0"
INSTALL_HINT = "install the extra: pip install 'trigger-conformance[phase]'"
RULESET = "mtg"
EDITIONS = ["2026-02-27", "2021-02-24"]

# Everything the MTG builder can leave out, phase's adapter leaves out: what remains is exactly the subset rendered.
PROFILE: dict[str, Any] = {"exclude": [
    "signals", "state_triggers", "watchers", "event_triggers", "targets", "delayed", "reflexive", "move_together",
    "prevented", "gain_control", "players_leaving", "dies_when", "script_damage", "empty_effects", "other_objects",
    "other_players", "exile", "zone_conditions",
    "batching", "spells",  # issue 12, items 1f and 1g: not rendered for phase
]}

ZONES = {"Battlefield": "field", "Graveyard": "graveyard", "Exile": "exile", "Hand": "hand", "Library": "deck"}
PHASE_ZONE = {v: k for k, v in ZONES.items()}
MAX_APPLIES = 2000
# Phase events that change nothing a trace records: the adapter reads them, or they only report bookkeeping.
BOOKKEEPING = frozenset({"PriorityPassed", "EffectResolved", "StackResolved", "CreatureDestroyed", "DebugActionUsed",
                         "PhaseChanged", "StackPushed", "TriggersOrdered", "OptionalEffectDecided"})


def _import_phase():
    try:
        import phase  # noqa: PLC0415
    except ImportError:
        raise EngineError("unavailable", f"phase-python is not installed; {INSTALL_HINT}") from None
    return phase


# -- Rendering -------------------------------------------------------------------------------------------------------


def card_name(obj_id: str) -> str:
    return f"Conformance {obj_id}"


def render_trigger(trigger: dict[str, Any]) -> str:
    event, subject = trigger.get("event"), trigger.get("subject", "any")
    extra = set(trigger) - {"event", "subject", "to"}
    if extra:
        raise Skipped(f"phase adapter: trigger fields {sorted(extra)} are not rendered")
    if subject not in ("self", "other", "any"):
        raise Skipped(f"phase adapter: a trigger watching one named object ({subject}) has no Oracle wording")
    who = {"self": "When this creature", "other": "Whenever another creature", "any": "Whenever a creature"}[subject]
    if event == "enter" and "to" not in trigger:
        return f"{who} enters"
    if event == "leave":
        to = trigger.get("to")
        if to == "graveyard":
            return f"{who} dies"
        if to is None:
            return f"{who} leaves the battlefield"
    raise Skipped(f"phase adapter: trigger {json.dumps(trigger, sort_keys=True)} is outside the rendered subset")


def render_action(action: dict[str, Any], obj: dict[str, Any]) -> str:
    do = action.get("do")
    me, owner = obj["id"], obj["owner"]
    if do == "move" and action.get("object") == me and action.get("from") == "field" \
            and action.get("to") == "graveyard":
        return "destroy this creature"
    if do == "damage" and not action.get("prevented") and "source" not in action:
        n = action["amount"]
        if action.get("object") == me:
            return f"this creature deals {n} damage to this creature"  # "to itself" parses as another target
        if action.get("player") == owner and "object" not in action:
            return f"this creature deals {n} damage to you"
    if do == "life" and action.get("player") == owner and action.get("amount"):
        n = action["amount"]
        return f"you gain {n} life" if n > 0 else f"you lose {-n} life"
    raise Skipped(f"phase adapter: effect {json.dumps(action, sort_keys=True)} is outside the rendered subset "
                  f"(only the source itself or its controller)")


def render_ability(ability: dict[str, Any], obj: dict[str, Any]) -> str:
    extra = set(ability) - {"id", "trigger", "effect", "optional", "intervening_if"}
    if extra:
        raise Skipped(f"phase adapter: ability fields {sorted(extra)} are not rendered")
    head = render_trigger(ability["trigger"])
    cond = ability.get("intervening_if")
    if cond is not None:
        if cond.get("test") != "life_at_least" or cond.get("player", "controller") != "controller":
            raise Skipped(f"phase adapter: intervening condition {json.dumps(cond, sort_keys=True)} is not rendered")
        head += f", if you have {cond['value']} or more life"
    effect = ability.get("effect", [])
    if not effect:
        raise Skipped("phase adapter: an ability with no effect has no Oracle wording")
    sentences = [render_action(a, obj) for a in effect]
    if ability.get("optional"):  # phase makes the whole ability optional (checked in tests/test_phase_adapter.py)
        first = sentences[0]
        if first.startswith("you "):
            sentences[0] = "you may " + first[len("you "):]
        elif first.startswith("this creature deals"):
            sentences[0] = "you may have " + first.replace(" deals ", " deal ", 1)
        else:
            sentences[0] = "you may " + first
    text = f"{head}, {sentences[0]}."
    for s in sentences[1:]:
        # An optional ability is optional as a whole (603.5): every later sentence depends on the first being used.
        text += f" If you do, {s}." if ability.get("optional") else f" {s[0].upper()}{s[1:]}."
    return text


def card_text(obj: dict[str, Any]) -> str:
    return "\n".join(render_ability(a, obj) for a in obj.get("abilities", ()))


def mtgjson_face(obj: dict[str, Any]) -> dict[str, Any]:
    toughness = obj.get("toughness", 1)
    return {"name": card_name(obj["id"]), "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
            "supertypes": [], "subtypes": [], "text": card_text(obj), "type": "Creature", "layout": "normal",
            "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
            "foreignData": [], "rulings": [], "power": "1", "toughness": str(toughness)}


def check_scenario(scenario: dict[str, Any]) -> None:
    """Raise Skipped unless the whole scenario is in the rendered subset (before anything is played)."""
    empty = [p for p in scenario["players"] if not any(o["owner"] == p for o in scenario["objects"])]
    if empty:
        raise Skipped(f"phase adapter: {empty} own no object; each seat's deck is its player's objects, and phase "
                      f"does not start a game with an empty library")
    if scenario.get("life"):
        raise Skipped("phase adapter: starting life totals other than 20 are not rendered")
    for obj in scenario["objects"]:
        if obj["zone"] not in ("field", "hand"):
            raise Skipped(f"phase adapter: {obj['id']} starts in {obj['zone']}; only battlefield and hand are placed")
        if obj.get("controller", obj["owner"]) != obj["owner"]:
            raise Skipped("phase adapter: objects controlled by a player other than their owner are not rendered")
        if "dies_when" in obj or set(obj) - {"id", "owner", "zone", "toughness", "abilities", "controller"}:
            raise Skipped(f"phase adapter: object fields of {obj['id']} are outside the rendered subset")
        for ability in obj.get("abilities", ()):
            render_ability(ability, obj)
    for step in scenario["script"]:
        for action in step["actions"]:
            if action["by"] != scenario["active_player"]:
                raise Skipped("phase adapter: scripted actions by a non-active player are not rendered")
            for effect in action["effect"]:
                ok = effect.get("do") == "move" and (
                    (effect.get("from") == "hand" and effect.get("to") == "field")
                    or (effect.get("from") == "field" and effect.get("to") in ("graveyard", "exile")))
                if not ok:
                    raise Skipped(f"phase adapter: scripted action {json.dumps(effect, sort_keys=True)} is outside "
                                  f"the rendered subset")


def _destroyed_by_rules(events: list[dict[str, Any]]) -> set[int]:
    return {e["data"]["object_id"] for e in events
            if e["type"] == "CreatureDestroyed" and (e.get("data") or {}).get("source_id") is None}


def _is_sba_move(event: dict[str, Any], events: list[dict[str, Any]]) -> bool:
    data = event.get("data") or {}
    return event["type"] == "ZoneChanged" and data.get("object_id") in _destroyed_by_rules(events) \
        and data.get("from") == "Battlefield" and data.get("to") == "Graveyard"


NEUTRAL = frozenset({"PriorityPassed", "DebugActionUsed", "PhaseChanged"})


def _sba_tail(events: list[dict[str, Any]]) -> int:
    """Where the final run of state-based-action events begins (``len(events)`` if the list does not end with one)."""
    destroyed = _destroyed_by_rules(events)
    cut = len(events)
    for k in range(len(events) - 1, -1, -1):
        e = events[k]
        data = e.get("data") or {}
        if e["type"] in NEUTRAL:
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


class PhaseEngine(Engine):
    """phase.rs behind the suite's adapter interface (MTG only; the subset of :data:`PROFILE`)."""

    def __init__(self) -> None:
        self._phase = _import_phase()
        self._faces: dict[str, Any] = {}

    @property
    def info(self) -> EngineInfo:
        return EngineInfo(name="phase.rs (phase-python)", version=PHASE_VERSION, rulesets={RULESET: list(EDITIONS)})

    def generation_profile(self, ruleset: str) -> dict[str, Any] | None:
        return PROFILE if ruleset == RULESET else None

    def face(self, obj: dict[str, Any]) -> Any:
        raw = mtgjson_face(obj)
        key = json.dumps(raw, sort_keys=True)
        if key not in self._faces:
            self._faces[key] = self._phase.build_oracle_face(raw, None)
        return self._faces[key]

    def run(self, scenario: dict[str, Any], chooser: Chooser) -> dict[str, Any]:
        if scenario.get("ruleset") != RULESET:
            raise Skipped(f"phase adapter: only the mtg ruleset (not {scenario.get('ruleset')!r})")
        check_scenario(scenario)
        faces = {}
        for obj in scenario["objects"]:
            face = self.face(obj)
            if len(face["triggers"]) != len(obj.get("abilities", ())) or face["abilities"] \
                    or face["static_abilities"] or face["replacements"]:
                raise Skipped(f"phase adapter: phase parsed {obj['id']}'s text into something else than its "
                              f"{len(obj.get('abilities', ()))} triggered abilities: {face['oracle_text']!r}")
            faces[card_name(obj["id"]).lower()] = face
        return _Play(self._phase, scenario, chooser, faces).play()


class _Play:
    """One scenario played on phase, and the trace written from what phase reports."""

    def __init__(self, phase, scenario: dict[str, Any], chooser: Chooser, faces: dict[str, Any]):
        self.scenario, self.chooser = scenario, chooser
        self.descriptions = {o["id"]: [t["description"] for t in faces[card_name(o["id"]).lower()]["triggers"]]
                             for o in scenario["objects"]}
        self.players: list[str] = scenario["players"]
        self.seat = {p: n for n, p in enumerate(self.players)}
        self.active = scenario["active_player"]
        self.objects = {o["id"]: o for o in scenario["objects"]}
        self.entries: list[dict[str, Any]] = []
        self.counters = {"E": 0, "T": 0, "S": 0}
        self.position = 0
        self.zones = {o["id"]: o["zone"] for o in scenario["objects"]}
        self.to_scenario: dict[int, str] = {}
        self.to_phase: dict[str, int] = {}
        self.known_stack: dict[int, str] = {}  # phase stack entry id -> trigger id
        self.pending: list[dict[str, Any]] = []  # trigger entries named in an OrderTriggers prompt, not yet pushed
        self.triggers: dict[str, dict[str, Any]] = {}
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
        if self.game.stack():
            raise EngineError("errored", "placing the battlefield without triggers put something on phase's stack")

    # -- phase calls ---------------------------------------------------------------------------------------------

    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        self.applies += 1
        if self.applies > MAX_APPLIES:
            raise EngineError("timed-out", f"phase did not finish the scenario within {MAX_APPLIES} actions")
        events = self.game.apply(seat, action).to_dict()["events"]
        low = [self.players[e["data"]["player_id"]] for e in events
               if e["type"] == "LifeChanged" and e["data"]["new_total"] <= 0]
        if low or self.game.waiting_for()["type"] == "GameOver":
            raise Skipped(f"phase adapter: {low or 'a player'} reached 0 life; players leaving the game (704.5a, "
                          f"800.4a) are not rendered")
        return events

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
        for k, e in enumerate(events):
            kind, data = e["type"], e.get("data") or {}
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
            elif kind not in BOOKKEEPING:
                raise EngineError("errored", f"phase reported a {kind} event the adapter cannot map into the trace "
                                             f"(it never drops one): {json.dumps(data)[:200]}")
        return out

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

    def match_ability(self, source: str, description: str, taken: set[tuple[str, int]]) -> str:
        """The ability of ``source`` with this text; identical lines are told apart by the order offered."""
        for n, text in enumerate(self.descriptions[source]):
            if text == description and (source, n) not in taken:
                taken.add((source, n))
                return self.objects[source]["abilities"][n]["id"]
        raise EngineError("errored", f"phase asked to order a trigger of {source} the adapter cannot name: "
                                     f"{description!r}")

    def find_event(self, trigger_event: dict[str, Any] | None) -> str | None:
        if not trigger_event or trigger_event.get("type") != "ZoneChanged":
            return None
        data = trigger_event["data"]
        subject, frm, to = self.to_scenario.get(data["object_id"]), ZONES.get(data["from"]), ZONES.get(data["to"])
        for entry in reversed(self.entries):
            if entry["kind"] == "event" and entry.get("subject") == subject and entry.get("from") == frm \
                    and entry.get("to") == to:
                return entry["id"]
        return None

    def insert_trigger(self, entry: dict[str, Any]) -> None:
        """Place a trigger entry right after the event that triggered it (after triggers already placed there)."""
        at = len(self.entries)
        for n, e in enumerate(self.entries):
            if e["kind"] == "event" and e["id"] == entry["event"]:
                at = n + 1
                while at < len(self.entries) and self.entries[at]["kind"] == "trigger":
                    at += 1
                break
        self.entries.insert(at, entry)

    def answer_order(self, prompt: dict[str, Any]) -> None:
        seat = prompt["player"]
        player = self.players[seat]
        offered = []
        taken: set[tuple[str, int]] = set()
        for t in prompt["triggers"]:
            source = self.to_scenario[t["source_id"]]
            entry = {"kind": "trigger", "id": self.new_id("T"), "ability": self.match_ability(source, t["description"], taken),
                     "source": source, "controller": player, "event": None}
            offered.append(entry)
        resolve = self.chooser.order(player, offered)
        push = list(reversed(resolve))
        self.pending.extend(offered)
        self.add("choice", player=player, decision="order", among=[e["id"] for e in offered],
                 chosen=[offered[k]["id"] for k in resolve])
        self.apply(seat, {"type": "OrderTriggers", "data": {"order": push}})

    def take_pushes(self) -> None:
        """New entries on phase's stack (bottom to top: the order they were put there) become trigger instances
        and stack pushes."""
        for item in self.game.stack():
            if item["id"] in self.known_stack:
                continue
            if item["kind"]["type"] != "TriggeredAbility":
                raise EngineError("errored", f"phase put a {item['kind']['type']} on the stack")
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
            entry["controller"] = self.players[item["controller"]]
            entry["event"] = self.find_event(data.get("trigger_event"))
            if entry["event"] is None:
                raise EngineError("errored", f"phase's trigger of {source} names an event the trace does not hold: "
                                             f"{json.dumps(data.get('trigger_event'))[:200]}")
            self.insert_trigger(entry)
            self.triggers[entry["id"]] = entry
            self.known_stack[item["id"]] = entry["id"]
            self.add("stack_push", trigger=entry["id"])

    # -- the game ------------------------------------------------------------------------------------------------

    def play(self) -> dict[str, Any]:
        for step_index, step in enumerate(self.scenario["script"]):
            self.add("step_begin", step=step_index)
            for action_index, action in enumerate(step["actions"]):
                ref = [step_index, action_index]
                self.add("action_begin", action=ref)
                later: list[dict[str, Any]] = []
                for effect in action["effect"]:
                    obj = effect["object"]
                    if self.zones.get(obj) == effect["from"] and effect["from"] != effect["to"]:
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        events = self.debug(self.seat[self.active], self.to_phase[obj], effect["to"], simulate=True)
                        cut = _first_sba(events)  # phase checks state-based actions once the action is done
                        self.record_events(events[:cut], {"action": ref})
                        later = events[cut:]
                self.add("action_end", action=ref)
                self.settle(later)
            self.add("step_advance", **{"from": step_index})
        return {"format": "trigger-conformance/trace/1", "entries": self.entries}

    def settle(self, sba_events: list[dict[str, Any]]) -> None:
        """Until the stack is empty: state-based actions, waiting triggers on the stack (answering phase's ordering
        prompts), priority, and the top of the stack resolving."""
        while True:
            check = self.sba_check()
            if sba_events:
                strays = [e["type"] for e in sba_events if e["type"] not in BOOKKEEPING and not _is_sba_move(e, sba_events)]
                if strays:
                    raise EngineError("errored", f"phase reported {strays} after a resolution, outside any state-based "
                                                 f"action; the adapter cannot place them")
                self.record_events(sba_events, {"sba": check}, sba_cause={"sba": check})
                self.sba_check()
                sba_events = []
            while True:
                wait = self.game.waiting_for()
                if wait["type"] == "OrderTriggers":
                    self.answer_order(wait["data"])
                    continue
                break
            if wait["type"] != "Priority":
                raise EngineError("errored", f"phase is waiting for {wait['type']}, which the adapter does not answer")
            before = len(self.entries)
            self.take_pushes()
            if len(self.entries) > before:
                self.sba_check()
            self.add("priority", player=self.players[wait["data"]["player"]])
            stack = self.game.stack()
            if not stack:
                return
            sba_events = self.resolve_top(stack[-1])

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
        spec = next(a for a in self.objects[self.triggers[trigger]["source"]]["abilities"]
                    if a["id"] == self.triggers[trigger]["ability"])
        events: list[dict[str, Any]] = []
        choices: list[tuple[int, dict[str, Any]]] = []  # (number of phase events before the choice, the choice)
        while True:
            wait = self.game.waiting_for()
            if wait["type"] == "Priority":
                if not any(s["id"] == top["id"] for s in self.game.stack()):
                    break
                events += self.apply(wait["data"]["player"], {"type": "PassPriority"})
            elif wait["type"] == "OptionalEffectChoice":
                player = self.players[wait["data"]["player"]]
                use = bool(self.chooser.optional(player, self.triggers[trigger]))
                choices.append((len(events), {"player": player, "decision": "optional", "among": [trigger],
                                              "chosen": use}))
                events += self.apply(wait["data"]["player"], {"type": "DecideOptionalEffect", "data": {"accept": use}})
            elif wait["type"] == "OrderTriggers":
                break  # the resolution is over; new triggers wait for settle()
            else:
                raise EngineError("errored", f"phase is waiting for {wait['type']} while {trigger} resolves")
        cut = _sba_tail(events)
        during, after = events[:cut], events[cut:]
        did_something = any(e["type"] == "EffectResolved" for e in during) or choices
        if "intervening_if" in spec and not did_something:
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
            self.add("resolve_end", trigger=trigger)
        return after
