"""Issue 23, item 1: an in-process engine that raises is reported with its traceback cut to the engine's own frames
(file:line; the harness's and the standard library's frames left out), once per problem and not once per rule, on
the console, in the JSON report (validated), the Markdown and the HTML; ``check`` and ``replay`` show it too; a
process engine's stderr tail is shown the same way."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conformance.commands import cli
from conformance.running.checking import play
from conformance.documents.json_io import validate
from conformance.reports.render import html, load, markdown
from conformance.reports.text import not_passed
from conformance.documents.scenarios import prepare_scenario
from process_support import ENGINES, TWO_TRIGGERS
from plugin_engines import RaisesInHelper

TESTS = Path(__file__).resolve().parent
RULES = ["mw.once-per-event", "mw.queue-fifo", "mw.remedy-front"]  # in the ruleset's order
HELPER_LINE = next(n for n, line in enumerate((TESTS / "plugin_engines.py").read_text().splitlines(), 1)
                   if 'obj["zone_name"]' in line)


def _frames(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if ".py:" in line]


def test_play_cuts_the_traceback_to_the_engine_s_own_frames():
    _, scenario = prepare_scenario(json.loads(json.dumps(TWO_TRIGGERS)), "two triggers")
    outcome = play(RaisesInHelper(), scenario)
    assert outcome.status == "errored"
    assert outcome.message == f"KeyError: 'zone_name' (raised at {_shown('plugin_engines.py')}:{HELPER_LINE} in " \
                              f"<dictcomp>)"
    frames = _frames(outcome.context)
    assert outcome.context.splitlines()[0] == "KeyError: 'zone_name'"
    assert frames and all("plugin_engines.py:" in f for f in frames), outcome.context  # no harness, no json module
    assert [f.rsplit(" in ", 1)[1] for f in frames] == ["run", "_zone_of", "<dictcomp>"]
    assert 'obj["zone_name"]' in outcome.context  # the source line under its frame
    assert "checking.py" not in outcome.context and "json" not in "".join(frames)


def _shown(name: str) -> str:
    import os

    return os.path.relpath(TESTS / name)


def test_run_reports_the_exception_once_with_where_it_was_raised(tmp_path, capsys):
    report, stream = tmp_path / "r.json", tmp_path / "r.jsonl"
    code = cli.main(["run", "--engine", "plugin_engines:RaisesInHelper", "--max-examples", "3", "--no-fixtures",
                     "--rules", *RULES, "--report-json", str(report), "--report-jsonl", str(stream)])
    out = capsys.readouterr().out
    assert code == 1
    tail = out[out.index("did not pass"):]
    assert tail.count("KeyError: 'zone_name'") == 1, tail  # once, not once per rule
    assert f"{len(RULES)} rules, the same problem: " + ", ".join(RULES) in tail
    assert f"plugin_engines.py:{HELPER_LINE} in <dictcomp>" in tail and "in _zone_of" in tail
    assert "shrunk counterexample" not in tail  # nothing failed: there is no counterexample to speak of
    document = json.loads(report.read_text("utf-8"))
    validate(document, "report", "the report")
    for rule in document["rules"]:
        assert rule["status"] == "errored"
        assert f"plugin_engines.py:{HELPER_LINE}" in rule["first_problem"]
        assert [f.rsplit(" in ", 1)[1] for f in _frames(rule["engine_traceback"])] == ["run", "_zone_of",
                                                                                      "<dictcomp>"]
    run = load(str(stream))
    for page in (markdown(run), html(run)):
        assert page.count("Where the engine raised") == 1, page
        assert f"plugin_engines.py:{HELPER_LINE} in &lt;dictcomp&gt;" in page or \
            f"plugin_engines.py:{HELPER_LINE} in <dictcomp>" in page


def test_check_shows_where_the_engine_raised(tmp_path, capsys):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(TWO_TRIGGERS), "utf-8")
    assert cli.main(["check", str(scenario), "--engine", "plugin_engines:RaisesInHelper"]) == 1
    out = capsys.readouterr().out
    assert "the engine gave no trace: errored: KeyError: 'zone_name'" in out
    assert "where the engine raised" in out and f"plugin_engines.py:{HELPER_LINE} in <dictcomp>" in out


def test_replay_shows_where_the_engine_raised(tmp_path, capsys):
    failures = tmp_path / "failures"
    assert cli.main(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "--max-examples", "50",
                     "--shrink-seconds", "1", "--no-fixtures", "--failures-dir", str(failures)]) == 1
    (replay_file,) = failures.glob("*.json")
    capsys.readouterr()
    assert cli.main(["replay", str(replay_file), "--engine", "plugin_engines:RaisesInHelper"]) == 1
    out = capsys.readouterr().out
    assert "ERROR: the engine gave no trace: errored: KeyError: 'zone_name'" in out
    assert f"plugin_engines.py:{HELPER_LINE} in <dictcomp>" in out


def test_a_process_engine_s_stderr_is_shown_once_for_the_rules_it_left_without_verdict():
    rules = [{"key": key, "rule_number": "1", "summary": "", "status": "errored", "scenarios_run": 1,
              "scenarios_exercised": 0, "engine_problems": {"crashed": 1}, "first_problem": "the engine crashed",
              "engine_stderr": "Traceback (most recent call last):\nValueError: no such ability ABC-123\n"}
             for key in RULES]
    lines = not_passed(rules)
    assert sum("ValueError: no such ability ABC-123" in line for line in lines) == 1
    assert any(", ".join(RULES) in line for line in lines)
    run = {"header": {"rule_keys": RULES}, "rules": rules, "fixtures": [], "audit": None, "footer": {},
           "stopped": "", "explored": None, "interrupted": None, "not_checked": []}
    assert markdown(run).count("no such ability ABC-123") == 1 and html(run).count("no such ability ABC-123") == 1


def test_a_process_engine_that_raises_has_its_stderr_in_check(tmp_path, capsys):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(TWO_TRIGGERS), "utf-8")
    code = cli.main(["check", str(scenario), "--engine-cmd", f"{sys.executable} {ENGINES / 'log_then_raise.py'}"])
    out = capsys.readouterr().out
    assert code == 1 and "the engine's stderr (last lines):" in out
    assert "ValueError: log_then_raise: no such ability ABC-123" in out


def test_a_scenario_the_engine_raised_on_is_kept_with_the_command_that_plays_it_again(tmp_path, capsys):
    """Issue 34: a rule errored because the engine raised keeps the scenario it raised on, as a scenario file in
    --failures-dir, with the ``check`` command that plays it again (printed and in the report)."""
    report, failures = tmp_path / "r.json", tmp_path / "failures"
    code = cli.main(["run", "--engine", "plugin_engines:RaisesInHelper", "--max-examples", "3", "--no-fixtures",
                     "--rules", *RULES, "--report-json", str(report), "--failures-dir", str(failures)])
    out = capsys.readouterr().out
    assert code == 1
    document = json.loads(report.read_text("utf-8"))
    validate(document, "report", "the report")
    files = {rule["problem_scenario"] for rule in document["rules"]}
    assert len(files) == 1, files  # one problem, one scenario: the rules share the file
    scenario_file = Path(files.pop())
    assert scenario_file.parent == failures
    validate(json.loads(scenario_file.read_text("utf-8")), "scenario", "the problem scenario")
    command = document["rules"][0]["problem_command"]
    assert command == f"trigger-conformance check {scenario_file} --engine plugin_engines:RaisesInHelper"
    assert out.count(f"Play the scenario it happened on again with: {command}") == 1
    assert cli.main(["check", str(scenario_file), "--engine", "plugin_engines:RaisesInHelper"]) == 1
    assert "KeyError: 'zone_name'" in capsys.readouterr().out
    assert cli.main(["check", str(scenario_file)]) == 0  # the reference engine plays it


def test_a_problem_scenario_goes_to_the_default_failures_folder_and_only_for_a_problem(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "r.json"
    cli.main(["run", "--engine", "plugin_engines:RaisesInHelper", "--max-examples", "2", "--no-fixtures",
              "--rules", *RULES, "--report-json", str(report)])
    files = {rule["problem_scenario"] for rule in json.loads(report.read_text("utf-8"))["rules"]}
    assert [Path(f).parent.name for f in files] == ["trigger-conformance-failures"]
    cli.main(["run", "--max-examples", "5", "--no-fixtures", "--rules", *RULES, "--report-json", str(report),
              "--failures-dir", str(tmp_path / "f")])
    assert not any("problem_scenario" in rule for rule in json.loads(report.read_text("utf-8"))["rules"])
    assert not list(tmp_path.glob("f/*problem*"))
