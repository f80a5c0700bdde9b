"""An engine that fails its handshake (tests/engines/bad_start.py: crashes at start, answers garbage, exits 0 at
once, hangs) is an errored run, not a usage error: with real processes, ``trigger-conformance run`` exits 1 and writes
every report asked for (JSON, JSON Lines, JUnit XML with one ``<error>`` per rule key), each rule errored with the
engine's problem named and its stderr attached; the pytest plugin (plain and under ``-n 2``) errors one test case
per rule key and writes its JUnit XML. An engine that cannot be loaded or started at all (an unknown engine, a command
not found) is still a usage error (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.documents.json_io import validate
from process_support import ENGINES, ENV, REPO
from test_reliability_engines import RULE_COUNT

TESTS = Path(__file__).resolve().parent
# mode -> (the outcome counted in engine_problems, words of the problem, words of the engine's stderr or None)
MODES = {
    "crash": ("crashed", "exited with code 3", "no module named 'rules_core'"),
    "garbage": ("garbage", "not JSON", None),
    "exit0": ("crashed", "exited with code 0", None),
    "hang": ("timed-out", "handshake", None),
}


def _engine(mode: str) -> str:
    return f"{sys.executable} {ENGINES / 'bad_start.py'} {mode}"


def _junit_errors(path: Path) -> dict[str, str]:
    cases = ET.parse(path).getroot().iter("testcase")
    found = {}
    for case in cases:
        error = case.find("error")
        assert error is not None, ET.tostring(case)[:500]
        found[case.get("name").rsplit("[", 1)[-1].rstrip("]")] = error.get("message", "") + (error.text or "")
    return found


# "hang" only waits out the handshake timeout: it runs in the slow set
@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("mode", [pytest.param(m, marks=pytest.mark.slow) if m == "hang" else m for m in sorted(MODES)])
def test_cli_reports_every_rule_errored_when_the_engine_fails_its_handshake(tmp_path, mode):
    outcome, problem, stderr = MODES[mode]
    report, stream, junit = tmp_path / "r.json", tmp_path / "r.jsonl", tmp_path / "r.xml"
    proc = subprocess.run([
        sys.executable, "-m", "conformance.commands.cli", "run", "--engine-cmd", _engine(mode), "--max-examples", "5",
        "--report-json", str(report), "--report-jsonl", str(stream), "--junit-xml", str(junit),
        "--failures-dir", str(tmp_path / "failures")], env=ENV, cwd=tmp_path, capture_output=True, text=True,
        timeout=300)
    assert proc.returncode == 1, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    assert "failed its handshake" in proc.stderr and problem in proc.stderr, proc.stderr[-2000:]
    assert "Traceback (most recent call last)" not in proc.stdout + proc.stderr
    document = json.loads(report.read_text("utf-8"))
    validate(document, "report", "the report")
    assert len(document["rules"]) == RULE_COUNT and document["fixtures"]
    for rule in document["rules"]:
        assert rule["status"] == "errored" and rule["engine_problems"] == {outcome: 1}, rule
        assert rule["first_problem"].startswith("the engine failed its handshake") and problem in rule["first_problem"]
        if stderr:
            assert stderr in rule["engine_stderr"]
    assert {f["status"] for f in document["fixtures"]} == {"errored"}
    records = [json.loads(line) for line in stream.read_text("utf-8").splitlines()]
    assert records[0]["record"] == "header" and records[-1]["record"] == "footer"
    assert records[-1]["summary"]["rules_errored"] == RULE_COUNT
    assert {r["key"] for r in records if r["record"] == "rule"} == {r["key"] for r in document["rules"]}
    errors = _junit_errors(junit)
    assert {r["key"] for r in document["rules"]} <= set(errors)
    assert all(problem in errors[r["key"]] for r in document["rules"])


@pytest.mark.parametrize("engine,message", [
    (["--engine", "mutant:no-such-mutant"], "no bundled mutant"),
    (["--engine-cmd", "no-such-program-xyz --serve"], "cannot start the engine command"),
], ids=["unknown-engine", "no-such-program"])
def test_cli_an_engine_that_cannot_be_loaded_or_started_is_still_a_usage_error(tmp_path, engine, message):
    proc = subprocess.run([sys.executable, "-m", "conformance.commands.cli", "run", *engine, "--junit-xml",
                           str(tmp_path / "r.xml")], env=ENV, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr[-2000:]
    assert not (tmp_path / "r.xml").exists()


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("xdist", [False, True], ids=["plain", "n2"])
def test_pytest_plugin_errors_every_rule_when_the_engine_fails_its_handshake(tmp_path, xdist):
    junit, stream = tmp_path / "r.xml", tmp_path / "r.jsonl"
    proc = subprocess.run([
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'bt'}",
        "--trigger-ruleset", "momon-wonder", "--trigger-engine-cmd", _engine("crash"), "--trigger-no-fixtures",
        "--trigger-report-jsonl", str(stream), "--junitxml", str(junit),
        *(["-n", "2"] if xdist else ["-p", "no:xdist"])], env={**ENV, "PYTHONPATH": f"{REPO}:{TESTS}"},
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, (proc.returncode, proc.stdout[-3000:], proc.stderr[-2000:])
    assert f"{RULE_COUNT} errors" in proc.stdout and "failed its handshake" in proc.stdout
    errors = _junit_errors(junit)
    assert len(errors) == RULE_COUNT
    assert all("exited with code 3" in text and "rules_core" in text for text in errors.values())
    records = [json.loads(line) for line in stream.read_text("utf-8").splitlines()]
    assert records[-1]["record"] == "footer" and records[-1]["summary"] == {"rules_errored": RULE_COUNT}
