"""The situations the MTG vocabulary can express, read from a trace (see reference_engine/kernel/situations.py)."""

from __future__ import annotations

from typing import Any, Iterator

from reference_engine.kernel.situations import COMMON, Situation, event_of_type, unresolved_for
from reference_engine.kernel.traceview import TraceView


def _created(view: TraceView, reflexive: bool) -> list[dict[str, Any]]:
    return [view.entries[i] for i in view.by_kind["delayed_create"] if bool(view.entries[i].get("reflexive")) == reflexive]


def _fired(view: TraceView, reflexive: bool) -> bool:
    created = {d["id"] for d in _created(view, reflexive)}
    return any(t.get("delayed") in created for t in view.triggers.values())


def _controller(view: TraceView, obj: str) -> str | None:
    found = view.objects.get(obj)
    return found.get("controller", found["owner"]) if found else None


def _delayed_other_controller(view: TraceView) -> bool:
    """A delayed ability triggers while its source is controlled by someone other than the ability's controller
    (603.7e): control as the scenario gives it, then as each ``control`` event changes it."""
    created = {d["id"] for d in _created(view, False)}
    control: dict[str, str] = {}
    for entry in view.entries:
        if entry["kind"] == "event" and entry["type"] == "control":
            control[entry["subject"]] = entry["controller"]
        elif entry["kind"] == "trigger" and entry.get("delayed") in created:
            if entry["controller"] != control.get(entry["source"], _controller(view, entry["source"])):
                return True
    return False


def _steps_with_triggers(view: TraceView) -> int:
    """How many steps of the script saw some ability trigger."""
    steps, step = set(), None
    for entry in view.entries:
        if entry["kind"] == "step_begin":
            step = entry["step"]
        elif entry["kind"] == "trigger":
            steps.add(step)
    return len(steps)


def _decided(decision: str):
    return lambda v: any(v.entries[i].get("decision") == decision for i in v.by_kind["choice"])


def _delayed_duration_ends(view: TraceView) -> bool:
    return any(view.entries[i]["reason"] == "duration" for i in view.by_kind["delayed_end"])


def _prevented(view: TraceView) -> bool:
    return any(e.get("prevented") for e in view.events.values())


def _on_stacking(view: TraceView) -> bool:
    return any(t["event"] in view.events and view.events[t["event"]]["type"] == "ability_stacked"
               for t in view.triggers.values())


def _stacking_watched(view: TraceView) -> bool:
    """An ability triggering on another being put on the stack triggers, and an ability triggers on its triggering:
    the two wait in one batch, and which pass of 603.3b the first goes in (``pass_two_membership``) orders them."""
    stacked = {t for t, entry in view.triggers.items()
               if view.events.get(entry["event"], {}).get("type") == "ability_stacked"}
    return any(event.get("type") == "ability_triggered" and (event.get("cause") or {}).get("trigger") in stacked
               and view.triggers_by_event.get(event_id) for event_id, event in view.events.items())


def _inline_abilities(value: Any, kinds: tuple[str, ...] = ("create_delayed", "reflexive")) -> Iterator[dict[str, Any]]:
    """Abilities written inside effects (the delayed and reflexive abilities an effect creates; ``kinds``: the
    actions creating them that count)."""
    if isinstance(value, dict):
        if value.get("do") in kinds and isinstance(value.get("ability"), dict):
            yield value["ability"]
        for v in value.values():
            yield from _inline_abilities(v, kinds)
    elif isinstance(value, list):
        for v in value:
            yield from _inline_abilities(v, kinds)


def _intervening_on(kind: str):
    def occurs(view: TraceView) -> bool:
        if kind == "state":
            abilities = [a for a in view.abilities.values() if a["trigger"]["event"] == "state"]
        elif kind == "reflexive":
            abilities = list(_inline_abilities(view.scenario, ("reflexive",)))
        else:
            abilities = list(_inline_abilities(view.scenario))
        ids = {a["id"] for a in abilities if a.get("intervening_if")}
        return any(t["ability"] in ids for t in view.triggers.values())
    return occurs


def _state_trigger(view: TraceView) -> bool:
    states = {a["id"] for a in view.abilities.values() if a["trigger"]["event"] == "state"}
    return any(t["ability"] in states for t in view.triggers.values())


def _look_back(view: TraceView) -> bool:
    return any(t["event"] in view.events and view.events[t["event"]]["type"] == "leave"
               and view.events[t["event"]].get("subject") == t["source"] for t in view.triggers.values())


