"""MTG 608.2 (with 608.1 and 113.7a): a resolving triggered ability that gets past its intervening "if" (608.2a)
and its target check (608.2b) does what its effect says, instruction by instruction, on the game as it is at that
moment; nothing else is done in its name. A declined optional ability (603.5) does nothing. By the scenario
format's convention each scripted action is performed in full the same way (it stands for a spell resolving).

What each instruction does, as the judge reads the vocabulary: a zone change moves each named object that is not
already in the destination (and is in ``from`` when given; the target's zone for ``move_target``), one event per
object, those of one ``move_together`` simultaneous; damage to a permanent happens only while it is on the
battlefield, damage to or life for a player only while they are in the game, "that much" damage or life (``that_many``)
as much as the amount of the resolving ability's trigger event, nothing when it has none, and damage or life for "that
player" (``that_player``) to its trigger event's player (the owner of a card put into a graveyard, a hand or a library),
nothing when there is none or they have left; a control change only to a player in
the game and not the controller already; conceding makes the player leave with their objects (800.4a); creating tokens puts them onto the battlefield
at once from ``uncreated`` (603.6a), each but one created already or whose owner has left, and nothing else moves a
token not created yet; creating a delayed or reflexive ability is no event (mtg.delayed-trigger, mtg.reflexive judge it). An effect using a word the
judge cannot replay is not judged."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from typing import Any

from reference_engine.kernel.invariant import invariant, listed
from reference_engine.kernel.script import script_problems
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView, memoized
from reference_engine.mtg.judge.activated import activated_spans, activations, may_activate, printed_activated
from reference_engine.mtg.judge.model import FIELD, OUT_OF_GAME, UNCREATED, Board, Reading
from reference_engine.mtg.judge.observations import catalog, describe, replay, specs

FIELDS = ("type", "subject", "from", "to", "name", "amount", "player", "target", "controller")


def _signature(event: dict[str, Any]) -> tuple:
    return (*map(event.get, FIELDS), bool(event.get("prevented")), bool(event.get("combat")))


def _zone_change(board: Board, thing: str, destination: str) -> dict[str, Any]:
    origin = board.where[thing]
    kind = "enter" if destination == FIELD else "leave" if origin == FIELD else "move"
    return {"type": kind, "subject": thing, "from": origin, "to": destination}


def _departure(cat: Reading, board: Board, player: str) -> list[dict[str, Any]]:
    owned, returned = cat.departure(player, board, set())
    group: list[dict[str, Any]] = [{"type": "player_leaves", "player": player}]
    group += [_zone_change(board, t, OUT_OF_GAME) for t in sorted(owned)]
    group += [{"type": "control", "subject": t, "controller": cat.owner_of[t]} for t in sorted(returned)]
    return group


def how_much(action: dict[str, Any], taken: int) -> int | None:
    """How much damage a ``damage`` instruction deals, or life a ``life`` instruction gives (negative: takes): its
    ``amount``; with ``that_many`` ("that much"), as much as ``taken``, the amount of the trigger event of the ability
    resolving (0 when it has none), the sign of a life instruction's ``amount`` saying gain or loss. None: "that
    much" is nothing, and nothing happens (no damage is dealt, 120.8)."""
    if not action.get("that_many"):
        return action["amount"]
    if not taken:
        return None
    return -abs(taken) if action["do"] == "life" and action["amount"] < 0 else abs(taken)


def _hits(board: Board, action: dict[str, Any], source: str | None) -> list[dict[str, Any]]:
    """The occurrences of one damage event (``damage_together``): each hit to a permanent on the battlefield or to a
    player still in the game, each combat damage when the action says so (510.2)."""
    out = []
    for hit in action["hits"]:
        event = {"type": "damage", "subject": hit.get("source", source), "amount": hit["amount"]}
        if action.get("combat"):
            event["combat"] = True
        if "object" in hit and board.where.get(hit["object"]) == FIELD:
            out.append(dict(event, target=hit["object"]))
        elif "player" in hit and board.present(hit["player"]):
            out.append(dict(event, player=hit["player"]))
    return out


