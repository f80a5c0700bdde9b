"""The MTG golden scenarios: the reference engine passes each (invariants and expected course), and each expected
trace shows the outcome its Example paragraph states, asserted explicitly."""

from __future__ import annotations

import pytest

from conformance.running.fixtures import check_fixture
from conformance.documents.fixture_files import bundled_fixtures
from mtg_support import FIXTURES, find, fixture
from reference_engine.mtg.judge import MTG
from reference_engine.mtg.engines.reference import MtgEngine

IDS = sorted(p.stem for p in FIXTURES.glob("*.json"))


def entries_of(fixture_id):
    return fixture(fixture_id)[1]["entries"]


def kinds(entries, kind, **match):
    return [e for e in entries if e["kind"] == kind and all(e.get(k) == v for k, v in match.items())]


def test_every_fixture_covers_known_rule_keys():
    keys = {inv.key for inv in MTG.invariants}
    loaded = bundled_fixtures("mtg")
    assert len(loaded) == len(IDS) >= 15
    for fx in loaded:
        assert set(fx.rule_keys) <= keys, fx.id


@pytest.mark.parametrize("fx", bundled_fixtures("mtg"), ids=lambda fx: fx.id)
def test_reference_engine_passes_fixture(fx):
    result = check_fixture(MtgEngine(), fx, MTG.invariants_for(fx.scenario["edition"]))
    assert result.status == "passed", result.messages


def test_101_4_sacrifices_are_one_batch_in_apnap_order():
    e = entries_of("mtg-101-4-each-player-sacrifices")
    assert len({x["group"] for x in kinds(e, "event", type="leave")}) == 1  # sacrificed simultaneously
    assert len(kinds(e, "trigger")) == 9
    pushed = [t["trigger"] for t in kinds(e, "stack_push")]
    controllers = [next(x["controller"] for x in kinds(e, "trigger", id=t)) for t in pushed]
    assert controllers == ["P2"] * 3 + ["P3"] * 3 + ["P1"] * 3  # active player P2 first, then turn order
    first = kinds(e, "resolve_begin")[0]["trigger"]
    assert next(x["controller"] for x in kinds(e, "trigger", id=first)) == "P1"  # the last player's resolve first


def test_603_2c_five_lands_five_triggers():
    assert len(kinds(entries_of("mtg-603-2c-destroy-all-lands"), "trigger", ability="A1")) == 5


def test_603_2g_prevented_damage_triggers_nothing():
    e = entries_of("mtg-603-2g-prevented-damage")
    prevented = kinds(e, "event", type="damage", prevented=True)[0]
    assert [t["event"] for t in kinds(e, "trigger")] == ["E2"] and prevented["id"] == "E1"


def test_603_4_felidar_sovereign():
    assert kinds(entries_of("mtg-603-4-felidar-39-life"), "trigger") == []
    e = entries_of("mtg-603-4-felidar-drops-below")
    assert kinds(e, "removed", trigger="T1", reason="intervening_if")
    assert not kinds(e, "event", name="wins")
    e = entries_of("mtg-603-4-felidar-wins")
    assert kinds(e, "event", name="wins") and not kinds(e, "removed")


def test_603_3a_control_ends_off_the_battlefield():
    """400.7, 108.4a, 110.2: the dies trigger (looking back) is the stealer's; from the graveyard and on the way back
    the abilities are the owner's."""
    e = entries_of("mtg-ref-603-3a-control-ends-off-the-battlefield")
    controllers = {t["ability"]: t["controller"] for t in kinds(e, "trigger")}
    assert controllers == {"CD": "P2", "CG": "P1", "DG": "P1", "CE": "P1"}


def test_603_7a_delayed_ability_created_too_late_never_triggers():
    e = entries_of("mtg-603-7a-delayed-created-too-late")
    created = find(e, kind="delayed_create")
    left = find(e, kind="event", type="leave", subject="C2")
    assert left < created
    assert not [t for t in kinds(e, "trigger") if "delayed" in t]


