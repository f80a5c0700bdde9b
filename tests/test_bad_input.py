"""Bad input from users and from engines: a clear one-paragraph error (exit 2), or an engine verdict while the run
goes on; never a traceback, a hang of the harness's own making, or a silently wrong result."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from conformance.commands import cli

BAD_ENGINES = textwrap.dedent('''
    import copy
    from reference_engine.kernel.engine import Engine, EngineInfo
    from reference_engine.momon_wonder.engines.reference import MomonWonderEngine

    INFO = EngineInfo("bad", "0", {"momon-wonder": ["1.0.0"]})

    class Meddler(MomonWonderEngine):
        """Plays another reading of the rules by editing the scenario it is given."""
        modifies_scenarios = True  # unlike the reference engine it is built on
        def run(self, scenario, chooser):
            scenario["options"]["same_event_order"] = "object-order"
            return super().run(scenario, chooser)

    class SetTrace(Engine):
        info = INFO
        def run(self, scenario, chooser):
            return {"format": "trigger-conformance/trace/1", "entries": [{"kind": "step_begin", "step": {1, 2}}]}

    class Exits(Engine):
        info = INFO
        def run(self, scenario, chooser):
            raise SystemExit(3)

    class BadInfo(Engine):
        @property
        def info(self):
            return "not an EngineInfo"
        def run(self, scenario, chooser):
            return {}

    class BadClose(MomonWonderEngine):
        def close(self):
            raise RuntimeError("cannot close")
''')


@pytest.fixture
def bad_engines(tmp_path, monkeypatch):
    (tmp_path / "bad_engines.py").write_text(BAD_ENGINES)
    (tmp_path / "boom.py").write_text("raise RuntimeError('import-time failure')\n")
    (tmp_path / "quits.py").write_text("import sys\nsys.exit(3)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in ("bad_engines", "boom", "quits"):
        sys.modules.pop(name, None)


def run(*argv: str) -> list[str]:
    return ["run", "--max-examples", "30", "--no-fixtures", *argv]


@pytest.mark.parametrize("argv, words", [
    (run("--engine-cmd", ""), "--engine-cmd is empty"),
    (run("--engine", "mutant:mw-lifo", "--engine-cmd", "python -m reference_engine.serve"), "not both"),
    (run("--report-json", "/nonexistent-folder/r.json"), "does not exist"),
    (run("--junit-xml", "/nonexistent-folder/j.xml"), "does not exist"),
    (run("--engine", "boom:Engine"), "RuntimeError: import-time failure"),
    (run("--engine", "quits:Engine"), "SystemExit"),
    (run("--engine", "bad_engines:BadInfo"), "could not say what it is"),
    (run("--shrink-seconds", "-5"), ""),
    (run("--seed", "-1"), ""),
    (["rules", "--ruleset", "nope"], "unknown ruleset 'nope'"),
    (["options", "--ruleset", "nope"], "unknown ruleset 'nope'"),
])
def test_bad_input_is_refused_before_the_run(bad_engines, capsys, argv, words):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_report_path_that_is_a_folder_is_refused(bad_engines, capsys):
    assert cli.main(run("--report-json", str(bad_engines))) == 2
    assert "is a folder" in capsys.readouterr().err


def test_an_engine_cannot_change_what_it_is_judged_on(bad_engines, capsys):
    assert cli.main(run("--engine", "bad_engines:Meddler", "--rules", "mw.same-event-order")) == 1
    assert "FAIL  mw.same-event-order" in capsys.readouterr().out


@pytest.mark.parametrize("engine, outcome", [("bad_engines:SetTrace", "garbage"), ("bad_engines:Exits", "errored")])
def test_engine_faults_are_verdicts_and_the_run_goes_on(bad_engines, capsys, engine, outcome, tmp_path):
    report = tmp_path / "r.json"
    assert cli.main(run("--engine", engine, "--report-json", str(report))) == 1
    rules = json.loads(report.read_text())["rules"]
    from reference_engine.kernel.registry import get_ruleset

    assert len(rules) == len(get_ruleset("momon-wonder").invariants_for("1.0.0")) and all(r["status"] == "errored" and r["engine_problems"] == {outcome: 30} for r in rules)


def test_an_engine_that_cannot_close_still_gets_its_verdicts(bad_engines, capsys):
    assert cli.main(run("--engine", "bad_engines:BadClose")) == 0


def test_validate_reads_the_kind_from_the_format_field(capsys):
    from conftest import ROOT

    assert cli.main(["validate", str(ROOT / "fixtures" / "momon-wonder" / "mw-append-after-pending.json")]) == 0
    assert "a valid fixture" in capsys.readouterr().out


def test_validate_rejects_a_trace_that_names_what_is_not_there(tmp_path, capsys):
    trace = {"format": "trigger-conformance/trace/1", "entries": [
        {"kind": "package_create", "package": "K1", "event": "E999"},
        {"kind": "resolve_begin", "trigger": "T999"}]}
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    assert cli.main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "unknown event E999" in err and "unknown trigger T999" in err


def test_validate_rejects_binary_and_absurdly_nested_files(tmp_path, capsys):
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert cli.main(["validate", str(binary)]) == 2
    assert "not a text file" in capsys.readouterr().err
    nested = tmp_path / "n.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    assert cli.main(["validate", str(nested)]) == 2
    assert "too deep to be a document" in capsys.readouterr().err


def test_replay_refuses_an_inconsistent_file(tmp_path, capsys):
    failures = tmp_path / "failures"
    assert cli.main(run("--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "--failures-dir",
                        str(failures))) == 1
    capsys.readouterr()
    (replay_file,) = failures.iterdir()
    document = json.loads(replay_file.read_text())
    document["rule_key"] = "mw.nope"
    replay_file.write_text(json.dumps(document))
    assert cli.main(["replay", str(replay_file)]) == 2
    assert "has no rule key 'mw.nope'" in capsys.readouterr().err
    document["rule_key"], document["ruleset"] = "mw.queue-fifo", "mtg"
    replay_file.write_text(json.dumps(document))
    assert cli.main(["replay", str(replay_file)]) == 2
    assert "at $.ruleset: the file says 'mtg'" in capsys.readouterr().err
    document["ruleset"] = "momon-wonder"
    replay_file.write_text(json.dumps(document))
    assert cli.main(["replay", str(replay_file), "--engine", "mutant:mtg-apnap-reversed"]) == 2
    assert "does not implement momon-wonder" in capsys.readouterr().err


def test_an_engine_that_always_hangs_costs_one_rule_not_the_whole_run(tmp_path, capsys):
    hang = tmp_path / "hang.py"
    hang.write_text(textwrap.dedent('''
        import json, sys, time
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "start":
                print(json.dumps({"type": "started", "protocol": 1, "name": "hang", "version": "0",
                                  "rulesets": {"momon-wonder": ["1.0.0"]}}), flush=True)
            elif message["type"] == "configure":
                print(json.dumps({"type": "configured"}), flush=True)
            elif message["type"] == "run":
                time.sleep(1000)
    '''))
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine-cmd", f"{sys.executable} {hang}", "--engine-timeout", "0.2",
                     "--max-examples", "20", "--no-fixtures", "--report-json", str(report)])
    assert code == 1
    rules = json.loads(report.read_text())["rules"]
    assert all(r["status"] == "errored" for r in rules)
    assert rules[0]["engine_problems"].get("timed-out", 0) >= 1
    assert all("unavailable during an earlier rule" in r["first_problem"] for r in rules[1:])


def test_a_long_valid_scenario_is_told_its_trace_budget_and_how_to_raise_it(tmp_path, capsys):
    """Issue 23 item 6 (limits): a valid scenario with many simultaneous triggers that outgrows the bundled engines'
    loop guard is not just "probably loops forever": the message names the budget and the knob, and `check` has the
    knob (`--max-trace-entries`, as `run` and `replay` have), with which the same scenario plays through."""
    from conformance.commands import cli as command

    triggers = 60
    scenario = {"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder", "edition": "1.0.0",
                "players": ["P1", "P2"], "active_player": "P1",
                "objects": [{"id": "W", "owner": "P1", "zone": "field", "abilities": [
                    {"id": f"A{n}", "trigger": {"event": "signal", "name": "go"}, "effect": []}
                    for n in range(1, triggers + 1)]}],
                "script": [{"step": "step-1", "actions": [{"by": "P1", "effect": [{"do": "signal", "name": "go"}]}]}]}
    path = tmp_path / "many.json"
    path.write_text(json.dumps(scenario))
    assert command.main(["check", str(path), "--max-trace-entries", "100"]) == 1
    out = capsys.readouterr().out
    assert "within its budget of 100 trace entries" in out and "raise the budget with --max-trace-entries N" in out
    assert "probably loops forever" not in out
    assert command.main(["check", str(path), "--max-trace-entries", "5000"]) == 0, capsys.readouterr().out


def _unwritable_folder(tmp_path) -> str:
    """A folder no file can be made in: a read-only one, or for root (who writes anywhere) one of /proc's."""
    import os

    if os.geteuid() == 0:
        return "/proc/self/fdinfo"
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    return str(folder)