def _moves(board: Board, action: dict[str, Any], target: str | None, target_zone: str | None) -> list[dict[str, Any]]:
    """The zone changes of one move instruction: each named object not already in its destination (and in its stated
    ``from``; the target's zone for ``move_target``), as one event. A token not created yet exists nowhere and does
    not move."""
    if action["do"] == "move_each":  # each named object to its own destination, from its stated zone
        moves = [(m["object"], m["to"], m.get("from")) for m in action["moves"]]
    else:
        origin = target_zone if action["do"] == "move_target" and target is not None else action.get("from")
        moves = [(t, action["to"], origin) for t in action.get("objects") or [action.get("object", target)]]
    return [_zone_change(board, thing, to) for thing, to, origin in moves
            if board.where.get(thing, to) not in (to, UNCREATED) and origin in (None, board.where[thing])]


def that_player(cat: Reading, event: dict[str, Any]) -> str | None:
    """"That player" for an ability triggered by ``event`` (603.2, 608.2): the event's player, or the owner of a card
    it puts into a graveyard, a hand or a library (400.3: those zones are its owner's); None when there is none."""
    if "player" in event:
        return event["player"]
    if event.get("type") in ("leave", "move") and event.get("to") in ("graveyard", "hand", "deck"):
        return cat.owner_of.get(event.get("subject"))
    return None


def expected_groups(cat: Reading, board: Board, effect: list[dict[str, Any]], source: str | None, controller: str,
                    target: str | None, target_zone: str | None, taken: int = 0,
                    them: str | None = None) -> list[list[dict[str, Any]]] | None:
    """The groups of simultaneous events an effect must cause, in order, starting from ``board`` (None when an
    instruction is one the judge cannot replay); ``taken``: the amount of the resolving ability's trigger event, for
    "that many" (:func:`how_much`); ``them``: its "that player" (:func:`that_player`), for ``that_player``."""
    own = False  # ``board`` is the caller's until the first event changes it: cloned then (most effects cause none)
    out: list[list[dict[str, Any]]] = []
    for action in effect:
        do = action.get("do")
        group: list[dict[str, Any]] = []
        if do in ("damage", "life") and action.get("that_player"):  # to "that player", if any is in the game
            if them is None or not board.present(them):
                continue
            action = dict(action, player=them)
        if do in ("move", "move_together", "move_target", "move_each"):
            group = _moves(board, action, target, target_zone)
        elif do == "create_token":  # 603.6a: they enter the battlefield, from nowhere they were, at once
            group = [{"type": "enter", "subject": t, "from": UNCREATED, "to": FIELD} for t in action["objects"]
                     if board.where.get(t) == UNCREATED and board.present(cat.owner_of[t])]
        elif do == "signal":
            group = [{"type": "signal", "name": action["name"], "subject": action.get("subject", source),
                      "player": controller}]
        elif do in ("damage", "life") and how_much(action, taken) is None:
            continue
        elif do == "damage":
            group = _damage(board, action, source, target, taken)
        elif do == "damage_together":  # one event, several occurrences (120.2, 603.2c)
            group = _hits(board, action, source)
        elif do == "life":
            player = action.get("player")
            if action.get("target"):  # the ability's target player; nothing when it targets no player
                player = target if target in board.life else None
            if board.present(player):
                group = [{"type": "life", "player": player, "amount": how_much(action, taken)}]
        elif do == "gain_control":
            thing, player = action["object"], action["player"]
            if thing in board.where and board.controller_of.get(thing) != player and board.present(player):
                group = [{"type": "control", "subject": thing, "controller": player}]
        elif do == "concede":
            if board.present(action["player"]):
                group = _departure(cat, board, action["player"])
        elif do == "cast":  # 601.2: a scripted action only; its target is its first legal candidate
            thing = action["object"]
            spell = (cat.objects.get(thing) or {}).get("spell")
            if source is None and spell is not None and board.where.get(thing) == "hand":
                legal = cat.legal_targets(spell, board) if "target" in spell else [None]
                if legal:
                    group = [{"type": "cast", "subject": thing, "player": controller, "from": "hand", "to": "stack",
                              "target": legal[0]}]
        elif do == "counter":  # a spell on the stack goes to its owner's graveyard
            thing = target if action.get("target") else action.get("object")
            if thing is not None and board.where.get(thing) == "stack":
                group = [{"type": "countered", "subject": thing, "from": "stack", "to": "graveyard"}]
        elif do == "activate":  # 602.2, 601.2h: a scripted action only; each part of the cost its own event
            paid = may_activate(board, cat.objects, action, controller) if source is None else None
            if paid and not own:
                board, own = board.clone(), True
            for event in paid or ():
                out.append([event])
                board.step(event)
            continue
        elif do in ("create_delayed", "reflexive"):
            continue
        else:
            return None
        if group:
            out.append(group)
            if not own:
                board, own = board.clone(), True
            for event in group:
                board.step(event)
    return out