def test_603_7a_delayed_ability_waits_for_the_next_occurrence():
    e = entries_of("mtg-603-7a-delayed-waits-for-next")
    untaps = [x["id"] for x in kinds(e, "event", name="untap")]
    delayed = [t for t in kinds(e, "trigger") if "delayed" in t]
    assert len(untaps) == 3 and [t["event"] for t in delayed] == [untaps[1]]  # not the first, only once


def test_603_7c_exile_does_nothing_once_the_creature_left():
    e = entries_of("mtg-603-7c-exile-at-end-step")
    t = [x for x in kinds(e, "trigger") if "delayed" in x][0]["id"]
    assert kinds(e, "resolve_end", trigger=t)
    assert not kinds(e, "event", to="exile")


def test_603_8_state_trigger_once_until_it_leaves_the_stack():
    e = entries_of("mtg-603-8-last-card-played")
    assert len(kinds(e, "trigger")) == 1
    assert find(e, kind="event", name="cast_more") < find(e, kind="stack_push")  # the state held again, no new trigger


def test_603_8_state_trigger_during_resolution_goes_on_afterwards():
    e = entries_of("mtg-603-8-discard-then-draw")
    assert find(e, kind="action_begin") < find(e, kind="trigger") < find(e, kind="action_end") < find(e, kind="stack_push")


def test_603_10a_artifact_dying_with_creatures_triggers_twice():
    e = entries_of("mtg-603-10a-artifact-dies-with-creatures")
    assert len(kinds(e, "trigger", source="AR")) == 2
    assert sum(x["amount"] for x in kinds(e, "event", type="life")) == 2


def test_603_12_manticore_reflexive_only_for_its_own_sacrifice():
    e = entries_of("mtg-603-12-manticore-sacrifices")
    reflexive = [t for t in kinds(e, "trigger") if "delayed" in t]
    c2 = kinds(e, "event", type="leave", subject="C2")[0]["id"]
    assert [t["event"] for t in reflexive] == [c2]  # not C3's earlier sacrifice
    assert find(e, kind="resolve_end", trigger="T1") < find(e, kind="stack_push", trigger=reflexive[0]["id"])
    assert kinds(e, "event", type="damage", amount=3)
    e = entries_of("mtg-603-12-manticore-declines")
    assert kinds(e, "stack_push", trigger="T1") and not kinds(e, "delayed_create") and not kinds(e, "event", type="leave")


def test_704_4_maro_survives_and_the_state_trigger_waits():
    e = entries_of("mtg-704-4-maro")
    assert not kinds(e, "event", subject="MARO")
    begin, end = find(e, kind="action_begin"), find(e, kind="action_end")
    assert not [i for i, x in enumerate(e) if x["kind"] == "sba_check" and begin < i < end]
    assert begin < find(e, kind="trigger") < end < find(e, kind="stack_push")


def test_608_2b_illegal_target_does_nothing():
    e = entries_of("mtg-608-2b-target-gone")
    assert kinds(e, "removed", trigger="T1", reason="illegal_target")
    assert not kinds(e, "event", type="life") and not kinds(e, "event", type="damage")


def test_603_3b_two_pass_against_single_pass():
    def resolved_first(fixture_id):
        e = entries_of(fixture_id)
        first = kinds(e, "resolve_begin")[0]["trigger"]
        return next(x["ability"] for x in kinds(e, "trigger", id=first))
    assert resolved_first("mtg-603-3b-two-pass") == "A1"  # the watcher, put on in the second pass
    assert resolved_first("mtg-603-3b-single-pass-2021") == "A2"  # the non-active player's, put on last


# -- Reference engine fixes (issue 9, item 5) ---------------------------------------------------------------------


def trigger_of(entries, trigger_id):
    return next(x for x in kinds(entries, "trigger") if x["id"] == trigger_id)