def test_a_database_folder_that_cannot_be_written_is_said_once_and_the_run_goes_on(tmp_path, capsys):
    """Issue 23 item 6: the example database is an optimisation: one that cannot be written is used read-only, with
    one warning, and the run's verdicts do not change."""
    folder = _unwritable_folder(tmp_path)
    code = cli.main(run("--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "mw.group-position", "--database",
                        folder, "--max-examples", "20"))
    out, err = capsys.readouterr()
    assert code == 1 and "FAIL  mw.queue-fifo" in out and "PASS  mw.group-position" in out
    assert err.count("warning: --database: cannot write in") == 1, err
    assert folder in err and "not kept there" in err and "Traceback" not in err


def test_a_document_of_another_kind_is_named_for_what_it_is(tmp_path, capsys):
    """A fresh user's finding: a replay file given to check, or statistics to merge-stats, got a dump of every schema
    problem; its ``format`` already says what it is. An unknown format is said too."""
    from conformance.commands import cli

    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps({"format": "trigger-conformance/replay/1", "rule_key": "x"}))
    assert cli.main(["check", str(replay)]) == 2
    err = capsys.readouterr().err
    assert "this is a replay document (trigger-conformance/replay/1), not a scenario document" in err
    assert err.count("\n  at ") == 1, err
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({"format": "trigger-conformance/nope/9"}))
    assert cli.main(["validate", str(unknown)]) == 2
    assert "'trigger-conformance/nope/9' is no format this tool knows" in capsys.readouterr().err
