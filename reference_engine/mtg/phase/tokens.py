"""Tokens (``create_token``, 603.6a; issue 32 item 3): phase creates them through its own token-creation effect, the
way a real card does, rather than through debug ``CreateToken`` (which puts an object onto the battlefield with no
zone-change event, so nothing would trigger: engine_debug.rs). The active player controls a helper artifact, the
*token maker* (not a scenario object), placed on the battlefield without triggers, with one activated ability per
set of tokens the script creates at once: ``{0}: Create a 1/1 colorless Merfolk creature token named Conformance
SOL and a ...``. A scripted ``create_token`` is that ability activated and resolved (every player passing): phase
reports each token's ``ZoneChanged`` from no zone (``from: null``) with a ``TokenCreated``; each is written an
``enter`` from ``uncreated``, the tokens of one action one event (a ``group``), and mapped by the name phase gives
it. The maker's stack entry and resolution are phase's means to the action, not written.

What is rendered: tokens owned by the active player, with no abilities of their own when created, no controller
field; creature tokens (types with ``creature``, or none: every scenario object is a creature unless its types say
otherwise) as "1/T colorless <creature type> [artifact ]creature token", others (artifact and/or enchantment) as
"colorless artifact token" with no creature type (so no text may name one). Created tokens are real tokens in phase:
filters read their true types (see render.subject_noun)."""

from __future__ import annotations

import json
from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.events import first_sba
from reference_engine.mtg.phase.signals import DRAW_LINES, draw_signals

MAKER = "Conformance token maker"
TOKEN_TYPES = frozenset({"creature", "artifact", "enchantment"})


def walk(node: Any):
    """Every dict inside ``node`` (lists and dicts, depth first)."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def token_sets(scenario: dict[str, Any]) -> list[tuple[str, ...]]:
    """The sets of tokens the script's ``create_token`` actions create, in the script's order, each once: a token
    created already is left out (it is not created again); an action that creates nothing has no set."""
    made: set[str] = set()
    sets: list[tuple[str, ...]] = []
    for step in scenario["script"]:
        for action in step["actions"]:
            for effect in action["effect"]:
                if effect.get("do") == "create_token":
                    fresh = tuple(o for o in effect["objects"] if o not in made)
                    made |= set(fresh)
                    if fresh and fresh not in sets:
                        sets.append(fresh)
    return sets


def created(scenario: dict[str, Any]) -> set[str]:
    return {o for s in token_sets(scenario) for o in s}


def entering(scenario: dict[str, Any]) -> set[str]:
    """The objects that may enter the battlefield: those starting elsewhere (but tokens never created), and those
    an action or effect moves onto it (conservatively: any dict naming an ``object`` with ``to: field``)."""
    made = created(scenario)
    ids = {o["id"] for o in scenario["objects"]
           if o["zone"] != "field" and (o["zone"] != "uncreated" or o["id"] in made)}
    return ids | {d["object"] for d in walk([scenario["objects"], scenario["script"]])
                  if d.get("to") == "field" and isinstance(d.get("object"), str)}


def is_creature_token(obj: dict[str, Any]) -> bool:
    return not obj.get("types") or "creature" in obj["types"]


def token_phrase(obj: dict[str, Any], kind: str) -> str:
    """The token as phase's "Create ..." words it: 'a 1/1 colorless Merfolk creature token named Conformance SOL'."""
    types = set(obj.get("types") or ())
    name = f"named Conformance {obj['id']}"
    if is_creature_token(obj):
        extra = "".join(f"{t} " for t in ("artifact", "enchantment") if t in types)
        return f"a 1/{obj.get('toughness', 1)} colorless {kind} {extra}creature token {name}"
    return f"a colorless {' '.join(t for t in ('artifact', 'enchantment') if t in types)} token {name}"


# issue 32 item 3: the script's simultaneous moves (move_together) of permanents, one event (603.2c, 603.10a), as
# phase's own "destroy all" / "exile all" of the objects' creature types (each object has one of its own), an
# activated ability of the token maker too: "{0}: Destroy all Goblins, Elves, and Zombies." (a DestroyAll over an Or
# of subtypes; no regeneration or indestructible in the subset, so a destroyed permanent is one put into a graveyard)
MOVE_VERBS = {("field", "graveyard"): "Destroy", ("field", "exile"): "Exile"}


def state_triggered(scenario: dict[str, Any]) -> bool:
    """Whether an ability of the scenario is a state trigger (603.8)."""
    return any(a["trigger"].get("event") == "state" for o in scenario["objects"] for a in o.get("abilities", ()))


