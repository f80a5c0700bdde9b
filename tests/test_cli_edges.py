"""The command line's edges a fresh user meets: a reader that goes away (``... | head -1``) stops the output
quietly while the command goes on (its report files written, its own exit code); an interrupt during a process
engine's handshake still writes the partial reports; an engine that fails its handshake is exit 1 for ``replay`` and
``check`` as for ``run``; the time budget holds with workers; and a few messages."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from process_support import ENGINES, ENV, REPO

CLI = [sys.executable, "-m", "conformance.commands.cli"]


def _closed_pipe(argv: list[str], cwd: Path) -> tuple[int, str]:
    """Run the command with its stdout a pipe whose reader is gone before it writes; returns its code and stderr."""
    import os

    read, write = os.pipe()
    os.close(read)  # the reader went away (``| head -1`` after its line): every write meets a closed pipe
    try:
        done = subprocess.run([*CLI, *argv], stdout=write, stderr=subprocess.PIPE, text=True, env=ENV, cwd=cwd,
                              timeout=300)
    finally:
        os.close(write)
    return done.returncode, done.stderr


def test_a_closed_stdout_stops_the_output_quietly_and_the_run_still_writes_its_reports(tmp_path):
    code, err = _closed_pipe(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "mw.no-interruption",
                              "--no-fixtures", "--max-examples", "20", "--shrink-seconds", "2",
                              "--report-json", "r.json", "--junit-xml", "r.xml"], tmp_path)
    assert code == 1, err  # what the rules say: mw-lifo fails mw.queue-fifo
    assert "INTERNALERROR" not in err and "Traceback" not in err and "Broken pipe" not in err, err
    statuses = {r["key"]: r["status"] for r in json.loads((tmp_path / "r.json").read_text("utf-8"))["rules"]}
    assert statuses == {"mw.queue-fifo": "failed", "mw.no-interruption": "passed"}
    assert (tmp_path / "r.xml").read_text("utf-8").count("<testcase") == 2


def test_a_closed_stdout_is_exit_0_for_the_listing_commands(tmp_path):
    for argv in (["rules"], ["options"], ["explain", "mw.queue-fifo"]):
        code, err = _closed_pipe(argv, tmp_path)
        assert (code, err) == (0, ""), (argv, code, err)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_during_the_handshake_still_writes_the_partial_reports(tmp_path, signum):
    mark = tmp_path / "started"
    hang = f"{sys.executable} -c \"open({str(mark)!r}, 'w').close(); import time; time.sleep(1000)\""
    proc = subprocess.Popen([*CLI, "run", "--engine-cmd", hang, "--rules", "mw.queue-fifo", "--no-fixtures",
                             "--max-examples", "5", "--report-json", "r.json", "--junit-xml", "r.xml",
                             "--report-jsonl", "r.jsonl"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=ENV, cwd=tmp_path, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not mark.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signum)  # the engine started and hangs: the run is in its handshake
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, (proc.returncode, out, err)
    assert "Traceback" not in err and "during the engine's handshake" in err, err
    name = signal.Signals(signum).name
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert (report["interrupted"], report["not_checked"], report["rules"]) == (name, ["mw.queue-fifo"], [])
    footer = json.loads((tmp_path / "r.jsonl").read_text("utf-8").splitlines()[-1])
    assert (footer["record"], footer["not_checked"]) == ("footer", ["mw.queue-fifo"])
    assert f"not checked: the run was interrupted ({name})" in (tmp_path / "r.xml").read_text("utf-8")


@pytest.mark.parametrize("mode", ["crash", "garbage"])
def test_replay_and_check_exit_1_as_run_does_when_the_engine_fails_its_handshake(tmp_path, mode, capsys):
    from conformance.commands import cli

    bad = f"{sys.executable} {ENGINES / 'bad_start.py'} {mode}"
    fixture = REPO / "fixtures" / "momon-wonder" / "mw-append-after-pending.json"
    assert cli.main(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "--no-fixtures",
                     "--max-examples", "20", "--shrink-seconds", "1", "--failures-dir", str(tmp_path)]) == 1
    (replay_file,) = tmp_path.glob("*.json")
    capsys.readouterr()
    for argv in (["replay", str(replay_file)], ["check", str(fixture)]):
        assert cli.main([*argv, "--engine-cmd", bad]) == 1, argv
        err = capsys.readouterr().err
        assert "failed its handshake" in err and "Traceback" not in err, err
    # An engine command that cannot be started at all is still the user's to fix.
    assert cli.main(["check", str(fixture), "--engine-cmd", str(tmp_path / "no-such-program")]) == 2


class _SlowPool:
    """A pool whose processes take ``seconds`` to start: each task submitted is done after that."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def submit(self, fn):
        from concurrent.futures import Future

        time.sleep(self.seconds)
        done = Future()
        done.set_result(fn())
        return done


