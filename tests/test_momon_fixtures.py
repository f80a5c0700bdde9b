"""The Momon Wonder golden scenarios: the reference engine reproduces each expected trace, and each expected trace
shows, in so many words, the outcome its rule text describes."""

from __future__ import annotations

import pytest

from conformance.running.fixtures import check_fixture
from conformance.documents.fixture_files import bundled_fixtures
from reference_engine.momon_wonder.engines.reference import MomonWonderEngine
from reference_engine.kernel.registry import get_ruleset

RULESET = get_ruleset("momon-wonder")
FIXTURES = {f.id: f for f in bundled_fixtures("momon-wonder")}


@pytest.mark.parametrize("fixture_id", sorted(FIXTURES))
def test_reference_engine_reproduces_fixture(fixture_id):
    result = check_fixture(MomonWonderEngine(), FIXTURES[fixture_id], RULESET.invariants)
    assert result.status == "passed", result.messages


def test_every_rule_key_has_a_fixture():
    covered = {key for f in FIXTURES.values() for key in f.rule_keys}
    assert {inv.key for inv in RULESET.invariants} <= covered


def test_fixture_rule_keys_exist():
    known = {inv.key for inv in RULESET.invariants}
    for fixture in FIXTURES.values():
        assert set(fixture.rule_keys) <= known, fixture.id


# -- What each expected trace shows ---------------------------------------------------------------------------


def course(fixture_id: str) -> list[str]:
    """The work as it was processed: 'A1@W' for a resolved ability, 'open X'/'close X' for the package of a summon."""
    entries = FIXTURES[fixture_id].expected_trace["entries"]
    triggers = {e["id"]: e for e in entries if e["kind"] == "trigger"}
    events = {e["id"]: e for e in entries if e["kind"] == "event"}
    summoned = {e["package"]: events[e["event"]]["subject"] for e in entries if e["kind"] == "package_create"}
    out = []
    for e in entries:
        if e["kind"] == "resolve_begin":
            out.append(f"{triggers[e['trigger']]['ability']}@{triggers[e['trigger']]['source']}")
        elif e["kind"] in ("package_open", "package_close"):
            out.append(f"{e['kind'].split('_')[1]} {summoned[e['package']]}")
    return out


def kinds(fixture_id: str) -> list[str]:
    return [e["kind"] for e in FIXTURES[fixture_id].expected_trace["entries"]]


def test_trigger_waits_for_the_action():
    k = kinds("mw-trigger-waits-for-action")
    assert k.index("action_end") < k.index("resolve_begin")
    assert course("mw-trigger-waits-for-action") == ["A1@W", "A2@V", "A2@V"]


def test_sbc_defeats_before_the_next_ability():
    entries = FIXTURES["mw-sbc-after-each-ability"].expected_trace["entries"]
    defeated = next(i for i, e in enumerate(entries) if e["kind"] == "event" and e["type"] == "defeated")
    first_end = next(i for i, e in enumerate(entries) if e["kind"] == "resolve_end")
    second_begin = [i for i, e in enumerate(entries) if e["kind"] == "resolve_begin"][1]
    assert first_end < defeated < second_begin
    assert course("mw-sbc-after-each-ability") == ["A1@W", "A2@W", "A3@V"]


def test_once_per_event_gives_three_entries():
    assert course("mw-once-per-event") == ["open X", "A3@X", "A1@W", "A2@W", "close X"]


def test_groups_resolve_in_event_order_despite_preferences():
    assert course("mw-groups-in-chronological-order") == ["A1@W", "A2@V"]


def test_active_player_first_then_turn_order():
    assert course("mw-same-event-active-player-first") == ["A3@B", "A2@B", "A4@C", "A1@A"]


def test_package_sits_between_earlier_and_later_triggers():
    assert course("mw-package-keeps-summon-position") == ["A1@W", "open X", "A3@X", "close X", "A2@W"]


def test_failed_summon_makes_no_package():
    assert "package_create" not in kinds("mw-failed-summon-no-package")
    assert course("mw-failed-summon-no-package") == ["A1@W"]


def test_package_phases_in_order_and_outer_trigger_waits():
    k = [x for x in kinds("mw-package-completes-in-order") if x not in ("enqueue", "trigger", "event", "choice")]
    start = k.index("package_open")
    assert k[start:start + 10] == [
        "package_open", "on_summon_begin", "resolve_begin", "resolve_end", "sbc_check", "on_summon_end",
        "snatch_check_begin", "snatch_check_end", "sbc_check", "post_snatch_begin"]
    assert course("mw-package-completes-in-order") == ["open X", "A3@X", "A2@W", "close X", "A1@W"]


