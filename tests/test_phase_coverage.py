"""Issue 32 item 2: no latent false passes on phase.rs. A rule phase passes is worth something only if phase's stream
(the MTG generator under phase's profile) builds the shapes the rule needs: each rule the profile leaves in is
exercised at least once in 50 scenarios played on phase, and the two mtg.sba-loop shapes phase gets wrong (a
resolution followed by state-based actions whose events trigger more, with the resolution's own triggers waiting;
lethal damage and a loss of the game in one check) are built, the second through the profile-only set piece
``chance_lethal_losses``. Skipped as a whole when the extra is not installed."""

from __future__ import annotations

import collections
import copy

import pytest

phase = pytest.importorskip("phase", reason="phase-python is not installed (pip install '.[phase]')")

from conformance.adapters.registry import load_engine  # noqa: E402
from conformance.running.checking import check_scenario  # noqa: E402
from reference_engine.kernel.registry import builder_for, get_ruleset  # noqa: E402
from reference_engine.kernel.source import SeededSource  # noqa: E402
from reference_engine.mtg.phase import PROFILE  # noqa: E402
from phase_support import OPTIONS  # noqa: E402

EDITION = "2026-02-27"
SAMPLE = 50
# rules whose shapes phase's profile cannot build, with the feature keeping them out (docs/engines/phase.md): their
# verdict on phase is "unexercised", never a pass
OUTSIDE = {"mtg.prevented-no-trigger": "prevented", "mtg.spell-resolution": "spells",
           "mtg.state-trigger": "state_triggers", "mtg.trigger-on-trigger-last": "watchers"}


def _stream():
    build = builder_for("mtg", PROFILE)
    for seed in range(SAMPLE):
        yield copy.deepcopy(build(SeededSource(seed), EDITION)) | {"options": dict(OPTIONS)}


def _checks(engine_name):
    engine = load_engine(engine_name, "mtg")
    invariants = get_ruleset("mtg").invariants_for(EDITION)
    return [check_scenario(engine, doc, invariants) for doc in _stream()]


def sba_loop_shapes(entries):
    """Which of the two mtg.sba-loop shapes a trace has: ``lethal_and_loss`` (one state-based actions check moving a
    creature to the graveyard and a player leaving the game) and ``sba_after_resolution`` (abilities triggered by a
    resolution's events and by a state-based action after it waiting together before anything goes on the stack)."""
    found = set()
    check_of = {e["id"]: e["cause"]["sba"] for e in entries if e["kind"] == "event" and "sba" in e.get("cause", {})}
    by_check = collections.defaultdict(list)
    for e in entries:
        if e["kind"] == "event" and e["id"] in check_of:
            by_check[check_of[e["id"]]].append(e)
    if any(any(e["type"] == "player_leaves" for e in events) and
           any(e["type"] == "leave" and e.get("to") == "graveyard" for e in events) for events in by_check.values()):
        found.add("lethal_and_loss")
    of_resolution = {e["id"] for e in entries if e["kind"] == "event" and "resolution" in e.get("cause", {})}
    waiting = None
    for e in entries:
        if e["kind"] == "resolve_begin":
            waiting = set()
        elif e["kind"] == "trigger" and waiting is not None:
            waiting |= {"resolution"} if e.get("event") in of_resolution else set()
            waiting |= {"sba"} if e.get("event") in check_of else set()
            if waiting == {"resolution", "sba"}:
                found.add("sba_after_resolution")
        elif e["kind"] in ("stack_push", "priority"):
            waiting = None
    return found


@pytest.mark.slow
def test_every_rule_phases_profile_leaves_in_is_exercised_on_phase():
    checks = _checks("phase")
    played = [c for c in checks if c.outcome.status == "trace"]
    assert len(played) >= SAMPLE * 3 // 4, [c.outcome.message for c in checks if c.outcome.status != "trace"]
    exercised = collections.Counter(k for c in played for k, n in c.exercised.items() if n)
    keys = {k for c in checks for k in c.exercised}
    missing = sorted(k for k in keys - set(OUTSIDE) if not exercised[k])
    assert not missing, (missing, exercised)
    assert all(f in PROFILE["exclude"] for f in OUTSIDE.values())
    assert not any(exercised[k] for k in OUTSIDE)


def test_the_two_sba_loop_shapes_are_built_in_phases_stream():
    """Both shapes at least once in 50 (on the reference engine's traces of phase's stream); the lethal-and-loss one
    thanks to the set piece: without it (chance_lethal_losses left in) the stream builds it far less often."""
    shapes = collections.Counter(s for c in _checks("reference") for s in sba_loop_shapes(c.outcome.trace["entries"]))
    assert shapes["lethal_and_loss"] >= 1 and shapes["sba_after_resolution"] >= 1, shapes
    build = builder_for("mtg", {"exclude": [f for f in PROFILE["exclude"] if f != "chance_lethal_losses"]})
    engine = load_engine("reference", "mtg")
    invariants = get_ruleset("mtg").invariants_for(EDITION)
    by_chance = sum("lethal_and_loss" in sba_loop_shapes(check_scenario(
        engine, copy.deepcopy(build(SeededSource(seed), EDITION)) | {"options": dict(OPTIONS)},
        invariants).outcome.trace["entries"]) for seed in range(SAMPLE))
    assert by_chance * 3 <= shapes["lethal_and_loss"], (by_chance, shapes)


@pytest.mark.slow
def test_phase_fails_mtg_sba_loop_on_the_lethal_and_loss_shape_of_its_stream():
    """Violation 6 (docs/engines/phase.md): phase exiles the creature with its losing owner instead of letting it
    die; the stream now builds the shape, so mtg.sba-loop no longer passes phase by default."""
    failures = [c.violations["mtg.sba-loop"][0] for c in _checks("phase") if "mtg.sba-loop" in c.violations]
    assert any("elsewhere than its owner's graveyard" in f for f in failures), failures
