"""Engine options across the commands (review findings 4, 5 and 6): `--engine reference --engine-cmd ...` is
refused (the option's default is told apart from an explicit `reference`), in `run`, `check`, `coverage` and the
pytest plugin; `replay` takes the process-engine knobs `run` has, and a timeout's hint names only options the
command that asked accepts; replay files of two engines never overwrite each other, and one engine keeps its name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.commands import cli
from conformance.adapters.registry import load_engine
from conformance.documents.failure_store import replay_command
from conformance.documents.failure_store import replay_path
from conformance.running.session import RunSpec, Session, engine_spec
from process_support import ENGINES, ENV, TWO_TRIGGERS

HANG = f"{sys.executable} {ENGINES / 'hang.py'}"
LIFO = f"{sys.executable} -m reference_engine.serve --mutant mw-lifo"


@pytest.mark.parametrize("command", [["run", "--max-examples", "2"], ["check", "SCENARIO"], ["coverage"]])
def test_an_explicit_engine_and_an_engine_command_are_refused(command, tmp_path, capsys):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(TWO_TRIGGERS))
    args = [str(scenario) if a == "SCENARIO" else a for a in command]
    assert cli.main([*args, "--engine", "reference", "--engine-cmd", "true"]) == 2
    assert "give either --engine or --engine-cmd, not both" in capsys.readouterr().err


def test_engine_spec_tells_the_default_from_an_explicit_reference():
    assert engine_spec(None, None) == "reference" and engine_spec("reference", None) == "reference"
    assert engine_spec(None, "prog") == "cmd:prog"
    with pytest.raises(Exception, match="not both"):
        engine_spec("reference", "prog", "--trigger-")


def test_the_pytest_plugin_refuses_both_too(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "conformance.running.pytest_plugin", "-p", "no:cacheprovider",
                           "--trigger-ruleset", "momon-wonder", "--trigger-engine", "reference",
                           "--trigger-engine-cmd", "true", str(tmp_path)],
                          env=ENV, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 4, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "give either --trigger-engine or --trigger-engine-cmd, not both" in proc.stderr


def test_replay_takes_the_engine_timeout_and_restarts(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", "--engine", "mutant:mw-lifo", "--rules", "mw.queue-fifo", "--no-fixtures",
                     "--max-examples", "20", "--shrink-seconds", "5"]) == 1
    capsys.readouterr()
    replay = next(Path("trigger-conformance-failures").glob("*.json"))
    code = cli.main(["replay", str(replay), "--engine-cmd", LIFO, "--engine-timeout", "20", "--engine-restarts", "1"])
    out = capsys.readouterr()
    assert code == 1 and "STILL FAILING: mw.queue-fifo" in out.out, out
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["check", "x.json", "--engine-restarts", "1"])  # one play: nothing to restart


def test_a_timeout_names_the_option_as_the_caller_spells_it():
    engine = load_engine(f"cmd:{HANG}", "momon-wonder", 1, option_prefix="--trigger-")
    assert engine.timeout_option == "--trigger-engine-timeout"
    assert load_engine(f"cmd:{HANG}", "momon-wonder", 1).timeout_option == "--engine-timeout"
    with pytest.raises(Exception, match="--trigger-rules: unknown rule keys"):
        Session(RunSpec(rules=("mw.nope",), option_prefix="--trigger-"))


def test_the_replay_command_keeps_a_process_engines_timeout():
    assert replay_command("f.json", "cmd:prog x", 2.5).endswith("--engine-cmd 'prog x' --engine-timeout 2.5")
    assert replay_command("f.json", "mutant:mw-lifo", 2.5).endswith("--engine mutant:mw-lifo")


def test_replay_files_of_two_engines_never_overwrite_each_other(tmp_path):
    mine = {"name": "my-mw", "version": "0.1.0", "spec": "my_mw:BuggyMW"}
    theirs = {"name": "my-mw-proc", "version": "0.1.0", "spec": "cmd:python3 proc_mw.py"}
    first = replay_path(tmp_path, "momon-wonder-mw.queue-fifo-ef9c1dd981", mine)
    assert first.name == "momon-wonder-mw.queue-fifo-ef9c1dd981.json"
    first.write_text(json.dumps({"engine": mine}))
    assert replay_path(tmp_path, "momon-wonder-mw.queue-fifo-ef9c1dd981", {**mine, "version": "0.2"}) == first
    other = replay_path(tmp_path, "momon-wonder-mw.queue-fifo-ef9c1dd981", theirs)
    assert other != first and "my-mw-proc" in other.name
    assert other == replay_path(tmp_path, "momon-wonder-mw.queue-fifo-ef9c1dd981", theirs)  # stable


def test_two_engines_in_one_failures_folder_keep_both_replay_files(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for engine in (["--engine", "mutant:mw-lifo"], ["--engine-cmd", LIFO]):
        assert cli.main(["run", *engine, "--rules", "mw.queue-fifo", "--no-fixtures", "--max-examples", "20",
                         "--shrink-seconds", "5"]) == 1
    capsys.readouterr()
    files = sorted(Path("trigger-conformance-failures").glob("*.json"))
    specs = sorted(json.loads(f.read_text())["engine"]["spec"] for f in files)
    assert len(files) == 2 and specs == sorted(["mutant:mw-lifo", f"cmd:{LIFO}"]), files
