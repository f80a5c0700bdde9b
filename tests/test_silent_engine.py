"""A fresh user's finding: an engine whose every trace is empty (or holds no event) was told to raise
--max-examples when its rules never applied. The advice now says what the traces show: nothing of the scenarios."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conformance.commands import cli
from conformance.running.recorder import unexercised_advice
from conformance.running.runner import Exploration, has_event, silent_engine

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
EMPTY = f"{sys.executable} {TESTS / 'engines' / 'empty.py'}"


def test_run_on_an_engine_with_empty_traces_says_it_shows_nothing_not_to_raise_max_examples(capsys):
    code = cli.main(["run", "--engine-cmd", EMPTY, "--rules", "mw.queue-fifo", "--no-fixtures", "--max-examples", "5"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "the engine's traces show nothing of the scenarios: is it playing them?" in out
    assert "raise --max-examples" not in out


def test_strict_exercise_on_such_an_engine_says_it_too(capsys):
    code = cli.main(["run", "--engine-cmd", EMPTY, "--rules", "mw.queue-fifo", "--no-fixtures", "--max-examples", "3",
                     "--strict-exercise"])
    out = capsys.readouterr().out
    assert code == 1 and "is it playing them?" in out, out


def test_the_plugin_skips_such_a_rule_saying_so(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rs",
                           f"--basetemp={tmp_path / 'bt'}", "--trigger-ruleset", "momon-wonder",
                           "--trigger-engine-cmd", EMPTY, "--trigger-rules", "mw.queue-fifo", "--trigger-no-fixtures",
                           "--trigger-max-examples", "3"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "is it playing them?" in done.stdout and "raise --trigger-max-examples" not in done.stdout


def _share(run: int, eventless: int, problems: dict[str, int] | None = None) -> Exploration:
    return Exploration("k", scenarios_run=run, eventless=eventless, engine_problems=problems or {})


def test_silent_only_when_every_trace_given_lacked_an_event():
    assert silent_engine({"rules": {"k": _share(5, 5)}})
    assert silent_engine({"rules": {"k": _share(5, 3, {"skipped": 2})}})  # the traces it gave: none had an event
    assert not silent_engine({"rules": {"k": _share(5, 4)}})  # one trace showed an event: more examples may help
    assert not silent_engine({"rules": {"k": _share(5, 0, {"skipped": 5})}})  # no trace at all: another problem
    assert not silent_engine({"rules": {}}) and not silent_engine(None)
    assert unexercised_advice([], "--max-examples") == "raise --max-examples"
    assert "is it playing them?" in unexercised_advice(["summon"], "--max-examples", silent=True)


def test_has_event():
    assert not has_event({"entries": []}) and not has_event(None) and not has_event({"entries": [{"kind": "x"}]})
    assert has_event({"entries": [{"kind": "step_begin"}, {"kind": "event", "id": "E1"}]})