def _damage(board: Board, action: dict[str, Any], source: str | None, target: str | None,
            taken: int) -> list[dict[str, Any]]:
    """The group (one event or none) of a ``damage`` instruction, to its object or player, or to the ability's
    ``target`` (a player if it is one, else a permanent), from ``board``."""
    event = {"type": "damage", "subject": action.get("source", source), "amount": how_much(action, taken)}
    if action.get("target"):
        action = {k: v for k, v in action.items() if k != "target"}
        if target is not None:
            action["player" if target in board.life else "object"] = target
        else:
            action["object"] = None
    group = []
    if "object" in action:
        if board.where.get(action["object"]) == FIELD:
            group = [dict(event, target=action["object"])]
    elif board.present(action.get("player")):
        group = [dict(event, player=action.get("player"))]
    if group and action.get("prevented"):
        group[0]["prevented"] = True
    if group and action.get("combat"):  # a scripted action's combat damage (510.2)
        group[0]["combat"] = True
    return group


def _actual_groups(view: TraceView, cause_kind: str, cause_value: Any) -> list[list[dict[str, Any]]]:
    key = (cause_kind, tuple(cause_value) if isinstance(cause_value, list) else cause_value)
    groups: list[list[dict[str, Any]]] = []
    last_tag = object()
    for event in view.events_by_cause.get(key, ()):
        tag = event.get("group")
        if tag is not None and tag == last_tag:
            groups[-1].append(event)
        else:
            groups.append([event])
        last_tag = tag
    return groups


def _compare(what, want: list[list[dict]], got: list[list[dict]]) -> list[str]:
    """The first instruction whose events differ from those wanted, in words (``what``: the work compared, a string
    or a function returning it, called only for a message)."""
    for n in range(max(len(want), len(got))):
        if n < len(want) and n < len(got) and list(map(_signature, want[n])) == list(map(_signature, got[n])):
            continue  # the same events in the same order: equal as multisets too (the common case, no Counters)
        w = Counter(_signature(e) for e in want[n]) if n < len(want) else Counter()
        g = Counter(_signature(e) for e in got[n]) if n < len(got) else Counter()
        if w != g:
            shown = [" ".join(f"{f}={v}" for f, v in zip(FIELDS + ("prevented", "combat"), s) if v not in (None, False))
                     for s in w.elements()]
            done = [e["id"] for e in got[n]] if n < len(got) else []
            name = what() if callable(what) else what
            return [f"{name}: its instruction number {n + 1} with an effect should have caused {listed(shown)}, "
                    f"but caused {listed(done)}"]
    return []


