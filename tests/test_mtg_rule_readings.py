"""MTG rule readings the reference engine follows too (issue 9 item 5): intervening "if" clauses of delayed and state
triggers, looking back in time, a player leaving the game (800.4a) and a departure as one moment, a state trigger
without a legal target. The reference engine plays each reading, and the judge rejects a trace broken by hand to go
against it (tests/test_mtg_invariants.py checks that the two files together break every rule key)."""

from __future__ import annotations

import copy

from mtg_support import ability, exercised, find, obj, play, scenario, violations

S1 = {"event": "signal", "name": "s1"}


def _leaving_scenario():
    """P3 (3 life) has a trigger on the stack when P1's trigger, resolving first, deals P3 5 damage."""
    return scenario(["P1", "P2", "P3"], "P2",
                    [obj("X", "P3", abilities=[ability("A1", S1, [{"do": "signal", "name": "late"}])]),
                     obj("Y", "P1", abilities=[ability("A2", S1, [{"do": "damage", "player": "P3", "amount": 5}])]),
                     obj("Z", "P2", abilities=[ability("A3", {"event": "player_leaves"})])],
                    [("P2", [{"do": "signal", "name": "s1"}])], life={"P3": 3})


def test_player_leaves_removes_their_abilities_and_keeps_the_rest():
    prepared = _leaving_scenario()
    trace = play(prepared)
    entries = trace["entries"]
    leave = find(entries, kind="event", type="player_leaves")
    assert entries[leave]["cause"]["sba"]  # 704.5a, then 800.4a
    removed = find(entries, kind="removed", reason="player_left")
    assert entries[removed]["trigger"] == "T1" and removed > leave
    assert "T1" not in [e.get("trigger") for e in entries if e["kind"] == "resolve_begin"]
    assert any(e["kind"] == "trigger" and e["ability"] == "A3" for e in entries)  # 603.9-style trigger of others
    assert violations(prepared, trace) == {}
    assert exercised(prepared, trace)["mtg.player-leaves"] == 1
    del entries[removed]
    assert "did not cease to exist" in violations(prepared, trace)["mtg.player-leaves"][0]


def test_intervening_if_applies_to_delayed_triggers():
    """603.4 with 603.7: the delayed ability's condition is false on the first s2 (15 life): it does not trigger
    there, and, having no duration, waits for the next s2 (20 life again)."""
    delayed = ability("X1", {"event": "signal", "name": "s2"}, [{"do": "life", "player": "P1", "amount": 1}],
                      intervening_if={"test": "life_at_least", "player": "controller", "value": 20})
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("C1", "P1", abilities=[ability("A1", S1, [{"do": "create_delayed", "ability": delayed}])])],
                        [("P1", [{"do": "signal", "name": "s1"}]), ("P1", [{"do": "life", "player": "P1", "amount": -5}]),
                         ("P1", [{"do": "signal", "name": "s2"}]), ("P1", [{"do": "life", "player": "P1", "amount": 5}]),
                         ("P1", [{"do": "signal", "name": "s2"}])])
    trace = play(prepared)
    entries = trace["entries"]
    s2 = [e["id"] for e in entries if e["kind"] == "event" and e.get("name") == "s2"]
    assert [e["event"] for e in entries if e["kind"] == "trigger" and "delayed" in e] == [s2[1]]
    assert violations(prepared, trace) == {}
    entries[find(entries, kind="trigger", ability="X1")]["event"] = s2[0]
    found = violations(prepared, trace)
    assert "mtg.delayed-trigger" in found and "mtg.intervening-if" in found


def _state_with_condition(life):
    watcher = ability("A1", {"event": "state", "state": {"test": "zone_empty", "zone": "hand"}},
                      [{"do": "move", "object": "H", "from": "field", "to": "hand"}],
                      intervening_if={"test": "life_at_least", "player": "controller", "value": 20})
    return scenario(["P1", "P2"], "P1", [obj("W", "P1", abilities=[watcher]), obj("H", "P1", zone="hand")],
                    [("P1", [{"do": "move", "object": "H", "from": "hand", "to": "field"}])], life={"P1": life})


def test_intervening_if_applies_to_state_triggers():
    """603.8 with 603.4: the hand is empty, but at 15 life the state trigger does not trigger at all."""
    prepared = _state_with_condition(15)
    trace = play(prepared)
    entries = trace["entries"]
    assert not [e for e in entries if e["kind"] == "trigger"]
    assert violations(prepared, trace) == {}
    move = find(entries, kind="event", subject="H")
    entries.insert(move + 1, {"kind": "trigger", "id": "T9", "ability": "A1", "source": "W", "controller": "P1",
                              "event": entries[move]["id"]})
    found = violations(prepared, trace)
    assert "mtg.state-trigger" in found and "mtg.intervening-if" in found


def test_a_state_trigger_whose_condition_held_triggers_once_and_stops():
    """At 20 life it triggers as the hand empties, returns H to the hand as it resolves, and its state no longer
    holds: it does not trigger again."""
    prepared = _state_with_condition(20)
    trace = play(prepared)
    assert len([e for e in trace["entries"] if e["kind"] == "trigger"]) == 1
    assert violations(prepared, trace) == {}