def test_resolution_and_sba_triggers_go_on_in_one_batch_in_apnap_order():
    e = entries_of("mtg-ref-603-3b-resolution-and-sba-batch-3p")
    death = kinds(e, "event", type="leave", subject="C")[0]
    assert "sba" in death["cause"]
    pushed = [x["trigger"] for x in kinds(e, "stack_push")[1:]]  # after A1's own push
    assert [trigger_of(e, t)["ability"] for t in pushed] == ["D", "S"]  # the active player's first
    first, second = (find(e, kind="stack_push", trigger=t) for t in pushed)
    assert not [x for x in e[first:second] if x["kind"] == "sba_check"]  # one batch: no check in between
    assert trigger_of(e, kinds(e, "resolve_begin")[1]["trigger"])["ability"] == "S"


def test_603_4_delayed_ability_with_false_condition_does_not_trigger_and_keeps_waiting():
    e = entries_of("mtg-ref-603-4-delayed-intervening-if")
    signals = [x["id"] for x in kinds(e, "event", name="s2")]
    delayed = [t for t in kinds(e, "trigger") if "delayed" in t]
    assert len(signals) == 3 and [t["event"] for t in delayed] == [signals[1]]
    assert kinds(e, "event", type="life", amount=3)


def test_603_4_state_trigger_waits_for_its_condition():
    e = entries_of("mtg-ref-603-4-state-trigger-intervening-if")
    [t] = kinds(e, "trigger")
    enters = kinds(e, "event", type="enter", subject="C2")[0]["id"]
    assert t["event"] == enters and not kinds(e, "removed")
    assert kinds(e, "event", subject="C1", to="exile")


def test_603_10_leaves_ability_checks_its_condition_looking_back():
    e = entries_of("mtg-ref-603-10-leaves-intervening-if-looks-back")
    assert len(kinds(e, "trigger", ability="A1")) == 2
    assert [x["reason"] for x in kinds(e, "removed")] == ["intervening_if"] * 2  # C2 is gone on resolution


def test_603_10a_card_leaving_a_graveyard_sees_the_others_leave():
    e = entries_of("mtg-ref-603-10a-graveyard-leaving-looks-back")
    assert len(kinds(e, "trigger", ability="A1")) == 3
    assert [x["reason"] for x in kinds(e, "removed")] == ["intervening_if"] * 3  # G is in exile on resolution


def test_603_10a_public_card_put_into_a_hand_sees_the_others_go():
    e = entries_of("mtg-ref-603-10a-put-into-hand-looks-back")
    assert len(kinds(e, "trigger", ability="A1")) == 2
    assert sum(x["amount"] for x in kinds(e, "event", type="life")) == 2


def test_603_6c_from_anywhere_is_no_leaves_the_battlefield_ability():
    e = entries_of("mtg-ref-603-6c-from-anywhere-dies-together")
    assert not kinds(e, "trigger", ability="AW")  # it died with them, and does not look back
    assert len(kinds(e, "trigger", ability="AY")) == 2 and len(kinds(e, "trigger", ability="AZ")) == 4
    e = entries_of("mtg-ref-603-10a-exiled-from-anywhere-out-of-a-graveyard")
    assert not kinds(e, "trigger", ability="AG") and len(kinds(e, "trigger", ability="AH")) == 3


def test_603_4_you_in_an_intervening_if_is_the_abilitys_controller():
    e = entries_of("mtg-ref-603-4-felidar-stolen-on-the-stack")
    assert kinds(e, "event", type="control") and kinds(e, "event", name="wins") and not kinds(e, "removed")
    e = entries_of("mtg-ref-603-4-you-is-the-thief-and-the-creator")
    assert [t["controller"] for t in kinds(e, "trigger", ability="AC")] == ["P2"] and not kinds(e, "removed")
    assert [t["controller"] for t in kinds(e, "trigger", ability="D1")] == ["P2"]
    assert sum(x["amount"] for x in kinds(e, "event", type="life")) == 2


def test_800_4a_departed_player_abilities_cease_together_then_state_trigger_once():
    e = entries_of("mtg-ref-800-4a-leaves-at-once")
    leaves = find(e, kind="event", type="player_leaves")
    removed = [i for i, x in enumerate(e) if x["kind"] == "removed"]
    assert [e[i]["reason"] for i in removed] == ["player_left"] * 3
    assert removed == list(range(removed[0], removed[0] + 3)) and removed[0] > leaves  # all at once
    again = [t for t in kinds(e, "trigger", ability="A1")]
    assert [t["controller"] for t in again] == ["P2", "P1"]  # once more, for M's owner, after every removal
    assert find(e, kind="trigger", id=again[1]["id"]) > removed[-1]