def _from_graveyard(view: TraceView) -> bool:
    return any("graveyard" in (view.ability_of(t) or {}).get("active_in", ()) for t in view.triggers)


def _enters_mid_resolution(view: TraceView) -> bool:
    return any(e["type"] == "enter" and "resolution" in e["cause"] for e in view.events.values())


def _on_triggering(view: TraceView) -> bool:
    return any(t["event"] in view.events and view.events[t["event"]]["type"] == "ability_triggered"
               for t in view.triggers.values())


def _sba_triggers(view: TraceView) -> bool:
    return any(t["event"] in view.events and "sba" in view.events[t["event"]]["cause"] for t in view.triggers.values())


def _player_targeted(view: TraceView) -> set[str]:
    """The trigger instances put on the stack targeting a player (115.1)."""
    players = set(view.scenario["players"])
    return {view.entries[i]["trigger"] for i in view.by_kind["stack_push"] if view.entries[i].get("target") in players}


def _player_target_gone(view: TraceView) -> bool:
    return any(view.entries[view.unresolved[t]]["reason"] == "illegal_target"
               for t in _player_targeted(view) if view.unresolved.get(t) is not None)


def _filtered(view: TraceView, fields: tuple[str, ...], inactive: bool) -> bool:
    """A printed ability whose trigger condition has one of ``fields`` (trigger filters) triggers; with ``inactive``,
    for a controller who is not the active player (where "you" is not the active player, 603.3a)."""
    for t in view.triggers.values():
        if t.get("delayed"):
            continue
        holder = view.objects.get(t["source"]) or {}
        spec = next((a for a in holder.get("abilities", ()) if a["id"] == t["ability"]), None)
        if spec and any(f in spec["trigger"] for f in fields) and \
                (not inactive or t["controller"] != view.scenario["active_player"]):
            return True
    return False


def _zone_change_heard(view: TraceView) -> bool:
    """A printed ability triggering on any zone change (``zone_change``) triggers on a permanent leaving or entering the
    battlefield (not only on a move between other zones)."""
    for t in view.triggers.values():
        holder = view.objects.get(t["source"]) or {}
        spec = next((a for a in holder.get("abilities", ()) if a["id"] == t["ability"]), None)
        if spec and not t.get("delayed") and spec["trigger"]["event"] == "zone_change" and \
                view.events.get(t["event"], {}).get("type") in ("enter", "leave"):
            return True
    return False


def _several_destinations(view: TraceView) -> bool:
    """One event moves several objects to different zones."""
    destinations: dict[str, set[str]] = {}
    for event in view.events.values():
        if event.get("group") and event.get("to"):
            destinations.setdefault(event["group"], set()).add(event["to"])
    return any(len(found) >= 2 for found in destinations.values())


def _spec(view: TraceView, trigger: dict[str, Any]) -> dict[str, Any]:
    """The printed ability a (non-delayed) trigger instance stands for, or an empty dict."""
    if "delayed" in trigger:
        return {}
    return next((a for a in view.objects.get(trigger["source"], {}).get("abilities") or ()
                 if a["id"] == trigger["ability"]), {})


def _one_or_more(view: TraceView) -> bool:
    """A "one or more" ability (603.2c) triggers on an event with several simultaneous occurrences."""
    return any(_spec(view, t).get("trigger", {}).get("batch") and view.events.get(t["event"], {}).get("group")
               for t in view.triggers.values())


def _additional(view: TraceView) -> bool:
    """An ability triggers twice or more on one occurrence (603.2d)."""
    seen: set[tuple] = set()
    for t in view.triggers.values():
        key = (t["source"], t["ability"], t.get("delayed"), t["event"])
        if t["event"] is not None and key in seen and not _spec(view, t).get("trigger", {}).get("batch"):
            return True
        seen.add(key)
    return False


def _once_each_turn_held(view: TraceView) -> bool:
    """A "do this only once each turn" ability resolved (603.2h), and a later event matched its trigger condition
    (a signal of its name, as the generator writes them): it was held back."""
    for i in view.by_kind["resolve_begin"]:
        t = view.triggers.get(view.entries[i]["trigger"])
        spec = _spec(view, t) if t else {}
        if spec.get("once_each_turn") and spec["trigger"]["event"] == "signal":
            if any(view.entries[j]["type"] == "signal" and view.entries[j].get("name") == spec["trigger"]["name"]
                   for j in view.by_kind["event"] if j > i):
                return True
    return False


def _on_event_type(kind: str):
    def occurs(view: TraceView) -> bool:
        return any(t["event"] in view.events and view.events[t["event"]]["type"] == kind
                   for t in view.triggers.values())
    return occurs


