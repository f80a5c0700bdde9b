"""The process adapter's watchdog: every misbehaviour of a process engine gets its own outcome, no run hangs, and the
other scenarios still get their verdicts."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

from conformance.adapters.process import ProcessEngine, StderrTail
from conformance.running.checking import EngineOutcome, check_scenario, play, replay_for_determinism
from reference_engine.kernel.errors import EngineError
from process_support import ENV, ONE_TRIGGER, TWO_TRIGGERS, engine, named, seeded
from reference_engine.kernel.registry import RULESETS

INVARIANTS = RULESETS["momon-wonder"].invariants_for("1.0.0")


def statuses(eng, scenarios):
    return [play(eng, s).status for s in scenarios]


def verdicts(eng, scenarios):
    return [check_scenario(eng, s, INVARIANTS) for s in scenarios]


def _dead(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie waiting for a parent that does not reap is dead too
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def test_statuses_are_described_in_one_place():
    for status in ("trace", "skipped", "errored", "garbage", "crashed", "timed-out", "wrong-protocol",
                   "nondeterministic", "unavailable"):
        assert status in EngineOutcome.STATUSES
    assert EngineOutcome("crashed").misbehaved and not EngineOutcome("trace").misbehaved


def test_crash_on_third_request_is_crashed_with_stderr_and_the_run_goes_on():
    scenarios = [seeded(n) for n in range(7)]
    with engine("crash_third") as eng:
        checks = verdicts(eng, scenarios)
        # runs 1, 2 play; 3 kills the process; a new one plays 4, 5 and dies on its own third (6); 7 plays.
        assert [c.outcome.status for c in checks] == ["trace", "trace", "crashed", "trace", "trace", "crashed", "trace"]
        crashed = checks[2].outcome
        assert "exited with code 3" in crashed.message
        assert "dying on purpose" in crashed.stderr
        assert not checks[2].violations  # a crash is not a rule failure
        assert eng.restarts_used == 2
        assert sum("restart" in line for line in eng.log) == 2


def test_hang_is_timed_out_and_the_whole_process_group_is_killed():
    scenarios = [seeded(1), seeded(2, "hang-here"), seeded(3)]
    with engine("hang", timeout=1.0) as eng:
        started = time.monotonic()
        outcomes = [play(eng, s) for s in scenarios]
        assert time.monotonic() - started < 30
    assert [o.status for o in outcomes] == ["trace", "timed-out", "trace"]
    assert "within 1.0 s" in outcomes[1].message
    child = int(re.search(r"child pid (\d+)", outcomes[1].stderr).group(1))
    deadline = time.monotonic() + 5
    while not _dead(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _dead(child), "the engine's own child survived the kill of its process group"


def test_non_json_output_is_garbage():
    scenarios = [seeded(1), seeded(2, "noisy"), seeded(3)]
    with engine("not_json") as eng:
        outcomes = [play(eng, s) for s in scenarios]
    assert [o.status for o in outcomes] == ["trace", "garbage", "trace"]
    assert "not JSON" in outcomes[1].message and "DEBUG playing" in outcomes[1].message
    assert "write logs to stderr" in outcomes[1].message


def test_wrong_protocol_version_is_its_own_outcome_for_every_scenario():
    with engine("wrong_protocol") as eng:
        with pytest.raises(EngineError) as raised:
            eng.info
        assert raised.value.outcome == "wrong-protocol"
        assert "protocol version 3" in str(raised.value)
        outcomes = [play(eng, seeded(n)) for n in range(3)]
        assert [o.status for o in outcomes] == ["wrong-protocol"] * 3
        assert eng.restarts_used == 0  # restarting would not change its mind


def test_same_request_answered_differently_is_nondeterministic():
    scenario = named(TWO_TRIGGERS, "two-triggers")
    with engine("nondeterministic") as eng:
        first = play(eng, scenario)
        assert first.status == "trace"
        found = replay_for_determinism(eng, scenario, times=2, first=first)
        assert found is not None and found.status == "nondeterministic"
        assert "$.entries[" in found.message and "chosen" in found.message
        # a scenario without choices is answered the same every time
        assert replay_for_determinism(eng, named(ONE_TRIGGER, "one-trigger"), times=3) is None


def test_a_deterministic_engine_is_not_flagged():
    from process_support import server

    scenario = named(TWO_TRIGGERS, "two-triggers")
    with server() as eng:
        assert replay_for_determinism(eng, scenario, times=3) is None


def test_flooding_stdout_is_garbage_and_costs_bounded_memory():
    scenarios = [seeded(1), seeded(2, "flood"), seeded(3)]
    with engine("flood", max_line_bytes=1 << 20, stderr_bytes=4096) as eng:
        outcomes = [play(eng, s) for s in scenarios]
    assert [o.status for o in outcomes] == ["trace", "garbage", "trace"]
    assert "without a line break" in outcomes[1].message and "flooding" in outcomes[1].message
    flood = outcomes[1].stderr
    assert len(flood) < 4096 + 200 and "stderr done" in flood and "earlier bytes of stderr not kept" in flood


def test_protocol_faults_of_a_foreign_engine():
    with_choices = dict(TWO_TRIGGERS, choices={"trigger_order": ["A1", "A2"]})
    scenarios = [named(with_choices, name) for name in
                 ("ok", "skip", "error", "wrong-id", "bad-message", "choose", "exit", "ok-again")]
    with engine("scripted") as eng:
        assert eng.info.name == "scripted"
        outcomes = {s["id"]: play(eng, s) for s in scenarios}
    assert {k: o.status for k, o in outcomes.items()} == {
        "ok": "trace", "skip": "skipped", "error": "errored", "wrong-id": "garbage", "bad-message": "garbage",
        "choose": "skipped", "exit": "crashed", "ok-again": "trace"}
    assert outcomes["skip"].message == "no summons yet" and outcomes["skip"].context == "https://example.org/issues/1"
    assert "KeyError: 'zone'" in outcomes["error"].message and "Traceback" in outcomes["error"].context
    assert "scripted: run" in outcomes["error"].stderr
    assert "must echo" in outcomes["wrong-id"].message
    assert "at $: 'trace' is a required property" in outcomes["bad-message"].message
    # the harness answered from the scenario's choices (A1 before A2): [1, 0] of the offered (A2, A1)
    assert outcomes["choose"].message == "chosen [1, 0]"
    assert "exited with code 0" in outcomes["exit"].message


def test_a_choice_no_ruleset_declares_or_lacking_its_fields_is_garbage_naming_it():
    """The protocol's decision is open (a ruleset's unit declares its own choice kinds): one no installed unit
    declares, or a declared one without the fields it asks, is the engine's fault, said by name."""
    scenarios = [named(TWO_TRIGGERS, name) for name in ("ask-undeclared", "ask-lacking", "ok")]
    with engine("scripted") as eng:
        outcomes = {s["id"]: play(eng, s) for s in scenarios}
    assert [o.status for o in outcomes.values()] == ["garbage", "garbage", "trace"]
    assert "asked a 'coin_flip' choice" in outcomes["ask-undeclared"].message
    assert "known: order, optional, target, occurrence" in outcomes["ask-undeclared"].message
    assert "'trigger' is a required property" in outcomes["ask-lacking"].message


