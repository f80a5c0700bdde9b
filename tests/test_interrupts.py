"""Issue 11 (interrupts) with real signals on real runs: whatever the entry point (``trigger-conformance run`` with
one worker or two, the pytest plugin with and without ``-n 2``) and whenever the signal comes (while the stream is
explored, or while rules are concluded), the run keeps every verdict known so far (a failure already found while
exploring is reported failed, unshrunk), writes a valid partial report and a JSON Lines footer marked interrupted,
kills its engines and workers, leaves no temporary folder and no 0-byte file, and exits 130 (SIGINT) or 143
(SIGTERM).

The timing is made deterministic by tests/engines/slow_after.py: the faulty engine mw-lifo at full speed for its
first scenarios (enough to fail three rules), then sleeping ten minutes per scenario, ignoring signals; the test
signals the harness once every exploring engine has gone slow."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.documents.json_io import validate
from process_support import ENGINES, ENV, REPO
from test_reliability_engines import RULE_COUNT, wait_dead

TESTS = Path(__file__).resolve().parent
ENGINE = f"{sys.executable} {ENGINES / 'slow_after.py'}"
# The rules mw-lifo fails within the first 8 scenarios of seed 0's stream.
FOUND_EARLY = {"mw.queue-fifo", "mw.package-position", "mw.append-after-pending"}


def _start(tmp_path: Path, argv: list[str], extra_env: dict | None = None) -> tuple[subprocess.Popen, dict]:
    folders = {name: tmp_path / name for name in ("pids", "marks", "tmp", "out", "work")}
    for folder in folders.values():
        folder.mkdir()
    env = {**ENV, "PIDS_DIR": str(folders["pids"]), "SLOW_MARKS": str(folders["marks"]),
           "TMPDIR": str(folders["tmp"]), "SLOW_AFTER": "8", **(extra_env or {})}
    # As from a terminal: a shell running the tests in the background (``cmd &``, no job control) starts them with
    # SIGINT ignored, which a child inherits and Python then keeps ignoring; the harness under test must see it.
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=str(folders["work"]), preexec_fn=_default_sigint)
    return proc, folders


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_slow(proc: subprocess.Popen, marks: Path, engines: int) -> None:
    deadline = time.monotonic() + 120
    while len(list(marks.iterdir())) < engines:
        if proc.poll() is not None or time.monotonic() > deadline:
            out, err = proc.communicate()
            raise AssertionError(f"the run ended (or took 2 min) before its engines went slow:\n{out[-2000:]}"
                                 f"\n{err[-3000:]}")
        time.sleep(0.05)
    time.sleep(0.3)  # the harness is now waiting for an answer that will not come for 10 minutes


def _stop(proc: subprocess.Popen, signum: int) -> tuple[str, str]:
    proc.send_signal(signum)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the harness did not stop within 60 s of the signal") from None
    assert proc.returncode == 128 + signum, (proc.returncode, out[-3000:], err[-3000:])
    assert "Traceback (most recent call last)" not in out + err, out[-3000:] + err[-3000:]
    return out, err


def _check_stream(path: Path, name: str) -> list[dict]:
    records = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert records[0]["record"] == "header" and records[-1]["record"] == "footer"
    footer = records[-1]
    assert footer["interrupted"] == name and footer["stopped"] == name  # "" only for a run not stopped early
    rules = {r["key"]: r for r in records if r["record"] == "rule"}
    assert FOUND_EARLY <= {k for k, r in rules.items() if r["status"] == "failed"}, sorted(rules)
    for key in FOUND_EARLY:
        assert rules[key]["failure"]["messages"] and rules[key]["failure"]["scenario"]["objects"]
    assert len(rules) + len([k for k in footer["not_checked"] if k.startswith("mw.")]) == RULE_COUNT
    assert footer["summary"]["rules_failed"] >= len(FOUND_EARLY)
    # Issue 23 item 3: every rule explored keeps what it learnt: none is "not checked", and a rule with no violation
    # so far is partial (never passed), with the scenarios it was explored on counted.
    assert len(rules) == RULE_COUNT and not [k for k in footer["not_checked"] if k.startswith("mw.")], footer
    partial = [r for r in rules.values() if r["status"] == "partial"]
    assert partial and footer["summary"]["rules_partial"] == len(partial)
    assert all(r["scenarios_run"] > 0 and "failure" not in r for r in partial), partial[:1]
    return records


def _check_junit(path: Path, name: str) -> None:
    """The JUnit XML of an interrupted run: each failure found a <failure>, each rule not checked <skipped>."""
    import xml.etree.ElementTree as ET

    cases = {c.get("name"): c for c in ET.parse(path).getroot().iter("testcase")}
    rules = {n[len("test_rule["):-1]: c for n, c in cases.items() if n.startswith("test_rule[")}
    assert len(rules) == RULE_COUNT, sorted(rules)
    for key in FOUND_EARLY:
        assert rules[key].find("failure") is not None, ET.tostring(rules[key])[:800]
    skipped = [c.find("skipped") for c in rules.values() if c.find("skipped") is not None]
    assert skipped and all(f"interrupted ({name})" in s.get("message") for s in skipped)
    assert any("no violation in" in s.get("message") for s in skipped)  # a partial verdict: never a pass


def _check_replay_files(folder: Path, stream: Path) -> None:
    """Every failure found is in a replay file (unshrunk), named in its verdict, that `replay` can read."""
    from conformance.documents.json_io import read_json

    records = [json.loads(line) for line in stream.read_text("utf-8").splitlines()]
    failed = [r for r in records if r["record"] == "rule" and r["status"] == "failed"]
    assert {r["key"] for r in failed} >= FOUND_EARLY
    for rule in failed:
        path = Path(rule["failure"]["replay_file"])
        assert path.parent == folder and "replay" in rule["failure"]["replay_command"]
        document = read_json(str(path), "replay")
        assert document["rule_key"] == rule["key"] and document["scenario"] == rule["failure"]["scenario"]


def _check_leftovers(folders: dict) -> None:
    assert list(folders["tmp"].iterdir()) == [], "a temporary folder was left behind"
    empty = [p for folder in (folders["out"], folders["work"]) for p in folder.rglob("*")
             if p.is_file() and p.stat().st_size == 0]
    assert empty == [], f"0-byte files left: {empty}"
    started = [int(p.name) for p in folders["pids"].iterdir()]
    assert started and wait_dead(started) == [], "an engine outlived the harness"


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("workers,signum", [(1, signal.SIGTERM), (2, signal.SIGINT)], ids=["1-SIGTERM", "2-SIGINT"])
def test_cli_interrupted_while_exploring_keeps_the_failures_found(tmp_path, workers, signum):
    name = signal.Signals(signum).name
    report, stream = tmp_path / "out" / "report.json", tmp_path / "out" / "run.jsonl"
    junit = tmp_path / "out" / "junit.xml"
    proc, folders = _start(tmp_path, [
        sys.executable, "-m", "conformance.commands.cli", "run", "--engine-cmd", ENGINE, "--max-examples", "40",
        "--no-fixtures", "--report-json", str(report), "--report-jsonl", str(stream), "--workers", str(workers),
        "--junit-xml", str(junit), "--failures-dir", str(tmp_path / "out" / "failures")])
    _wait_slow(proc, folders["marks"], workers)
    out, err = _stop(proc, signum)
    assert f"interrupted by {name}" in err
    assert "Exit:" not in err, err  # the command's own message only, not pytest.exit's
    document = json.loads(report.read_text("utf-8"))
    validate(document, "report", "the partial report")
    assert document["interrupted"] == name
    failed = [r for r in document["rules"] if r["status"] == "failed"]
    assert FOUND_EARLY <= {r["key"] for r in failed} and len(document["rules"]) == RULE_COUNT
    assert document["not_checked"] == [] and {r["status"] for r in document["rules"]} == {"failed", "partial"}
    assert all("interrupted before this failure" in r["failure"]["messages"][-1] for r in failed)
    assert all(r["failure"]["actual_trace"] for r in failed)  # the trace that violated the rule
    assert document["summary"]["rules_partial"] == RULE_COUNT - len(failed)
    # The console: each partial verdict's row, the failures found with their replay commands, the counts, and
    # where every report went (the JSON Lines file too).
    assert "PARTIAL" in out and "0 of" not in err and f"the JSON Lines report is in {stream}" in err, err
    assert f"{RULE_COUNT - len(failed)} PARTIAL" in err and "Reproduce with: trigger-conformance replay" in out
    _check_stream(stream, name)
    _check_junit(junit, name)
    _check_replay_files(tmp_path / "out" / "failures", stream)
    _check_leftovers(folders)


@pytest.mark.parametrize("xdist,signum", [(False, signal.SIGTERM), (False, signal.SIGINT), (True, signal.SIGINT),
                                          (True, signal.SIGTERM)],
                         ids=["plain-SIGTERM", "plain-SIGINT", "n2-SIGINT", "n2-SIGTERM"])
@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
def test_pytest_plugin_interrupted_while_exploring_keeps_the_failures_found(tmp_path, xdist, signum):
    stream = tmp_path / "out" / "run.jsonl"
    proc, folders = _start(tmp_path, [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'out' / 'bt'}",
        "--trigger-ruleset", "momon-wonder", "--trigger-engine-cmd", ENGINE, "--trigger-max-examples", "40",
        "--trigger-no-fixtures", "--trigger-report-jsonl", str(stream), "--junitxml", str(tmp_path / "out" / "j.xml"),
        "--trigger-failures-dir", str(tmp_path / "out" / "failures"), *(["-n", "2"] if xdist else ["-p", "no:xdist"])],
        {"PYTHONPATH": f"{REPO}:{TESTS}"})
    _wait_slow(proc, folders["marks"], 2 if xdist else 1)
    out, err = _stop(proc, signum)
    assert f"the JSON Lines report is in {stream}" in out + err and "PARTIAL" in out + err, out[-3000:] + err[-3000:]
    _check_stream(stream, signal.Signals(signum).name)
    _check_junit(tmp_path / "out" / "j.xml", signal.Signals(signum).name)
    _check_replay_files(tmp_path / "out" / "failures", stream)
    _check_leftovers(folders)


@pytest.mark.slow  # a long check; its kind keeps a fast check in the quick suite (issue 26)
def test_pytest_plugin_interrupted_while_concluding_keeps_every_verdict(tmp_path):
    """Exploration finishes (the engine slows only after the whole stream and the first replays), then a signal
    comes while rules are concluded on two pytest-xdist workers."""
    stream = tmp_path / "out" / "run.jsonl"
    proc, folders = _start(tmp_path, [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'out' / 'bt'}",
        "--trigger-ruleset", "momon-wonder", "--trigger-engine-cmd", ENGINE, "--trigger-max-examples", "10",
        "--trigger-no-fixtures", "--trigger-report-jsonl", str(stream), "--trigger-shrink-seconds", "1",
        "--junitxml", str(tmp_path / "out" / "j.xml"),
        "--trigger-failures-dir", str(tmp_path / "out" / "failures"), "-n", "2"],
        {"PYTHONPATH": f"{REPO}:{TESTS}", "SLOW_AFTER": "14"})
    _wait_slow(proc, folders["marks"], 1)
    out, err = _stop(proc, signal.SIGTERM)
    assert f"the JSON Lines report is in {stream}" in out + err, out[-3000:] + err[-3000:]
    records = _check_stream(stream, "SIGTERM")
    assert records[1]["record"] == "explored" and records[1]["scenarios"] == 10 and records[1]["stopped"] == ""
    _check_junit(tmp_path / "out" / "j.xml", "SIGTERM")
    _check_replay_files(tmp_path / "out" / "failures", stream)
    _check_leftovers(folders)


@pytest.mark.parametrize("where", ["fsync", "replace"])
def test_reports_and_replay_files_are_written_atomically(tmp_path, monkeypatch, where):
    """A write interrupted at any point (here: a KeyboardInterrupt while the data is flushed, or just before the
    rename) leaves the old file whole and no temporary file beside it; a finished write replaces it at once. The
    report, the replay files and the per-rule results are all written this way (conformance.documents.json_io.write_json)."""
    import conformance.documents.json_io as documents

    target = tmp_path / "report.json"
    documents.write_json(target, {"old": True})

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(documents.os, where, interrupted)
    with pytest.raises(KeyboardInterrupt):
        documents.write_json(target, {"new": True})
    monkeypatch.undo()
    assert json.loads(target.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]
    documents.write_json(target, {"new": True})
    assert json.loads(target.read_text()) == {"new": True} and [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_partial_verdict_reads_as_no_pass_in_every_report(tmp_path):
    """Issue 23 item 3, in-process: a recorder interrupted after exploring keeps each rule's partial verdict ("no
    violation in N scenarios", its exercised count) in the JSON report (valid, status partial), the JSON Lines
    stream, Markdown, HTML and JUnit (a <skipped> case, never a pass); only what was not explored is not checked."""
    from conformance.running.recorder import RunRecorder
    from conformance.reports.render import from_report, html, junit, load, markdown
    from conformance.running.session import RunSpec, Session

    session = Session(RunSpec(max_examples=6, rules=("mw.queue-fifo", "mw.remedy-front"), engine="reference"))
    stream = tmp_path / "run.jsonl"
    recorder = RunRecorder(session, session.handshake(), str(stream))
    recorder.start()
    recorder.explore(1)
    recorder.interrupted = "SIGINT"
    recorder.finish()
    report = recorder.report()
    validate(report, "report", "the partial report")
    assert [r["status"] for r in report["rules"]] == ["partial", "partial"] and report["summary"] == {
        "rules_partial": 2} and all(r["scenarios_run"] == 6 for r in report["rules"])
    assert report["not_checked"] == [f.id for f in session.fixtures()]  # never explored: not checked
    sentence = f"no violation in 6 scenarios ({report['rules'][0]['scenarios_exercised']} exercised it)"
    for run in (load(str(stream)), from_report(report, session.rule_keys())):
        assert run["rules"][0]["status"] == "partial"
        assert "PARTIAL" in markdown(run) and sentence in markdown(run) and "PASS" not in markdown(run)
        assert "<td class=status>PARTIAL</td>" in html(run) and sentence in html(run)
        import xml.etree.ElementTree as ET

        cases = {c.get("name"): c for c in ET.fromstring(junit(run).split("\n", 1)[1]).iter("testcase")}
        skipped = cases["test_rule[mw.queue-fifo]"].find("skipped")
        assert skipped is not None and sentence in skipped.get("message") and "interrupted (SIGINT)" in skipped.get(
            "message")
    session.close()


def test_a_signal_while_a_report_is_written_waits_for_the_whole_file(tmp_path, monkeypatch):
    """Issue 23 item 6: a signal that comes while the final report is written (here: SIGINT and SIGTERM sent while
    its data is flushed) no longer costs the report: the write finishes, the file is whole and renamed in place,
    and the run's handler then gets the signal (a KeyboardInterrupt, the run stops as after any signal)."""
    import os as real_os

    import conformance.documents.json_io as documents
    from conformance.running.interrupts import Interrupts

    target = tmp_path / "report.json"
    fsync = real_os.fsync

    def signalled(fd):
        real_os.kill(real_os.getpid(), signal.SIGINT)
        real_os.kill(real_os.getpid(), signal.SIGTERM)
        time.sleep(0.05)  # delivered meanwhile: held until the file is whole
        fsync(fd)

    interrupts = Interrupts(forward=False).start()
    try:
        monkeypatch.setattr(documents.os, "fsync", signalled)
        with pytest.raises(KeyboardInterrupt):
            documents.write_json(target, {"whole": True, "rules": list(range(1000))})
        monkeypatch.undo()
        assert interrupts.received == "SIGINT"
    finally:
        interrupts.stop()
    assert json.loads(target.read_text())["whole"] is True
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left