@memoized
def _effects(view: TraceView) -> tuple[list[str], int]:
    cat, at = catalog(view), replay(view).at
    found: list[str] = []
    judged = 0
    stacked_target = {e["trigger"]: e.get("target") for e in (view.entries[i] for i in view.by_kind["stack_push"])}
    choices, table = view.by_kind["choice"], specs(view)  # entry indexes, ascending
    for t, begin, end in view.resolution_spans:
        spec, trig = table.get(t), view.triggers.get(t)
        if spec is None or trig is None or begin not in at:
            continue
        declined = any(view.entries[i]["decision"] == "optional" and t in view.entries[i].get("among", ())
                       and view.entries[i]["chosen"] is False
                       for i in choices[bisect_right(choices, begin):bisect_left(choices, end)])  # begin < i < end
        zone = (spec.get("target") or {}).get("zone", FIELD) if "target" in spec else None
        heard = {} if spec["trigger"]["event"] == "state" else view.events.get(trig["event"], {})
        want = [] if declined else expected_groups(cat, at[begin], spec.get("effect") or [], trig["source"],
                                                   trig["controller"], stacked_target.get(t), zone,
                                                   heard.get("amount") or 0, that_player(cat, heard))
        if want is None:
            continue
        judged += 1
        found += _compare(lambda: f"{describe(view, t)} resolved (entries {begin}-{end})", want,
                          _actual_groups(view, "resolution", t))
    for a, begin, end in activated_spans(view):
        entry = activations(view).get(a, (None, {}))[1]
        spec = printed_activated(cat.objects, entry.get("source"), entry.get("ability"))
        if spec is None or begin not in at:
            continue
        want = expected_groups(cat, at[begin], spec.get("effect") or [], entry["source"], entry["player"], None, None)
        if want is not None:
            judged += 1
            found += _compare(f"activated ability {a} resolved (entries {begin}-{end})", want,
                              _actual_groups(view, "activated", a))
    script = view.scenario["script"]
    for i in view.by_kind["action_begin"]:
        ref = view.entries[i]["action"]
        try:
            action = script[ref[0]]["actions"][ref[1]]
        except (IndexError, TypeError):
            continue
        if i not in at:
            continue
        want = expected_groups(cat, at[i], action["effect"], None, action["by"], None, None)
        if want is None:
            continue
        judged += 1
        found += _compare(f"scripted action {ref} (entry {i})", want, _actual_groups(view, "action", ref))
        found += _activations_in(view, at[i], i, action)
    found += [f"activate entry {k} puts activated ability {view.entries[k]['id']} on the stack outside any scripted action "
              f"(only a scripted activate action activates, 602.2)" for k in view.by_kind.get("activate", ())
              if not _in_action(view, k)]
    return found, judged


def _in_action(view: TraceView, index: int) -> bool:
    begins = view.by_kind["action_begin"]
    k = bisect_right(begins, index) - 1
    return k >= 0 and all(not (begins[k] < e < index) for e in view.by_kind["action_end"][k:k + 1])


def _activations_in(view: TraceView, board: Board, begin: int, action: dict[str, Any]) -> list[str]:
    """602.2a, 601.2h both ways: a scripted action puts on the stack (an ``activate`` entry) exactly the activated
    abilities its ``activate`` instructions may activate, each naming its permanent, ability and player, before the
    first event of its cost; and nothing else."""
    end = next((k for k in view.by_kind["action_end"] if k > begin), len(view.entries))
    got = [k for k in view.by_kind.get("activate", ()) if begin < k < end]
    wanted = []
    board = board.clone()
    for part in action["effect"]:
        if part.get("do") != "activate":
            continue
        paid = may_activate(board, catalog(view).objects, part, action["by"])
        if paid is not None:
            wanted.append((part["object"], part["ability"], action["by"], paid))
            for event in paid:
                board.step(event)
    found = []
    if len(got) != len(wanted):
        found.append(f"scripted action {view.entries[begin]['action']} (entry {begin}) should have put "
                     f"{len(wanted)} activated abilit(y/ies) on the stack (602.2a), but its trace shows {len(got)}")
        return found
    events = [k for k in view.by_kind["event"] if begin < k < end]
    for k, (source, ability, player, paid) in zip(got, wanted):
        entry = view.entries[k]
        if (entry["source"], entry["ability"], entry["player"]) != (source, ability, player):
            found.append(f"activate entry {k} names {entry['ability']} of {entry['source']} by {entry['player']}, "
                         f"but the script activates {ability} of {source} by {player}")
        if paid and events and events[0] < k:
            found.append(f"activated ability {entry['id']} was put on the stack at entry {k}, after its cost was paid "
                         f"(entry {events[0]}): it goes on the stack first, then its cost is paid (602.2a, 601.2h)")
        events = [e for e in events if e > k][len(paid):]
    return found


@invariant(
    passes=PASSES,
    key="mtg.resolution-effect",
    ruleset="mtg",
    rules={"2026-02-27": "608.2", "2021-02-24": "608.2"},
    summary="A resolving triggered ability (and each scripted action) does exactly what its effect says, in order, "
    "on the game as it is then; a declined optional ability does nothing.",
    exercised=lambda view: _effects(view)[1],
)
def resolution_effect(view: TraceView) -> list[str]:
    # Every scripted action is performed (the script played as written), unless the game ended first (104.4b).
    return script_problems(view, ends_game=lambda entry: True, early_kinds=("game_over",)) + list(_effects(view)[0])