@pytest.mark.parametrize("stream", ["stdout", "stdin"])
def test_a_live_engine_that_closed_its_stdout_or_stdin_is_garbage_and_killed(stream):
    """Issue 23 item 6: an engine that closes a protocol stream but lives on did not die: it broke the protocol."""
    with engine("scripted") as eng:
        first = play(eng, named(TWO_TRIGGERS, f"close-{stream}"))
        # closing stdin is seen when the next request is written
        outcome = play(eng, named(TWO_TRIGGERS, "ok")) if stream == "stdin" else first
        after = play(eng, named(TWO_TRIGGERS, "ok-again"))
    if stream == "stdin":
        assert first.status == "trace"
    assert outcome.status == "garbage", outcome
    assert f"closed its {stream}" in outcome.message and "still running" in outcome.message
    assert "died" not in outcome.message and "process group was killed" in outcome.message
    assert after.status == "trace"
    pid = int(re.search(r"pid (\d+)\]", outcome.message).group(1))
    deadline = time.monotonic() + 5
    while not _dead(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _dead(pid), "the engine that closed its stream was not killed"


def test_an_engines_trace_naming_what_the_scenario_lacks_is_garbage():
    """Issue 23 item 6: a trace may not contradict its scenario: objects, abilities and players it does not have."""
    with engine("scripted") as eng:
        check = check_scenario(eng, named(TWO_TRIGGERS, "ghost"), INVARIANTS)
    assert check.outcome.status == "garbage" and not check.violations
    for words in ("names player P9 in its player", "names object NOPE in its source"):
        assert words in check.outcome.message, check.outcome.message


def test_errored_outcomes_keep_the_stderr_written_before_the_answer(monkeypatch):
    # Regression: the tail used to be read before the drain thread caught up, so under load an errored verdict
    # sometimes came without the engine's stderr. Here the thread lags for sure (it starts late), and every verdict
    # must still carry its own run's line, and only that one.
    drain = StderrTail._drain
    monkeypatch.setattr(StderrTail, "_drain", lambda self: (time.sleep(2.0), drain(self)))
    scenarios = [named(TWO_TRIGGERS, f"error-{n}") for n in range(5)]
    with engine("scripted") as eng:
        outcomes = [play(eng, s) for s in scenarios]
    assert [o.status for o in outcomes] == ["errored"] * len(scenarios)
    for n, outcome in enumerate(outcomes):
        assert outcome.stderr == f"scripted: run {n + 1} error-{n}\n"


def test_a_stderr_tail_is_up_to_date_once_settled():
    read, write = os.pipe()
    tail = StderrTail(os.fdopen(read, "rb", buffering=0), limit=1 << 16)
    try:
        for n in range(200):
            mark = tail.mark
            os.write(write, f"line {n}\n".encode())
            tail.settle(quiet=0)
            assert tail.text(mark) == f"line {n}\n"
    finally:
        os.close(write)
        tail.finish()
    assert not tail._thread.is_alive()


def test_a_successful_run_does_not_wait_for_stderr(monkeypatch):
    settled = []
    monkeypatch.setattr(StderrTail, "settle", lambda self, *a, **k: settled.append(1))
    with engine("scripted") as eng:
        assert [play(eng, named(TWO_TRIGGERS, name)).status for name in ("ok", "error")] == ["trace", "errored"]
    assert settled == [1]  # the errored run only


@pytest.mark.parametrize("bad", [0, -1, 0.0, float("nan"), float("inf"), "5", None, True])
def test_a_timeout_must_be_a_positive_finite_number(bad):
    with pytest.raises(EngineError) as raised:
        ProcessEngine("engine --serve", timeout=bad)
    assert raised.value.outcome == "unavailable"
    assert "timeout must be a positive, finite number of seconds" in str(raised.value) and repr(bad) in str(raised.value)
    with pytest.raises(EngineError):
        ProcessEngine("engine --serve", start_timeout=bad)
    assert ProcessEngine("engine --serve", timeout=2).timeout == 2.0


def test_declined_configuration_skips_with_the_reason():
    with engine("scripted", env={**ENV, "SCRIPTED_DECLINE": "1"}) as eng:
        outcome = play(eng, named(TWO_TRIGGERS, "ok"))
    assert outcome.status == "skipped"
    assert outcome.message == "options not implemented" and outcome.context == "https://example.org/issues/7"


def test_unsupported_ruleset_is_skipped_without_asking():
    with engine("scripted") as eng:
        scenario = dict(named(TWO_TRIGGERS, "ok"), edition="9.9")
        outcome = play(eng, scenario)
    assert outcome.status == "skipped" and "does not implement momon-wonder 9.9" in outcome.message


def test_restart_budget_then_unavailable():
    scenarios = [seeded(n) for n in range(6)]
    with engine("crash_third", restarts=1) as eng:
        got = statuses(eng, scenarios)
    # 1, 2 play; 3 crashes; the one restart plays 4, 5 and crashes on 6; nothing is left for a third process
    assert got == ["trace", "trace", "crashed", "trace", "trace", "crashed"]
    with engine("crash_third", restarts=1) as eng:
        got = statuses(eng, [seeded(n) for n in range(8)])
    assert got[6:] == ["unavailable", "unavailable"]


def test_an_engine_that_dies_at_once_is_crashed_then_unavailable():
    eng = ProcessEngine([sys.executable, "-c", "import sys; sys.stderr.write('no engine here\\n'); sys.exit(5)"],
                        restarts=2, start_timeout=20)
    outcomes = [play(eng, seeded(0)) for _ in range(4)]
    eng.close()
    assert [o.status for o in outcomes] == ["crashed", "crashed", "crashed", "unavailable"]
    assert "handshake" in outcomes[0].message and "exited with code 5" in outcomes[0].message
    assert "no engine here" in outcomes[0].stderr
    assert "restart budget of 2" in outcomes[3].message


def test_a_silent_engine_times_out_in_the_handshake():
    eng = ProcessEngine([sys.executable, "-c", "import time; time.sleep(60)"], start_timeout=1.0, restarts=0)
    with pytest.raises(EngineError) as raised:
        eng.info
    eng.close()
    assert raised.value.outcome == "timed-out" and "handshake" in str(raised.value)


def test_a_missing_program_is_unavailable_with_a_clear_message():
    eng = ProcessEngine("no-such-engine-program-xyz --serve")
    outcome = play(eng, seeded(0))
    assert outcome.status == "unavailable"
    assert "cannot start the engine command no-such-engine-program-xyz --serve" in outcome.message
    with pytest.raises(EngineError):
        ProcessEngine("   ")
    with pytest.raises(EngineError) as raised:
        ProcessEngine("engine 'unbalanced")
    assert "cannot split" in str(raised.value)


def test_command_strings_are_split_without_a_shell(tmp_path):
    marker = tmp_path / "marker"
    # Through a shell this would create the marker; split with shlex it is one odd argument to python -c.
    eng = ProcessEngine(f"{sys.executable} -c 'import sys; sys.exit(0)' ; touch {marker}", restarts=0, start_timeout=10)
    assert play(eng, seeded(0)).status == "crashed"
    eng.close()
    assert not marker.exists()