def test_104_4b_state_trigger_without_a_legal_target_ends_the_game_in_a_draw():
    e = entries_of("mtg-ref-104-4b-state-trigger-without-target")
    assert len(kinds(e, "trigger")) == 1 and kinds(e, "removed", reason="no_target")
    assert e[-1] == {"kind": "game_over", "result": "draw", "reason": "mandatory_loop"}
    assert not kinds(e, "event", name="after")  # the game is over: the script does not go on


def test_115_1_a_player_who_left_is_no_longer_a_legal_target():
    entries = entries_of("mtg-vocab-115-1-target-player-leaves")
    pushed = {e["trigger"]: e["target"] for e in kinds(entries, "stack_push")}
    assert pushed == {"T1": "P3", "T2": "P3", "T3": "P2"}  # every target legal on the stack
    assert kinds(entries, "event", type="player_leaves", player="P3")
    assert [e["amount"] for e in kinds(entries, "event", type="life", player="P2")] == [2]
    assert kinds(entries, "removed", trigger="T1", reason="illegal_target")
    assert not kinds(entries, "event", type="damage")  # A1 did nothing


def test_trigger_filters_read_you_as_the_controller_and_check_type_and_token():
    entries = entries_of("mtg-vocab-filters-you-opponent-type-token")
    fired = {e["ability"]: e["event"] for e in kinds(entries, "trigger")}
    events = {e["id"]: e for e in kinds(entries, "event")}
    assert sorted(fired) == ["A1", "A2", "A3", "A4"]
    assert events[fired["A1"]]["subject"] == "C1"  # a creature of P2's opponent; T1, an artifact, triggers nothing
    assert events[fired["A2"]]["subject"] == "C2"  # K2 is a token and C3 is P1's: once, not three times
    assert (events[fired["A3"]]["player"], events[fired["A3"]]["amount"]) == ("P2", 2)  # not the loss, not P1's gain
    assert events[fired["A4"]]["subject"] == "D2"  # D1 is P1's


def test_one_event_moves_objects_between_any_two_zones_and_each_occurrence_looks_back_where_603_10a_says():
    entries = entries_of("mtg-vocab-603-10a-zone-changes-anywhere")
    group = [e for e in kinds(entries, "event") if e.get("group") == "E1"]
    assert [(e["subject"], e["from"], e["to"]) for e in group] == [
        ("G1", "graveyard", "exile"), ("G2", "graveyard", "hand"), ("Y", "field", "deck"), ("Z", "field", "exile")]
    fired = sorted((e["ability"], e["event"]) for e in kinds(entries, "trigger"))
    assert fired == [("A1", "E1"), ("A1", "E2"), ("A2", "E1"), ("A2", "E4"), ("A3", "E2"), ("A4", "E3"),
                     ("A5", "E5"), ("A6", "E5")]  # A1 sees itself leave; A5 sees its card leave the graveyard


# -- Issue 12, item 1f: how many times an ability triggers ------------------------------------------------------------

def _abilities_triggered(entries, event=None):
    return [e["ability"] for e in kinds(entries, "trigger") if event is None or e["event"] == event]


def test_603_2c_one_or_more_triggers_once_per_event():
    entries = entries_of("mtg-vocab-603-2c-one-or-more-enter")
    together = {e["id"] for e in kinds(entries, "event", type="enter", group="E1")}
    assert len(together) == 3
    first = [e["ability"] for e in kinds(entries, "trigger") if e["event"] in together]
    assert first.count("B") == 1 and first.count("E") == 3
    alone = kinds(entries, "event", type="enter", subject="H4")[0]["id"]
    assert sorted(_abilities_triggered(entries, alone)) == ["B", "E"]


