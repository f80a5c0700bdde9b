"""The command line's edges (tests/test_cli_edges.py) under plain pytest with the plugin: a reader that goes away
(``pytest ... | head -1``) stops pytest's output quietly while the run goes on (its reports written, the rules' exit
code, no INTERNALERROR), and ``--trigger-time-budget -5s`` is told "give a positive duration", not argparse's
"expected one argument"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
BASE = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "--trigger-ruleset", "momon-wonder",
        "--trigger-no-fixtures"]


def _closed_pipe(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    os.close(read)  # the reader went away: every write to stdout meets a closed pipe
    try:
        return subprocess.run([*BASE, f"--basetemp={tmp_path / 'bt'}", *args], stdout=write, stderr=subprocess.PIPE,
                              text=True, env=ENV, cwd=tmp_path, timeout=300)
    finally:
        os.close(write)


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("engine, code, statuses", [
    ("reference", 0, {"mw.queue-fifo": "passed", "mw.no-interruption": "passed"}),
    ("mutant:mw-lifo", 1, {"mw.queue-fifo": "failed", "mw.no-interruption": "passed"}),
], ids=["passing", "failing"])
def test_a_closed_stdout_stops_pytests_output_quietly_and_the_run_writes_its_reports(tmp_path, engine, code,
                                                                                      statuses):
    done = _closed_pipe(tmp_path, "--trigger-engine", engine, "--trigger-rules", "mw.queue-fifo", "mw.no-interruption",
                        "--trigger-max-examples", "20", "--trigger-shrink-seconds", "2",
                        "--trigger-report-json", "r.json", "--junitxml", "r.xml")
    err = done.stderr
    assert done.returncode == code, err  # the rules' code
    assert "INTERNALERROR" not in err and "Traceback" not in err and "Broken pipe" not in err, err
    rules = json.loads((tmp_path / "r.json").read_text("utf-8"))["rules"]
    assert {r["key"]: r["status"] for r in rules} == statuses
    assert (tmp_path / "r.xml").read_text("utf-8").count("<testcase") == 2


@pytest.mark.first_quick
@pytest.mark.parametrize("argv", [["--trigger-time-budget", "-5s"], ["--trigger-time-budget=-5s"],
                                  ["--conformance-time-budget", "-1h30m"]])
def test_a_negative_time_budget_is_said_to_be_one(tmp_path, argv):
    done = subprocess.run([*BASE, "--trigger-rules", "mw.queue-fifo", *argv], capture_output=True, text=True,
                          env=ENV, cwd=tmp_path, timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode == 4, out  # pytest's usage error
    assert "--trigger-time-budget: give a positive duration" in out and "expected one argument" not in out, out


def test_a_time_budget_without_its_value_is_said_to_want_one(tmp_path):
    done = subprocess.run([*BASE, "--trigger-rules", "mw.queue-fifo", "--trigger-time-budget"], capture_output=True,
                          text=True, env=ENV, cwd=tmp_path, timeout=300)
    assert done.returncode == 4 and "--trigger-time-budget: give a duration" in done.stdout + done.stderr
