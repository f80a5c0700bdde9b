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

from conformance.commands.cli import main as cli_main
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
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}  # tests: plugin_engines
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


def test_the_editors_reports_are_each_written_or_said_and_none_stops_the_others(tmp_path):
    """``rules --matrix`` (as ``lint-rules`` and ``diff``): a report that cannot be written is one line naming it and
    the cause, its text kept (here on stderr), and the next report is still written; the exit code is the command's."""
    out = tmp_path / "out"
    out.mkdir()
    done = _limited(tmp_path, 8192, "rules", "--ruleset", "redemption", "--matrix", "--report-json",
                    str(out / "m.json"), "--report-html", str(out / "m.html"), "--report-markdown", str(out / "m.md"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    for option, name in [("--report-json", "m.json"), ("--report-html", "m.html")]:
        assert f"trigger-conformance: error: {option} {out / name} could not be written: File too large" in done.stderr
        assert not (out / name).exists()
    assert '"command": "rules --matrix"' in done.stderr  # the JSON report, kept
    assert f"report written to {out / 'm.md'}" in done.stdout and (out / "m.md").stat().st_size > 1000


def test_a_file_a_command_cannot_write_is_named_and_a_page_rewritten_is_never_cut(tmp_path):
    page = tmp_path / "docs" / "trace" / "momon-wonder.md"  # the cheapest page to build: the write is the check
    page.parent.mkdir(parents=True)
    page.write_text("kept", "utf-8")
    done = _limited(tmp_path, 2048, "trace-reference", "--ruleset", "momon-wonder", "--write")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.stderr == f"trigger-conformance: could not write {page}: File too large\n"
    assert page.read_text("utf-8") == "kept"
    assert os.listdir(page.parent) == ["momon-wonder.md"]  # no temporary left behind
    stream = tmp_path / "s.jsonl"
    assert cli_main(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "--max-examples", "10",
                     "--no-fixtures", "--shrink-seconds", "2", "--report-jsonl", str(stream)]) == 1
    done = _limited(tmp_path, 1024, "report", str(stream), "--output", str(tmp_path / "r.md"))
    assert done.stderr == f"trigger-conformance: could not write {tmp_path / 'r.md'}: File too large\n"
    assert not (tmp_path / "r.md").exists()


def test_a_problem_scenario_that_cannot_be_written_is_kept_in_the_report_and_printed(tmp_path):
    """A rule errored because the engine raised: its scenario file cannot be written (a full disk), so the scenario
    is printed and kept in the report entry (``problem_scenario_kept``); the exit code says the rules errored."""
    report = tmp_path / "r.json"
    done = _limited(tmp_path, 1024, "run", "--engine", "plugin_engines:RaisesInHelper", "--rules", "mw.queue-fifo",
                    "--max-examples", "3", "--no-fixtures", "--failures-dir", str(tmp_path / "f"), "--report-json",
                    str(report))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert "could not be written: File too large" in done.stdout
    printed = next(line for line in done.stdout.splitlines() if "the scenario it happened on: " in line)
    scenario = json.loads(printed.split("the scenario it happened on: ", 1)[1])
    assert scenario["format"] == "trigger-conformance/scenario/1"
    if not report.exists():  # too large for the limit: on stderr
        text = done.stderr[done.stderr.index("here it is:\n") + len("here it is:\n"):]
        rule = json.loads(text)["rules"][0]
    else:
        rule = json.loads(report.read_text("utf-8"))["rules"][0]
    assert rule["status"] == "errored" and rule["problem_scenario_kept"] == scenario


def test_a_json_lines_report_cut_by_a_full_disk_holds_whole_records_only(tmp_path):
    """The stream stops being written at the first record that does not fit: the file keeps the whole records before
    it, never half a line; the whole stream is on stderr (its current-folder fallback does not fit either)."""
    stream = tmp_path / "r.jsonl"
    done = _limited(tmp_path, 1000, "run", "--rules", "mw.queue-fifo", "mw.resolve-completely", "--max-examples", "5",
                    "--no-fixtures", "--report-jsonl", str(stream))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    kept = stream.read_text("utf-8")
    assert kept.endswith("\n") and [json.loads(line)["record"] for line in kept.splitlines()] == ["header", "explored"]
    assert '{"record": "footer"' in done.stderr  # the whole stream, printed


def test_under_plain_pytest_a_junit_file_that_cannot_be_written_is_one_line_after_the_summary(tmp_path):
    """The plugin without the command: pytest's own JUnit XML writer fails (a full disk); no traceback, pytest's
    summary is printed, the file is written from the verdicts where it can be (here: on stderr, in one place said
    in one line), no half file is left, and the exit code is the rules'."""
    program = ("import resource, sys, pytest\nresource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))\n"
               "sys.exit(pytest.main(sys.argv[1:]))")
    junit = tmp_path / "j.xml"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", program, "-p", "no:cacheprovider", "-p", "no:xdist",
                           "--trigger-ruleset", "momon-wonder", "--trigger-max-examples", "5", "--trigger-rules",
                           "mw.queue-fifo", "--trigger-no-fixtures", "--trigger-engine", "mutant:mw-lifo",
                           "--trigger-shrink-seconds", "2", "--trigger-failures-dir", str(tmp_path / "f"),
                           f"--junitxml={junit}"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "Traceback" not in out and "INTERNALERROR" not in out, out[-3000:]
    assert "1 failed" in done.stdout
    assert f"--junitxml {junit} could not be written: File too large" in out  # pytest's option, named
    assert 'name="test_rule[mw.queue-fifo]"' in out and not junit.exists()


def test_diff_says_the_option_the_user_typed_for_a_json_report_that_cannot_be_written(tmp_path, monkeypatch, capsys):
    """``diff --json FILE`` writes the editor report ``--report-json`` would: a write that fails names ``--json``."""
    import errno

    from conformance.running import recorder

    wanted = tmp_path / "out" / "diff.json"
    wanted.parent.mkdir()
    real = recorder.write_atomically

    def full_disk_there(path, text):
        if Path(path) == wanted:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, text)

    monkeypatch.setattr(recorder, "write_atomically", full_disk_there)
    monkeypatch.chdir(tmp_path)
    code = cli_main(["diff", "--ruleset", "momon-wonder", "--option", "same_event_order=active-player-first",
                     "--option", "same_event_order=object-order", "--exhaustive", "--bound", "depth=1",
                     "--json", str(wanted)])
    err = capsys.readouterr().err
    assert code in (0, 1), err
    assert f"trigger-conformance: error: --json {wanted} could not be written: No space left on device" in err, err
    assert "--report-json" not in err
    assert f"the JSON report is written to {tmp_path / 'diff.json'} instead" in err
    assert json.loads((tmp_path / "diff.json").read_text())["command"] == "diff"