def test_603_2d_additional_times_for_the_controllers_permanents_only_and_never_delayed():
    entries = entries_of("mtg-vocab-603-2d-additional-times")
    first = kinds(entries, "event", type="enter", subject="H1")[0]["id"]
    assert sorted(_abilities_triggered(entries, first)) == ["A1", "A1", "A2", "D"]
    second = kinds(entries, "event", type="enter", subject="H2")[0]["id"]  # M has left: no additional time
    assert sorted(_abilities_triggered(entries, second)) == ["A1", "A2"]


def test_603_2h_once_each_turn_until_the_action_is_taken():
    entries = entries_of("mtg-vocab-603-2h-once-each-turn")
    assert _abilities_triggered(entries).count("O") == 1
    assert _abilities_triggered(entries).count("Q") == 3  # always declined: the action is never taken
    assert [e["amount"] for e in kinds(entries, "event", type="life")] == [1]


def test_603_2_an_ability_resolving_is_an_event_and_a_removed_one_is_not():
    entries = entries_of("mtg-vocab-603-2-ability-resolves")
    resolved = kinds(entries, "event", type="resolved")
    assert [(e["cause"]["resolved"], e["subject"]) for e in resolved] == [("T1", "X"), ("T2", "R"), ("T4", "K")]
    assert [e["event"] for e in kinds(entries, "trigger", ability="W")] == [resolved[0]["id"]]
    assert kinds(entries, "removed", trigger="T3", reason="intervening_if")


def test_durations_this_turn_next_turn_until_your_next_turn_across_turns_and_apnap_from_each_turns_active_player():
    entries = entries_of("mtg-vocab-603-7b-durations-across-turns")
    by_step: dict[int, list[str]] = {}
    step = None
    for e in entries:
        if e["kind"] == "step_begin":
            step = e["step"]
        elif e["kind"] == "trigger" and e["ability"] != "A1":
            by_step.setdefault(step, []).append(e["ability"])
    assert by_step == {0: ["B", "D1", "D3"], 1: ["B", "D2", "D3"], 2: ["B"]}
    pushes = [e["trigger"] for e in kinds(entries, "stack_push")]
    assert pushes[1:4] == ["T4", "T3", "T2"]  # turn 1: P1's first
    assert pushes[4:7] == ["T5", "T7", "T6"]  # turn 2: P2 is active, B first


# -- Issue 12, item 1g: spells as objects on the stack ----------------------------------------------------------------

def test_608_2b_spells_resolve_under_their_cast_triggers_fizzle_and_are_countered():
    entries = entries_of("mtg-vocab-608-2b-spells-on-the-stack")
    order = [(e["kind"], e.get("spell") or e.get("trigger")) for e in entries
             if e["kind"] in ("resolve_begin", "spell_resolve_begin", "spell_removed")]
    assert order[0] == ("resolve_begin", "T1") and order[1] == ("spell_removed", "S1")  # CW first, then S1 fizzles
    assert ("spell_resolve_begin", "S2") not in order  # countered: it never resolves
    assert order[-1] == ("spell_resolve_begin", "S3")  # after CW's last instance
    assert kinds(entries, "event", type="countered", subject="S2")
    assert [e["ability"] for e in kinds(entries, "trigger")].count("CV") == 1
    final = {e["subject"]: e["to"] for e in kinds(entries, "event") if e.get("from") == "stack"}
    assert final == {"S1": "graveyard", "S2": "graveyard", "S3": "field"}
    assert not kinds(entries, "event", type="life", player="P1")  # S2's effect never happened


# -- Issue 22, item 1: new words ------------------------------------------------------------------------------------

def test_ownership_filters_read_the_owner_whoever_controls_the_object():
    entries = entries_of("mtg-vocab-108-3-ownership-filters")
    death = kinds(entries, "event", type="leave", subject="C")[0]["id"]
    assert sorted(_abilities_triggered(entries, death)) == ["G2", "O1", "Y2"]  # not O2: P2 only controlled C
    discard = kinds(entries, "event", type="move", subject="H")[0]["id"]
    assert _abilities_triggered(entries, discard) == ["G1"]