def _on_resolving(view: TraceView) -> bool:
    return any(t["event"] in view.events and view.events[t["event"]]["type"] == "resolved"
               for t in view.triggers.values())


def _turns(view: TraceView) -> int:
    """How many turns the script's steps span (500.1)."""
    found = {1}
    turn = 1
    for step in view.scenario["script"]:
        turn = step.get("turn", turn)
        found.add(turn)
    return len(found)


def _turn_bound_expires(view: TraceView) -> bool:
    """A delayed ability with a duration of a turn or longer ends for its duration before the script's last step."""
    bound = {view.entries[i]["id"] for i in view.by_kind["delayed_create"]
             if view.entries[i].get("duration") in ("turn", "next_turn", "until_your_next_turn")}
    last_step = max(view.by_kind["step_begin"], default=len(view.entries))
    return any(view.entries[i]["delayed"] in bound and view.entries[i]["reason"] == "duration" and i < last_step
               for i in view.by_kind["delayed_end"])


def _owned_elsewhere(view: TraceView) -> bool:
    """A printed ability filtered on who owns the event's object (``owner``) triggers on an object that a ``control``
    event had given to another player earlier in the trace (its owner and its controller may differ)."""
    given = set()
    for entry in view.entries:
        if entry["kind"] == "event" and entry["type"] == "control":
            given.add(entry.get("subject"))
        elif entry["kind"] == "trigger" and "owner" in _spec(view, entry).get("trigger", {}) and \
                view.events.get(entry["event"], {}).get("subject") in given:
            return True
    return False


def _that_many(view: TraceView) -> bool:
    """An ability with an instruction taking its amount from its trigger event ("that much", ``that_many``) resolves
    and that instruction does something: an event in its name with that amount."""
    for t, _, _ in view.resolution_spans:
        taken = abs(view.events.get((view.triggers.get(t) or {}).get("event"), {}).get("amount") or 0)
        if taken and any(a.get("that_many") for a in (view.ability_of(t) or {}).get("effect") or ()) and any(
                abs(e.get("amount") or 0) == taken for e in view.events_by_cause.get(("resolution", t), ())):
            return True
    return False


def _triggers_once_again(view: TraceView) -> bool:
    """An ability that "triggers only once each turn" triggers a second time in one turn, its source having changed
    zones in between (a new object, 400.7)."""
    script, turn = view.scenario["script"], 1
    last: dict[tuple[str, str], int] = {}  # (source, ability) -> the turn it last triggered in
    moved: set[str] = set()  # sources that changed zones since their ability last triggered
    for entry in view.entries:
        if entry["kind"] == "step_begin":
            turn = script[entry["step"]].get("turn", turn)
        elif entry["kind"] == "event" and entry.get("to") and entry.get("from") != entry["to"]:
            moved.add(entry.get("subject"))
        elif entry["kind"] == "trigger" and "delayed" not in entry and \
                _spec(view, entry).get("triggers_once_each_turn"):
            key = (entry["source"], entry["ability"])
            if last.get(key) == turn and entry["source"] in moved:
                return True
            last[key] = turn
            moved.discard(entry["source"])
    return False


def _spell_delayed_fired(view: TraceView) -> bool:
    """A delayed triggered ability that a spell created (603.7d) triggers."""
    made = {d["id"] for d in _created(view, False) if "spell" in d}
    return any(t.get("delayed") in made for t in view.triggers.values())


def _dealt_damage_fired(view: TraceView) -> bool:
    """An ability triggers on a permanent being dealt damage by another source (120.3)."""
    for t in view.triggers.values():
        event = view.events.get(t.get("event"))
        if event and event.get("type") == "damage" and event.get("target") not in (None, event.get("subject")) and \
                (_spec(view, t).get("trigger") or {}).get("event") == "dealt_damage":
            return True
    return False


def _token_enters_fired(view: TraceView) -> bool:
    """An ability triggers on a token being created, the token entering the battlefield from nowhere (603.6a)."""
    return any((view.events.get(t.get("event")) or {}).get("from") == "uncreated" for t in view.triggers.values())


def _cost_triggered(view: TraceView) -> bool:
    """An ability triggers on paying an activated ability's cost (601.2h): on an event between an ``activate`` entry
    and the end of its scripted action, and so goes on the stack above that ability (603.3)."""
    ends = view.by_kind["action_end"]
    for a in view.by_kind.get("activate", ()):
        end = next((k for k in ends if k > a), len(view.entries))
        if any(a < view.trigger_index[t] < end for t in view.trigger_index):
            return True
    return False


