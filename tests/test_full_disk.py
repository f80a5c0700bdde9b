"""Issue 34: a full disk (simulated with a file-size limit, RLIMIT_FSIZE, in a subprocess) or a folder that cannot
take a file. A replay file, the JSON Lines report or the JSON report that cannot be written is one line naming the
file and the cause; the verdicts and the counterexamples survive (printed, and in the report entry's
``replay_error``); no traceback; the exit code says what the rules said; the JSON report's fallback never
overwrites a file already there and does not blame a removed folder for a full disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conformance.running.recorder import write_somewhere

ROOT = Path(__file__).resolve().parents[1]
LIMITED = """
import resource, sys
from conformance.commands import cli
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.exit(cli.main(sys.argv[2:]))
"""


def _limited(tmp_path: Path, limit: int, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", LIMITED, str(limit), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_replay_file_that_cannot_be_written_keeps_the_failure_and_its_counterexample(tmp_path):
    done = _limited(tmp_path, 4096, "run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo",
                    "--max-examples", "30", "--no-fixtures", "--shrink-seconds", "5",
                    "--failures-dir", str(tmp_path / "failures"), "--report-json", str(tmp_path / "r.json"))
    out = done.stdout + done.stderr
    assert done.returncode == 1, out  # the rule failed: that is what the exit code says
    assert "Traceback" not in out and "a bug in the suite" not in out
    assert "FAIL" in done.stdout and "mw.queue-fifo" in done.stdout
    assert "could not be written: File too large" in done.stdout and "scenario:" in done.stdout
    assert "the replay file " + str(tmp_path / "failures") in done.stdout
    report = tmp_path / "r.json"
    if report.exists():  # small enough for the limit, or else printed to stderr
        rule = json.loads(report.read_text("utf-8"))["rules"][0]
        assert rule["status"] == "failed" and "File too large" in rule["failure"]["replay_error"]
        assert rule["failure"]["scenario"]


def test_a_json_lines_report_that_cannot_be_written_is_one_line_and_the_run_goes_on(tmp_path):
    done = _limited(tmp_path, 300, "run", "--rules", "mw.queue-fifo", "--max-examples", "5", "--no-fixtures",
                    "--report-jsonl", str(tmp_path / "r.jsonl"))
    out = done.stdout + done.stderr
    assert done.returncode == 0, out  # every rule passed
    assert "Traceback" not in out
    assert f"--report-jsonl {tmp_path / 'r.jsonl'} could not be written: File too large" in done.stderr
    assert "PASS" in done.stdout and "1 rule" in done.stdout  # the summary is printed


def test_the_fallback_never_overwrites_a_file_and_names_the_real_cause(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "R.json").write_text("kept", "utf-8")
    folder = tmp_path / "full"
    folder.mkdir()
    (folder / "R.json").mkdir()  # a target that cannot be written, its folder still there (as on a full disk)
    went = write_somewhere(str(folder / "R.json"), "{}", "JSON report", "--report-json")
    err = capsys.readouterr().err
    assert (tmp_path / "R.json").read_text("utf-8") == "kept"
    assert went == str(tmp_path / "R-1.json") and (tmp_path / "R-1.json").read_text("utf-8") == "{}"
    assert "was its folder removed" not in err and "folder was removed" not in err
    assert err.count("\n") == 1 and str(folder / "R.json") in err
    went = write_somewhere(str(tmp_path / "gone" / "R.json"), "{}", "JSON report", "--report-json")
    assert "its folder was removed" in capsys.readouterr().err and went == str(tmp_path / "R-2.json")


def test_a_junit_file_pytest_cannot_write_is_written_from_the_verdicts(tmp_path):
    import xml.etree.ElementTree as ET

    junit = tmp_path / "j.xml"
    done = _limited(tmp_path, 300, "run", "--rules", "mw.queue-fifo", "--max-examples", "5", "--no-fixtures",
                    "--junit-xml", str(junit))
    out = done.stdout + done.stderr
    assert done.returncode == 0 and "Traceback" not in out and "INTERNALERROR" not in out, out
    cases = list(ET.fromstring(junit.read_text("utf-8")).iter("testcase"))  # whole, not cut at the limit
    assert [case.get("name") for case in cases] == ["test_rule[mw.queue-fifo]"]


def test_a_junit_file_that_cannot_be_written_anywhere_is_one_line_and_the_exit_code_is_the_rules(tmp_path):
    done = _limited(tmp_path, 1024, "run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo",
                    "--max-examples", "30", "--no-fixtures", "--shrink-seconds", "5", "--junit-xml",
                    str(tmp_path / "j.xml"))
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "Traceback" not in out and "INTERNALERROR" not in out, out
    lines = [line for line in done.stderr.splitlines() if "could not be written" in line]
    assert lines and lines[0].startswith(f"trigger-conformance: error: --junit-xml {tmp_path / 'j.xml'} could not be "
                                         f"written: File too large"), done.stderr
    assert "FAIL" in done.stdout and "mw.queue-fifo" in done.stdout