def test_leaves_the_battlefield_condition_looks_back():
    """603.10 with 603.4: "whenever another creature leaves the battlefield, if this is on the battlefield": W and C
    leave together; looking back, W was on the battlefield, so it triggers for C."""
    watcher = ability("A1", {"event": "leave", "subject": "other"}, [{"do": "life", "player": "P1", "amount": 1}],
                      intervening_if={"test": "in_zone", "object": "self", "zone": "field"})
    prepared = scenario(["P1", "P2"], "P1", [obj("W", "P1", abilities=[watcher]), obj("C", "P2")],
                        [("P1", [{"do": "move_together", "objects": ["W", "C"], "to": "graveyard"}])])
    trace = play(prepared)
    entries = trace["entries"]
    assert [e["ability"] for e in entries if e["kind"] == "trigger"] == ["A1"]
    t = entries[find(entries, kind="trigger", ability="A1")]["id"]
    # On resolution the condition is checked again, now (608.2a): W is in the graveyard, so it does nothing.
    assert entries[find(entries, kind="removed", trigger=t)]["reason"] == "intervening_if"
    assert violations(prepared, trace) == {}
    for kind in ("removed", "stack_push"):
        del entries[find(entries, kind=kind, trigger=t)]
    del entries[find(entries, kind="trigger", id=t)]
    assert "mtg.look-back" in violations(prepared, trace)


def test_leaving_a_graveyard_looks_back():
    """603.10a: G's ability works in the graveyard and triggers on G leaving it: judged just before, G was there."""
    leaving = ability("A1", {"event": "move", "subject": "self", "from": "graveyard"},
                      [{"do": "life", "player": "P1", "amount": 1}], active_in=["graveyard"])
    prepared = scenario(["P1", "P2"], "P1", [obj("G", "P1", zone="graveyard", abilities=[leaving]), obj("C", "P2")],
                        [("P1", [{"do": "move", "object": "G", "from": "graveyard", "to": "exile"}])])
    trace = play(prepared)
    entries = trace["entries"]
    assert [e["ability"] for e in entries if e["kind"] == "trigger"] == ["A1"]
    assert violations(prepared, trace) == {}
    assert exercised(prepared, trace)["mtg.look-back"] == 1


def test_player_leaves_takes_their_objects_in_one_event():
    prepared = _leaving_scenario()
    trace = play(prepared)
    entries = trace["entries"]
    leave = find(entries, kind="event", type="player_leaves")
    group = entries[leave]["group"]
    moved = [e for e in entries if e["kind"] == "event" and e.get("group") == group and e.get("to") == "removed"]
    assert [e["subject"] for e in moved] == ["X"]
    moved[0].pop("group")  # X leaves in an event of its own, after the player
    assert any("did not leave the game in that same event" in m for m in violations(prepared, trace)["mtg.player-leaves"])


def test_a_departure_is_one_moment_for_state_triggers():
    """800.4a with 603.8: P3 loses; their two waiting state triggers cease together, and only then is the state of
    O's ability (now P1's again: the control effect ended) checked: it triggers once, after both removals."""
    k = ability("K", {"event": "state", "state": {"test": "zone_empty", "player": "controller", "zone": "hand"}},
                [{"do": "move", "object": "G", "from": "field", "to": "hand"}])
    xk = ability("XK", {"event": "state", "state": {"test": "in_zone", "object": "self", "zone": "field"}})
    prepared = scenario(["P1", "P2", "P3"], "P1",
                        [obj("O", "P1", controller="P3", abilities=[k]), obj("G", "P1"), obj("X", "P3", abilities=[xk])],
                        [("P1", [{"do": "damage", "player": "P3", "amount": 5}])], life={"P3": 3})
    trace = play(prepared)
    entries = trace["entries"]
    removals = [i for i, e in enumerate(entries) if e["kind"] == "removed"]
    again = find(entries, kind="trigger", ability="K", controller="P1")
    assert len(removals) == 2 and again == removals[-1] + 1
    assert violations(prepared, trace) == {}
    entries.insert(removals[0] + 1, entries.pop(again))  # re-triggered by the first removal alone
    assert "mtg.state-trigger" in violations(prepared, trace)


def _untargetable_state_trigger():
    watcher = ability("A1", {"event": "state", "state": {"test": "life_at_most", "player": "P1", "value": 19}},
                      [{"do": "move_target", "to": "exile"}], target={"candidates": ["Z"]})
    return scenario(["P1", "P2"], "P1", [obj("W", "P1", abilities=[watcher]), obj("Z", "P2", zone="graveyard")],
                    [("P1", [{"do": "life", "player": "P1", "amount": -1}]),
                     ("P1", [{"do": "life", "player": "P1", "amount": -1}])])


def test_an_untargetable_state_trigger_does_not_loop():
    """603.8 with 603.3d and 104.4b: the state holds and the only candidate is in the graveyard: the instance is
    removed for want of a target, and the state trigger would trigger again in exactly the same game, forever: a
    loop of mandatory actions, so the game is a draw, and nothing follows."""
    prepared = _untargetable_state_trigger()
    trace = play(prepared)
    entries = trace["entries"]
    assert [e["reason"] for e in entries if e["kind"] == "removed"] == ["no_target"]
    assert entries[-1] == {"kind": "game_over", "result": "draw", "reason": "mandatory_loop"}
    assert violations(prepared, trace) == {}
    looping = copy.deepcopy(trace)
    looping["entries"][-1:] = [{"kind": "trigger", "id": "T9", "ability": "A1", "source": "W", "controller": "P1",
                                "event": None}]
    assert any("did not end in a draw" in m for m in violations(prepared, looping)["mtg.state-trigger"])
    early = copy.deepcopy(trace)
    early["entries"].insert(find(early["entries"], kind="removed"), {"kind": "game_over", "result": "draw",
                                                                      "reason": "mandatory_loop"})
    del early["entries"][-1]
    assert any("no state trigger was looping" in m for m in violations(prepared, early)["mtg.state-trigger"])
