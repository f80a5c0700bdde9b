"""The lifetime of a delayed triggered ability, required in both directions: a once-only one stops existing as soon
as it has triggered (603.7b), one with a duration never ends for having triggered, and a departed player's delayed
abilities end with them under departed_delayed=cease and stay under persist (800.4a and the option)."""

from __future__ import annotations

from mtg_support import ability, find, fixture, obj, play, scenario, violations

S1 = {"event": "signal", "name": "s1"}


def _broken(surgery, fixture_id="mtg-603-7a-delayed-waits-for-next"):
    prepared, trace = fixture(fixture_id)
    assert violations(prepared, trace) == {}
    surgery(trace["entries"])
    return violations(prepared, trace)


def test_a_once_only_delayed_ability_must_end_when_it_triggers():
    def surgery(entries):
        del entries[find(entries, kind="delayed_end", delayed="D1")]
    assert "mtg.delayed-trigger" in _broken(surgery)


def test_it_must_end_before_the_next_event():
    def surgery(entries):
        end = entries.pop(find(entries, kind="delayed_end", delayed="D1"))
        trigger = find(entries, kind="trigger", delayed="D1")
        following = next(i for i in range(trigger + 1, len(entries)) if entries[i]["kind"] == "event")
        entries.insert(following + 1, end)
    assert "mtg.delayed-trigger" in _broken(surgery)


def _leaving_with_a_delayed_ability(option: str):
    prepared = scenario(["P1", "P2", "P3"], "P1",
                        [obj("C1", "P2", abilities=[ability("A1", S1, [{"do": "create_delayed", "ability":
                                                                       ability("X1", {"event": "signal", "name": "s9"})}])])],
                        [("P1", [{"do": "signal", "name": "s1"}]), ("P2", [{"do": "concede", "player": "P2"}])],
                        options={"departed_delayed": option})
    return prepared, play(prepared)


def test_a_departed_players_delayed_ability_ends_with_them_under_cease():
    prepared, trace = _leaving_with_a_delayed_ability("cease")
    ends = [e for e in trace["entries"] if e["kind"] == "delayed_end"]
    assert [e["reason"] for e in ends] == ["player_left"] and violations(prepared, trace) == {}
    trace["entries"] = [e for e in trace["entries"] if e["kind"] != "delayed_end"]
    assert "did not end when they left" in " ".join(violations(prepared, trace)["mtg.player-leaves"])


def test_it_stays_under_persist():
    prepared, trace = _leaving_with_a_delayed_ability("persist")
    assert not [e for e in trace["entries"] if e["kind"] == "delayed_end"] and violations(prepared, trace) == {}
    leave = find(trace["entries"], kind="event", type="player_leaves")
    trace["entries"].insert(leave + 1, {"kind": "delayed_end", "delayed": "D1", "reason": "player_left"})
    assert "departed_delayed=persist keeps it" in " ".join(violations(prepared, trace)["mtg.player-leaves"])


def test_a_reflexive_ability_created_after_its_controller_left_does_not_trigger():
    """A player concedes in the middle of their own ability's resolution; the rest of the effect creates a reflexive
    ability: nothing triggers for a player who has left (800.4a), and the judge asks for nothing either."""
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("C1", "P1", abilities=[ability("A1", S1, [
                            {"do": "concede", "player": "P1"}, {"do": "signal", "name": "s2"},
                            {"do": "reflexive", "ability": ability("R1", {"event": "signal", "name": "s2"},
                                                                   [{"do": "signal", "name": "s3"}])}])])],
                        [("P2", [{"do": "signal", "name": "s1"}])])
    trace = play(prepared)
    assert not [e for e in trace["entries"] if e["kind"] == "trigger" and e.get("delayed")]
    assert violations(prepared, trace) == {}
    created = find(trace["entries"], kind="delayed_create", id="D1")
    signal = next(e["id"] for e in trace["entries"] if e["kind"] == "event" and e.get("name") == "s2")
    trace["entries"].insert(created + 1, {"kind": "trigger", "id": "T9", "ability": "R1", "source": "C1",
                                          "controller": "P1", "event": signal, "delayed": "D1"})
    assert "mtg.player-leaves" in violations(prepared, trace)