def test_that_many_takes_the_trigger_events_amount_and_nothing_without_one():
    entries = entries_of("mtg-vocab-608-2-that-many")
    caused = [(e["type"], e.get("player"), e["amount"]) for e in kinds(entries, "event") if "resolution" in e["cause"]]
    assert sorted(caused) == [("damage", "P1", 3), ("damage", "P1", 3), ("life", "P1", 3), ("life", "P2", -3)]
    assert not [e for e in kinds(entries, "event") if e["cause"].get("action") == [0, 1]]  # no trigger event


def test_triggers_only_once_each_turn_counts_per_object_apart_from_603_2h():
    entries = entries_of("mtg-vocab-400-7-triggers-once-each-turn")
    entered = {e["subject"]: e["id"] for e in kinds(entries, "event", type="enter")}
    assert sorted(_abilities_triggered(entries, entered["A"]) + _abilities_triggered(entries, entered["B"])) == \
        ["D", "D", "O"]  # O once for the event, D for each occurrence (its action not yet taken, 603.2h)
    assert _abilities_triggered(entries, entered["C"]) == ["O"]  # W came back: a new object (400.7)
    assert _abilities_triggered(entries, entered["E"]) == []


def test_a_spells_delayed_abilities_have_the_spell_as_source_and_its_caster_as_controller():
    entries = entries_of("mtg-vocab-603-7d-spell-creates-delayed")
    created = kinds(entries, "delayed_create")
    assert [(d["ability"], d["spell"], d["source"], d["controller"]) for d in created] == \
        [("DS", "S", "S", "P2"), ("DN", "S", "S", "P2")]
    fired = kinds(entries, "trigger")
    assert sorted(t["ability"] for t in fired) == ["DN", "DS", "DS"]  # C3 died before S resolved; C4 after the turn
    assert {(t["source"], t["controller"]) for t in fired} == {("S", "P2")}


def test_dealt_damage_triggers_on_the_permanent_dealt_damage_not_on_the_source():
    entries = entries_of("mtg-vocab-120-3-dealt-damage")
    damage = {(e["subject"], e.get("target") or e.get("player")): e["id"] for e in kinds(entries, "event", type="damage")}
    assert sorted(_abilities_triggered(entries, damage[("K", "SD")])) == ["AK", "ASD"]  # not AV: SD is P1's
    assert _abilities_triggered(entries, damage[("SD", "P2")]) == []  # SD deals, is not dealt, damage
    assert sorted(_abilities_triggered(entries, damage[("K", "Y")])) == ["AK", "AV"]
    assert [e["amount"] for e in kinds(entries, "event", type="damage") if e["subject"] == "SD"] == [2]  # that much


def test_one_damage_event_with_several_occurrences_triggers_once_per_occurrence():
    entries = entries_of("mtg-vocab-603-2c-damage-occurrences")
    spell, combat = sorted({e["group"] for e in kinds(entries, "event", type="damage")}, key=lambda g: int(g[1:]))
    def triggered(group):
        ids = {e["id"] for e in kinds(entries, "event", type="damage", group=group)}
        return sorted(t["ability"] for t in kinds(entries, "trigger") if t["event"] in ids)
    assert triggered(spell) == ["AW", "AW", "AX", "AZ"]  # per creature dealt damage; 'one or more' once
    assert triggered(combat) == ["AV", "AV", "AZ"]  # per creature dealing damage


def test_a_created_token_enters_the_battlefield():
    entries = entries_of("mtg-vocab-603-6a-token-enters")
    enters = {e["subject"]: e for e in kinds(entries, "event", type="enter")}
    assert sorted(enters) == ["INC", "SOL", "SOL2"] and {e["from"] for e in enters.values()} == {"uncreated"}
    assert enters["SOL"]["group"] == enters["SOL2"]["group"]  # two tokens created at once: one event
    assert _abilities_triggered(entries, enters["INC"]["id"]) == ["AAB"]  # an artifact: not Soul Warden's
    for soldier in ("SOL", "SOL2"):  # once per token (603.2c)
        assert sorted(_abilities_triggered(entries, enters[soldier]["id"])) == ["AAB", "ASW"]
    assert not [t for t in kinds(entries, "trigger") if t["source"] == "FSH"]  # never created