def move_key(scenario: dict[str, Any], effect: dict[str, Any]) -> tuple[tuple[str, ...], str, str] | None:
    """The token maker's move for a scripted effect: every ``move_together``; a ``move`` of a permanent to a
    graveyard or exile too where the scenario has a state trigger (603.8: phase checks state triggers after its own
    game actions, but after a debug move only once a player has passed priority, which is the debug move's doing);
    None for any other effect (a debug move, or no move)."""
    if effect.get("do") == "move_together":
        return tuple(effect["objects"]), effect.get("from"), effect["to"]
    if effect.get("do") == "move" and (effect.get("from"), effect.get("to")) in MOVE_VERBS \
            and state_triggered(scenario):
        return (effect["object"],), effect["from"], effect["to"]
    return None


def move_sets(scenario: dict[str, Any]) -> list[tuple[tuple[str, ...], str, str]]:
    """The token maker's moves (:func:`move_key`) as (objects, from, to), in the script's order, each once."""
    sets: list[tuple[tuple[str, ...], str, str]] = []
    for step in scenario["script"]:
        for action in step["actions"]:
            for effect in action["effect"]:
                key = move_key(scenario, effect)
                if key is not None and key not in sets:
                    sets.append(key)
    return sets


def plural_list(words: list[str]) -> str:
    """"Goblins", "Goblins and Elves", "Goblins, Elves, and Zombies" (phase reads each as an Or of subtypes)."""
    return words[0] if len(words) == 1 else " and ".join(words) if len(words) == 2 \
        else ", ".join(words[:-1]) + ", and " + words[-1]


def move_phrase(move: tuple[tuple[str, ...], str, str], plurals: dict[str, str]) -> str:
    objects, frm, to = move
    if (frm, to) not in MOVE_VERBS or any(o not in plurals for o in objects):
        raise Skipped(f"phase adapter: scripted move_together of {list(objects)} from {frm} to {to} is not rendered "
                      f"(only permanents put into a graveyard or exiled together, each a creature naming it)")
    return f"{{0}}: {MOVE_VERBS[frm, to]} all {plural_list([plurals[o] for o in objects])}."


def maker_lines(scenario: dict[str, Any], kinds: dict[str, str], plurals: dict[str, str] | None = None) -> list[str]:
    """The token maker's rules text, a line per activated ability: one per set of :func:`token_sets`, then one per
    :func:`move_sets` (``plurals``: each object's creature type in the plural)."""
    objects = {o["id"]: o for o in scenario["objects"]}
    return ["{0}: Create " + " and ".join(token_phrase(objects[t], kinds.get(t, "")) for t in s) + "."
            for s in token_sets(scenario)] + [move_phrase(m, plurals or {}) for m in move_sets(scenario)] \
        + (list(DRAW_LINES) if draw_signals(scenario) else [])  # signals.py: the script's draws


def maker_text(scenario: dict[str, Any], kinds: dict[str, str], plurals: dict[str, str] | None = None) -> str:
    return "\n".join(maker_lines(scenario, kinds, plurals))


def maker_face(scenario: dict[str, Any], kinds: dict[str, str], plurals: dict[str, str] | None = None) \
        -> dict[str, Any]:
    return {"name": MAKER, "manaCost": "", "manaValue": 0.0, "types": ["Artifact"], "supertypes": [], "subtypes": [],
            "text": maker_text(scenario, kinds, plurals), "type": "Artifact", "layout": "normal", "colors": [],
            "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
            "foreignData": [], "rulings": []}


def check_tokens(scenario: dict[str, Any]) -> None:
    """Raise Skipped unless the scenario's tokens not created yet and its ``create_token`` actions are rendered."""
    made = created(scenario)
    for obj in scenario["objects"]:
        if obj["zone"] != "uncreated":
            continue
        if not obj.get("token") or "controller" in obj:
            raise Skipped(f"phase adapter: {obj['id']} starts uncreated but is no token of its owner's")
        if obj["id"] in made and obj.get("abilities"):
            raise Skipped(f"phase adapter: token {obj['id']} has abilities of its own (a token's abilities are not "
                          f"rendered in phase's token-creation effect)")
        if obj["id"] in made and obj["owner"] != scenario["active_player"]:
            raise Skipped(f"phase adapter: token {obj['id']} is created for {obj['owner']}, not the active player "
                          f"(the token maker creates its controller's tokens)")
        if set(obj.get("types") or ()) - TOKEN_TYPES or obj.get("types") == []:
            raise Skipped(f"phase adapter: token {obj['id']}'s types {obj.get('types')} are not rendered")
    uncreated = {o["id"] for o in scenario["objects"] if o["zone"] == "uncreated"}
    for d in walk(scenario["script"]):
        if d.get("do") == "create_token" and (not d.get("objects") or set(d["objects"]) - uncreated):
            raise Skipped(f"phase adapter: create_token {json.dumps(d, sort_keys=True)} names objects that do not "
                          f"start uncreated")


