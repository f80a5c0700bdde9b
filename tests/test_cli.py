"""The command line: the main job on the reference engine, exit codes, reports, and bad input that gets a clear
message (exit 2) instead of a traceback."""

from __future__ import annotations

import json

import pytest

from conformance.commands import cli
from conformance.documents.json_io import problems
from reference_engine.kernel.registry import get_ruleset


def test_run_passes_on_the_reference_engine_with_every_rule_exercised(tmp_path, capsys):
    report = tmp_path / "report.json"
    assert cli.main(["run", "--ruleset", "momon-wonder", "--max-examples", "150", "--seed", "5",
                     "--report-json", str(report)]) == 0
    out = capsys.readouterr().out
    data = json.loads(report.read_text())
    assert problems(data, "report") == []
    keys = [inv.key for inv in get_ruleset("momon-wonder").invariants]
    assert [r["key"] for r in data["rules"]] == keys
    for rule in data["rules"]:
        assert rule["status"] == "passed" and rule["scenarios_run"] == 150 and rule["scenarios_exercised"] > 0
        assert f"PASS  {rule['key']}" in out
    assert data["fixtures"] and all(f["status"] == "passed" for f in data["fixtures"])


def test_parallel_workers_write_junit_xml_with_one_case_per_rule(tmp_path, capsys):
    junit = tmp_path / "junit.xml"
    report = tmp_path / "report.json"
    assert cli.main(["run", "--max-examples", "30", "--workers", "2", "--junit-xml", str(junit),
                     "--report-json", str(report), "--no-fixtures"]) == 0
    xml = junit.read_text()
    for inv in get_ruleset("momon-wonder").invariants:
        assert f'test_rule[{inv.key}]' in xml
    serial = tmp_path / "serial.json"
    assert cli.main(["run", "--max-examples", "30", "--report-json", str(serial), "--no-fixtures"]) == 0
    strip = lambda rules: [(r["key"], r["status"], r["scenarios_run"], r["scenarios_exercised"]) for r in rules]  # noqa
    assert strip(json.loads(report.read_text())["rules"]) == strip(json.loads(serial.read_text())["rules"])


def test_options_change_the_run(tmp_path, capsys):
    assert cli.main(["run", "--max-examples", "40", "--option", "sanctioned_play=true",
                     "--option", "same_event_order=object-order", "--no-fixtures"]) == 0
    assert "sanctioned_play=true" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["run", "--ruleset", "chess"], "unknown ruleset 'chess'"),
    (["run", "--edition", "9.9"], "has no edition '9.9'"),
    (["run", "--option", "no_such=1"], "has no option 'no_such'"),
    (["run", "--option", "sanctioned_play=maybe"], 'cannot be "maybe" (allowed: true, false)'),
    (["run", "--option", "sanctioned_play=1"], "cannot be 1"),
    (["run", "--option", "novalue"], "expected NAME=VALUE"),
    (["run", "--engine", "nosuchmodule:Engine"], "cannot load engine"),
    (["run", "--engine", "mutant:nope"], "no bundled mutant"),
    (["run", "--engine", "json:dumps"], "calling it to make an Engine raised TypeError"),
    (["run", "--engine", "json:JSONDecoder"], "not an Engine"),
    (["run", "--rules", "mw.nope"], "unknown rule keys mw.nope"),
    (["explain", "mw.nope"], "no rule key"),
])
def test_bad_input_exits_2_with_a_clear_message(argv, words, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    assert cli.main(["run", "--max-examples", "0"]) == 2
    assert cli.main(["frobnicate"]) == 2


def test_validate_names_the_json_path(tmp_path, capsys):
    bad = tmp_path / "scenario.json"
    bad.write_text(json.dumps({"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder",
                               "edition": "1.0.0", "players": ["P1"], "active_player": "P9",
                               "objects": [{"id": "X", "owner": "P1", "zone": "board"}],
                               "script": [{"step": "s", "actions": []}]}))
    assert cli.main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "$.objects[0].zone" in err and "'board' is not one of" in err
    bad.write_text(json.dumps({"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder",
                               "edition": "1.0.0", "players": ["P1"], "active_player": "P9",
                               "objects": [], "script": [{"step": "s", "actions": []}]}))
    assert cli.main(["validate", str(bad)]) == 2
    assert "$.active_player" in capsys.readouterr().err
    bad.write_text("{not json")
    assert cli.main(["validate", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert cli.main(["validate", str(tmp_path / "missing.json")]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_replay_of_a_malformed_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "replay.json"
    bad.write_text(json.dumps({"format": "trigger-conformance/replay/1"}))
    assert cli.main(["replay", str(bad)]) == 2
    assert "is a required property" in capsys.readouterr().err


def test_rules_explain_and_options(capsys):
    assert cli.main(["rules", "--ruleset", "momon-wonder"]) == 0
    assert "mw.queue-fifo" in capsys.readouterr().out
    assert cli.main(["explain", "mw.package-position"]) == 0
    out = capsys.readouterr().out
    assert "11.2.4" in out and "in our words" in out
    assert cli.main(["options", "--ruleset", "momon-wonder"]) == 0
    assert "same_event_order (default \"active-player-first\")" in capsys.readouterr().out


def test_a_run_that_finds_nothing_leaves_no_failures_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", "--max-examples", "10", "--no-fixtures"]) == 0
    assert not (tmp_path / "trigger-conformance-failures").exists()
    assert cli.main(["run", "--max-examples", "3", "--failures-dir", str(tmp_path / "x" / "y")]) == 0
    assert not (tmp_path / "x").exists()