def _combat_kind_told_apart(view: TraceView) -> bool:
    """An ability reading combat (or noncombat) damage triggers on its kind of damage from a source that deals damage
    of the other kind too in the game (120.2a-b, 510.2)."""
    kinds: dict[str, set[bool]] = {}
    for i in view.by_kind["event"]:
        event = view.entries[i]
        if event.get("type") == "damage" and not event.get("prevented"):
            kinds.setdefault(event.get("subject"), set()).add(bool(event.get("combat")))
    for t in view.triggers.values():
        event = view.events.get(t.get("event")) or {}
        if "combat" in (_spec(view, t).get("trigger") or {}) and len(kinds.get(event.get("subject"), ())) == 2:
            return True
    return False


def _that_player_other(view: TraceView) -> bool:
    """An ability's "that player" instruction acts on a player other than the ability's controller (603.2, 608.2)."""
    for i in view.by_kind["event"]:
        event = view.entries[i]
        t = (event.get("cause") or {}).get("resolution")
        trig = view.triggers.get(t) if t is not None else None
        if trig is None or event.get("type") not in ("damage", "life") or event.get("player") in (None, trig["controller"]):
            continue
        if any(a.get("that_player") for a in _spec(view, trig).get("effect") or ()):
            return True
    return False


def _damage_occurrences(view: TraceView) -> bool:
    """One ability triggers twice on one damage event with several occurrences (603.2c)."""
    seen: set[tuple[str, str, str]] = set()
    for t in view.triggers.values():
        event = view.events.get(t.get("event")) or {}
        if event.get("type") == "damage" and "group" in event:
            key = (t["source"], t["ability"], event["group"])
            if key in seen:
                return True
            seen.add(key)
    return False