class TokenMaker:
    """Scripted ``create_token`` for a :class:`~reference_engine.mtg.phase.play.Play` (a mixin)."""

    def create_tokens(self, effect: dict[str, Any], ref: list[int]) -> list[dict[str, Any]]:
        """Activate the token maker's ability for the tokens not created yet and pass until it has resolved; the
        tokens' entering is written as one event of the action. Returns the state-based action events phase
        reported after the resolution (settle() records them)."""
        fresh = tuple(o for o in effect["objects"] if self.zones.get(o) == "uncreated")
        if not fresh:
            return []  # every token exists already: nothing is created
        sets = token_sets(self.scenario)
        if fresh not in sets:
            raise EngineError("errored", f"the token maker has no ability creating {fresh}")
        events = self.activate_maker(sets.index(fresh), "a token is created")
        for e in events:
            data = e.get("data") or {}
            if e["type"] == "ZoneChanged" and data.get("from") is None and data.get("to") == "Battlefield":
                name = (data.get("record") or {}).get("name", "")
                obj = name[len("Conformance "):]
                if obj not in fresh or obj in self.to_phase:
                    raise EngineError("errored", f"phase created a token the adapter cannot map: {name!r}")
                self.to_scenario[data["object_id"]], self.to_phase[obj] = obj, data["object_id"]
        cut = first_sba(events)
        recorded = self.record_events(events[:cut], {"action": ref})
        if sorted(e["subject"] for e in recorded) != sorted(fresh):
            raise EngineError("errored", f"phase created {[e['subject'] for e in recorded]}, not {list(fresh)}")
        if len(recorded) > 1:  # one event, an occurrence per token (603.6a, 603.2c)
            for e in recorded:
                e["group"] = recorded[0]["id"]
        return events[cut:]

    def activate_maker(self, index: int, what: str, source: int | None = None) -> list[dict[str, Any]]:
        """The active player activates the token maker's (or phase object ``source``'s) ``index``-th ability with the
        stack empty, and every player passes until it has resolved: phase's events (its stack entry and resolution
        are not written)."""
        source = self.maker if source is None else source
        seat = self.seat[self.active]
        if self.waiting != {"type": "Priority", "data": {"player": seat}} or self.game.stack():
            raise Skipped(f"phase adapter: {what} when the active player does not have priority with the stack empty "
                          f"(the token maker's ability is activated then)")
        self.apply(seat, {"type": "ActivateAbility", "data": {"source_id": source, "ability_index": index}})
        entry = next((s["id"] for s in self.game.stack() if s["source_id"] == source), None)
        events: list[dict[str, Any]] = []
        while entry is not None and any(s["id"] == entry for s in self.game.stack()):
            if self.waiting["type"] != "Priority":
                raise EngineError("errored", f"phase is waiting for {self.waiting['type']} while the token maker's "
                                             f"ability is on the stack")
            events += self.apply(self.waiting["data"]["player"], {"type": "PassPriority"})
        return events

    def move_together(self, effect: dict[str, Any], ref: list[int]) -> list[dict[str, Any]]:
        """A scripted simultaneous move of permanents (``move_together``, or a ``move`` where :func:`move_key` says):
        the token maker's "destroy all" / "exile all" ability of those objects' creature types, activated and
        resolved; the objects that were in the
        ``from`` zone leave as one event (a ``group``), in phase's order. Returns the state-based action events
        phase reported after the resolution (settle() records them)."""
        key = move_key(self.scenario, effect)
        moving = [o for o in key[0] if self.zones.get(o) == effect.get("from")]
        if not moving:
            return []
        events = self.activate_maker(len(token_sets(self.scenario)) + move_sets(self.scenario).index(key),
                                     "a simultaneous move is made")
        cut = first_sba(events)
        recorded = self.record_events(events[:cut], {"action": ref})
        if sorted(e["subject"] for e in recorded) != sorted(moving) \
                or any(e.get("to") != effect["to"] for e in recorded):
            raise EngineError("errored", f"phase moved {[(e.get('subject'), e.get('to')) for e in recorded]}, not "
                                         f"{moving} to {effect['to']}")
        if len(recorded) > 1:  # one event, an occurrence per object (603.2c)
            for e in recorded:
                e["group"] = recorded[0]["id"]
        return events[cut:]