def test_exploration_with_workers_leaves_their_start_within_the_time_budget():
    from conformance.running.session import WORKER_START_RESERVE, _minus_worker_start

    deadline = time.time() + 100
    cut = _minus_worker_start(_SlowPool(0.1), 2, deadline)  # the pool took about 0.2 s to start
    assert deadline - WORKER_START_RESERVE * 0.5 < cut <= deadline - WORKER_START_RESERVE * 0.2
    # A budget too short for the reserve still explores half of what is left of it.
    soon = time.time() + 0.4
    cut = _minus_worker_start(_SlowPool(0.1), 2, soon)
    assert time.time() < cut < soon


def test_a_failure_found_after_the_time_budget_is_shrunk_for_a_moment_only():
    from conformance.running.session import SHRINK_PAST_DEADLINE, RunSpec, Session

    session = Session(RunSpec(ruleset="momon-wonder", edition=None, engine="mutant:mw-lifo", options={},
                              max_examples=5, seed=0, shrink_seconds=30.0))
    session.deadline = time.time() - 1  # spent
    assert session.run_config().shrink_seconds == SHRINK_PAST_DEADLINE < 1.0
    session.deadline = time.time() + 5
    assert 4 < session.run_config().shrink_seconds <= 5


@pytest.mark.slow
def test_a_run_with_workers_stopped_by_its_time_budget_still_reports_every_failure(tmp_path):
    """End to end, without a timing assertion (a loaded machine would make one flaky: how near the budget a run ends
    is the reserve's and the late shrink's unit tests' to show, and benchmarks' to measure)."""
    done = subprocess.run([*CLI, "run", "--engine", "mutant:mw-lifo", "--max-examples", "100000", "--time-budget",
                           "6s", "--workers", "2", "--report-json", "r.json"], capture_output=True, text=True,
                          env=ENV, cwd=tmp_path, timeout=300)
    assert done.returncode == 1, done.stderr[-3000:]  # mw-lifo fails three rules
    assert json.loads((tmp_path / "r.json").read_text("utf-8"))["stopped"]["by"] == "time budget"


def test_a_negative_time_budget_is_said_to_be_one(capsys):
    from conformance.commands import cli

    for argv in (["--time-budget", "-5s"], ["--time-budget=-5s"], ["--time-budget", "-1h30m"]):
        assert cli.main(["run", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert "--time-budget: give a positive duration" in err and "expected one argument" not in err, err


def test_a_hanging_handshake_says_what_the_user_can_do():
    from process_support import engine
    from reference_engine.kernel.errors import EngineError

    hanging = engine("bad_start", "hang", start_timeout=0.5)
    try:
        with pytest.raises(EngineError) as raised:
            hanging.info  # noqa: B018 (the handshake)
    finally:
        hanging.close()
    message = str(raised.value)
    assert "start_timeout" not in message and "ProcessEngine" not in message, message
    assert "answer `start` with `started` sooner" in message, message


def test_an_audit_asked_of_another_shard_than_the_first_is_said_to_run_in_shard_1_only(capsys):
    from conformance.commands import cli

    assert cli.main(["run", "--audit", "--shard", "2/2", "--rules", "mw.queue-fifo", "mw.no-interruption",
                     "--no-fixtures", "--max-examples", "3"]) == 0
    assert "--audit runs in shard 1 only: shard 2/2 does not audit" in capsys.readouterr().err