SITUATIONS: tuple[Situation, ...] = COMMON + (
    Situation("no-legal-target", "a trigger with no legal target as it would go on the stack", unresolved_for("no_target")),
    Situation("target-gone", "a trigger's target is illegal when it resolves", unresolved_for("illegal_target")),
    Situation("player-target", "a trigger goes on the stack targeting a player", lambda v: bool(_player_targeted(v))),
    Situation("player-target-gone", "a trigger targeting a player is removed on resolution, the player having left "
              "the game (800.4a, 608.2b)", _player_target_gone),
    Situation("relative-filter", "an ability filtered on 'you' or 'an opponent' (the object's controller, the "
              "event's player) triggers for a player who is not the active player (603.3a)",
              lambda v: _filtered(v, ("controller", "player"), True)),
    Situation("characteristic-filter", "an ability filtered on a card type or on nontoken triggers",
              lambda v: _filtered(v, ("type", "nontoken"), False)),
    Situation("zone-change-anywhere", "an ability watching zone changes 'from anywhere' triggers on a permanent "
              "leaving or entering the battlefield (603.6, 603.10a)", _zone_change_heard),
    Situation("several-destinations", "one event moves several objects to different zones", _several_destinations),
    Situation("several-turns", "the script spans two turns or more (500.1)", lambda v: _turns(v) >= 2),
    Situation("turn-duration-ends", "a delayed ability lasting this turn, the next turn or until its controller's next "
              "turn ends before the script's last step, so later occurrences must not trigger it (603.7b)",
              _turn_bound_expires),
    Situation("delayed-created", "a delayed triggered ability is created", lambda v: bool(_created(v, False))),
    Situation("delayed-fires", "a delayed triggered ability triggers", lambda v: _fired(v, False)),
    Situation("delayed-other-controller", "a delayed triggered ability triggers while its source's controller is not "
              "the ability's (603.7e)",
              _delayed_other_controller),
    Situation("reflexive", "a reflexive triggered ability triggers", lambda v: _fired(v, True)),
    Situation("state-trigger", "a state trigger triggers", _state_trigger),
    Situation("intervening-on-delayed", "a delayed or reflexive ability with an intervening 'if' triggers",
              _intervening_on("delayed")),
    Situation("intervening-on-reflexive", "a reflexive ability with an intervening 'if' triggers",
              _intervening_on("reflexive")),
    Situation("intervening-on-state", "a state trigger with an intervening 'if' triggers", _intervening_on("state")),
    Situation("intervening-false", "an intervening 'if' is false on resolution", unresolved_for("intervening_if")),
    Situation("control-change", "a permanent changes controller", event_of_type("control")),
    Situation("look-back", "a permanent's ability triggers on its own leaving the battlefield", _look_back),
    Situation("from-graveyard", "an ability that works from a graveyard triggers", _from_graveyard),
    Situation("enters-mid-resolution", "a permanent enters the battlefield while an ability resolves",
              _enters_mid_resolution),
    Situation("player-leaves", "a player leaves the game", event_of_type("player_leaves")),
    Situation("trigger-on-trigger", "an ability triggers on another ability triggering (603.3b's second pass)",
              _on_triggering),
    Situation("sba-triggers", "a state-based action's event triggers an ability", _sba_triggers),
    Situation("delayed-duration-ends", "a delayed triggered ability lasting a step or a turn ends with it",
              _delayed_duration_ends),
    Situation("occurrence-chosen", "a once-only delayed ability chooses among simultaneous occurrences (603.7b)",
              _decided("occurrence")),
    Situation("triggers-in-several-steps", "abilities trigger in two or more steps of the script",
              lambda v: _steps_with_triggers(v) >= 2),
    Situation("prevented-damage", "damage is prevented (603.2g: it triggers nothing)", _prevented),
    Situation("removed-player-left", "a trigger instance ceases to exist as its controller leaves the game (800.4a)",
              unresolved_for("player_left")),
    Situation("trigger-on-stacking", "an ability triggers on another ability being put on the stack",
              _on_stacking),
    # issue 33 item 3: the shape where pass_two_membership's readings differ. The run's stream does not build it (a
    # watched object never holds a watcher there); the editors' search does (its search shape, watcher_chain), so
    # coverage reports it with no share to reach (a goal of 0%).
    Situation("stacking-watcher-watched", "an ability triggering on another being put on the stack is watched in turn: "
              "an ability triggers on its triggering, both waiting in one batch (603.3b: which pass holds the first)",
              _stacking_watched, share=0.0),
    # issue 12, item 1f: how many times abilities trigger
    Situation("one-or-more", "a 'one or more' ability triggers on an event with several occurrences, once (603.2c)",
              _one_or_more),
    Situation("additional-triggers", "an ability triggers additional times on one occurrence (603.2d)", _additional),
    Situation("once-each-turn-held", "a 'do this only once each turn' ability's event occurs again after it "
              "resolved (603.2h)", _once_each_turn_held),
    Situation("trigger-on-resolving", "an ability triggers on an ability resolving", _on_resolving),
    # issue 12, item 1g: spells on the stack
    Situation("spell-resolves", "a spell resolves", lambda v: bool(v.by_kind.get("spell_resolve_begin"))),
    Situation("spell-removed", "a spell's target is illegal when it would resolve: it does not (608.2b)",
              lambda v: bool(v.by_kind.get("spell_removed"))),
    Situation("spell-countered", "a spell is countered", event_of_type("countered")),
    Situation("trigger-on-cast", "an ability triggers on a spell being cast", _on_event_type("cast")),
    Situation("trigger-on-counter", "an ability triggers on a spell being countered", _on_event_type("countered")),
    # issue 22, item 1: new words
    Situation("ownership-filter", "an ability filtered on who owns the event's object ('a creature you own', 'your "
              "graveyard') triggers on an object given to another player earlier (108.3)", _owned_elsewhere),
    Situation("that-many", "an ability deals damage or changes a life total by the amount of its trigger event ('that "
              "much')", _that_many),
    Situation("triggers-once-new-object", "an ability that 'triggers only once each turn' triggers again that turn "
              "after its source changed zones (a new object, 400.7)", _triggers_once_again),
    Situation("spell-delayed", "a delayed triggered ability a spell created triggers, the spell its source (603.7d)",
              _spell_delayed_fired),
    Situation("dealt-damage", "an ability triggers on a permanent being dealt damage by another source (120.3)",
              _dealt_damage_fired),
    Situation("damage-occurrences", "an ability triggers more than once on one damage event with several "
              "occurrences (603.2c)", _damage_occurrences),
    Situation("cost-triggers", "paying an activated ability's cost (a sacrifice, a discard, life) triggers an ability, "
              "which goes on the stack above it (601.2h, 603.3)", _cost_triggered),
    Situation("combat-damage", "an ability reading combat (or noncombat) damage triggers on its kind from a source "
              "that deals the other kind too (120.2a-b, 510.2)", _combat_kind_told_apart),
    Situation("that-player", "an ability's 'that player' instruction acts on a player other than its controller "
              "(603.2, 608.2)", _that_player_other),
    Situation("token-enters", "an ability triggers on a token being created: it enters the battlefield (603.6a)",
              _token_enters_fired),
)