def test_nested_packages_three_deep_are_deferred():
    assert course("mw-nested-packages-three-deep") == [
        "open X", "A1@X", "A4@W", "close X", "open Y", "A2@Y", "close Y", "open Z", "A3@Z", "close Z"]


def test_deferred_group_stays_out_of_the_package():
    assert course("mw-deferred-groups-stay-out") == ["open X", "A2@X", "A1@W", "close X", "A1@W"]


def test_snatch_check_triggers_in_post_snatch_processing():
    assert course("mw-triggers-during-snatch-check") == ["open X", "A2@X", "A1@W", "close X", "open Y", "A3@Y", "close Y"]
    k = kinds("mw-triggers-during-snatch-check")
    assert k.index("post_snatch_begin") < k.index("resolve_begin", k.index("snatch_check_end"))


def test_new_trigger_appended_after_pending_work():
    assert course("mw-append-after-pending") == ["A1@W", "A2@W", "A3@V"]


def test_package_waits_for_the_resolving_ability():
    assert course("mw-no-package-interrupts") == ["A1@W", "open X", "A2@X", "close X", "A3@V"]


def test_remedy_front_only_in_sanctioned_play():
    assert course("mw-remedy-front-sanctioned") == ["A2@V", "A1@W"]
    assert course("mw-remedy-not-front-casual") == ["A1@W", "A2@V"]


def test_everything_finishes_before_the_step_advances():
    entries = FIXTURES["mw-empty-before-advance"].expected_trace["entries"]
    advance = next(i for i, e in enumerate(entries) if e["kind"] == "step_advance")
    first_step = [e for e in entries[:advance] if e["kind"] in ("resolve_begin", "package_close")]
    assert len(first_step) == 4  # A1, A2 (from A1's signal b), X's package closed, A3 inside it


def test_resolution_performs_every_action():
    entries = FIXTURES["mw-resolve-completely"].expected_trace["entries"]
    caused = [e["type"] for e in entries if e["kind"] == "event" and e["cause"].get("resolution") == "T1"]
    assert caused == ["summon", "summon_failed", "signal"]
    assert course("mw-resolve-completely") == ["A1@W", "A2@W", "open X", "close X"]


def test_defeated_object_triggers_its_own_ability():
    assert course("mw-defeat-looks-back") == ["A1@V", "A2@W"]


def test_issue_9_small_inputs_resolve_in_the_required_order():
    assert course("mw-sbc-defeat-before-next-ability") == ["A1@W", "A2@W", "K@M", "C@V"]
    assert course("mw-on-summon-before-snatch-check") == ["open S", "O@S", "G@U", "Z@V", "close S"]
    k = kinds("mw-on-summon-before-snatch-check")
    g_resolves = [i for i, e in enumerate(FIXTURES["mw-on-summon-before-snatch-check"].expected_trace["entries"])
                  if e["kind"] == "resolve_begin"][1]
    assert g_resolves < k.index("on_summon_end") < k.index("snatch_check_begin")


def test_removed_triggers_leave_for_momon_reasons_only():
    entries = FIXTURES["mw-removal-reasons"].expected_trace["entries"]
    assert [(e["trigger"], e["reason"]) for e in entries if e["kind"] == "removed"] == [
        ("T2", "intervening_if"), ("T3", "declined")]
    assert course("mw-removal-reasons") == ["A1@W"]
    entries = FIXTURES["mw-remedy-optional-chosen-on-trigger"].expected_trace["entries"]
    assert [e["kind"] for e in entries if e["kind"] in ("choice", "removed", "enqueue", "resolve_begin")] == [
        "choice", "removed"]


def test_one_summon_of_two_monsters_is_one_event_with_one_package():
    entries = FIXTURES["mw-one-summon-several-monsters"].expected_trace["entries"]
    summons = [e for e in entries if e["kind"] == "event" and e["type"] == "summon"]
    assert [e["subject"] for e in summons] == ["X", "Y"] and {e["group"] for e in summons} == {summons[0]["id"]}
    assert kinds("mw-one-summon-several-monsters").count("package_create") == 1
    assert course("mw-one-summon-several-monsters") == ["open X", "OX@X", "OY@Y", "AY@Y", "B@W", "close X"]
