"""Issue 13 item 5 / issue 10 item 4: the console summary of the command and of the pytest plugin shows every
reason the engine gave for skipping scenarios, each with how many scenarios it gave it for (counted here
independently, by building the run's stream), and the report keeps them per rule."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conformance.commands import cli
from conformance.running.runner import prepare_generated, scenario_builder
from conformance.generation.stream import stream_source
from conformance.running.session import RunSpec, Session
from plugin_engines import DeclinesForReasons

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
EXAMPLES = 30


def _expected() -> dict[str, int]:
    """The reasons DeclinesForReasons gives over the stream of seed 0, counted by building every scenario."""
    session = Session(RunSpec(engine="plugin_engines:DeclinesForReasons", max_examples=EXAMPLES))
    config = session.run_config()
    build = scenario_builder(config, session.engine)
    counts: dict[str, int] = {}
    for n in range(EXAMPLES):
        reason = DeclinesForReasons.reason(prepare_generated(config, build(stream_source(0, n), config.edition)))
        if reason:
            counts[reason] = counts.get(reason, 0) + 1
    session.close()
    assert len(counts) == 2 and all(counts.values()), counts  # both reasons occur, or the test shows nothing
    return counts


def _lines(counts: dict[str, int]) -> list[str]:
    return [f"  {n:>6}  {reason}" for reason, n in counts.items()]


def test_the_command_counts_every_skip_reason(tmp_path, capsys):
    expected = _expected()
    report = tmp_path / "r.json"
    code = cli.main(["run", "--engine", "plugin_engines:DeclinesForReasons", "--max-examples", str(EXAMPLES),
                     "--no-fixtures", "--accept-skips", "--report-json", str(report)])
    assert code == 0
    out = capsys.readouterr().out
    total = sum(expected.values())
    assert f"the engine skipped {total} of the {EXAMPLES} scenarios played, by reason:" in out
    for line in _lines(expected):
        assert line in out.splitlines(), (line, out[-2000:])
    rules = json.loads(report.read_text())["rules"]
    assert all(rule["skip_reasons"] == expected for rule in rules if rule["scenarios_run"] == EXAMPLES)


def test_the_pytest_plugin_counts_every_skip_reason(tmp_path):
    expected = _expected()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'bt'}",
                           "--trigger-ruleset", "momon-wonder", "--trigger-engine", "plugin_engines:DeclinesForReasons",
                           "--trigger-max-examples", str(EXAMPLES), "--trigger-no-fixtures", "--trigger-accept-skips",
                           "-p", "no:xdist"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]
    total = sum(expected.values())
    assert f"the engine skipped {total} of the {EXAMPLES} scenarios played, by reason:" in done.stdout
    for line in _lines(expected):
        assert line in done.stdout.splitlines(), (line, done.stdout[-2000:])
