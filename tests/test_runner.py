"""The runner on faulty engines: each bundled Momon Wonder mutant fails on its rule key, with a shrunk
counterexample, a replay file that reproduces it, and the expected trace beside the actual one."""

from __future__ import annotations

import json

import pytest

from quick_sample import first_quick
from hypothesis.database import DirectoryBasedExampleDatabase

from conformance.commands import cli
from conformance.running.concluding import check_rule
from conformance.running.runner import RunConfig
from conformance.generation.stream import rule_seed
from reference_engine.momon_wonder.engines.reference import MomonWonderEngine
from reference_engine.kernel.registry import MUTANTS
from reference_engine.kernel.registry import get_ruleset

RULESET = get_ruleset("momon-wonder")
MOMON_MUTANTS = [m for m in MUTANTS.values() if m.ruleset == "momon-wonder"]


def config(**overrides):
    values = dict(ruleset=RULESET, edition="1.0.0", options=RULESET.resolve_options({}), max_examples=300, seed=3)
    values.update(overrides)
    return RunConfig(**values)


@pytest.mark.sampled_nightly  # one slow case in four in .ci/run, all nightly (15 minutes)
@pytest.mark.parametrize("mutant", first_quick(MOMON_MUTANTS, ids=lambda m: m.name))  # one quick, the rest slow
def test_mutant_fails_on_its_rule_with_a_shrunk_counterexample(mutant):
    options = RULESET.resolve_options(dict(mutant.options))  # the options under which its fault shows
    result = check_rule(mutant.factory(), MomonWonderEngine(), config(options=options),
                        RULESET.invariant(mutant.expected_rule_key))
    assert result.status == "failed", (result.status, result.first_problem)
    failure = result.failure
    assert failure.shrunk_size <= failure.original_size
    assert failure.shrunk_size < failure.original_size or failure.original_size <= 6, failure.scenario
    assert failure.messages and all(m.startswith(f"[{result.rule_number}]") for m in failure.messages)
    assert failure.expected_trace is not None and failure.actual_trace is not None
    assert failure.expected_trace != failure.actual_trace
    assert failure.determinism == "deterministic"


@pytest.mark.first_quick  # the first quick, the longer stream slow (issue 26)
@pytest.mark.parametrize("examples", [40, 150])
def test_reference_engine_passes_every_rule(examples):
    for inv in RULESET.invariants:
        result = check_rule(MomonWonderEngine(), MomonWonderEngine(), config(max_examples=examples), inv)
        assert result.status == "passed", (inv.key, result.status, result.first_problem, result.check_error)
        assert result.scenarios_run == examples


def test_rule_seed_depends_only_on_run_seed_and_key():
    assert rule_seed(1, "mw.queue-fifo") == rule_seed(1, "mw.queue-fifo")
    assert rule_seed(1, "mw.queue-fifo") != rule_seed(2, "mw.queue-fifo")
    assert rule_seed(1, "mw.queue-fifo") != rule_seed(1, "mw.once-per-event")


def test_same_seed_same_counterexample():
    mutant = MUTANTS["mw-lifo"]
    a = check_rule(mutant.factory(), MomonWonderEngine(), config(), RULESET.invariant(mutant.expected_rule_key))
    b = check_rule(mutant.factory(), MomonWonderEngine(), config(), RULESET.invariant(mutant.expected_rule_key))
    assert a.failure.scenario == b.failure.scenario and a.scenarios_run == b.scenarios_run


def test_shared_database_replays_a_known_failure_first(tmp_path):
    mutant = MUTANTS["mw-package-behind-triggers"]
    database = DirectoryBasedExampleDatabase(str(tmp_path / "db"))
    invariant = RULESET.invariant(mutant.expected_rule_key)
    first = check_rule(mutant.factory(), MomonWonderEngine(), config(database=database), invariant)
    # Another machine, another seed: the shared database hands it the known failure at once.
    second = check_rule(mutant.factory(), MomonWonderEngine(), config(database=database, seed=99), invariant)
    assert first.status == second.status == "failed"
    assert second.scenarios_run == 1
    # The database holds Hypothesis's shrunk log: shrinking from it is quick, and may end on another counterexample
    # than the first run's (which also tried the passes on the scenario as found), never a larger one than it
    # starts from.
    assert second.failure.shrunk_size <= second.failure.original_size


def test_cli_run_on_a_mutant_writes_a_replay_file_that_reproduces(tmp_path, capsys):
    failures = tmp_path / "failures"
    report = tmp_path / "report.json"
    code = cli.main(["run", "--engine", "mutant:mw-lifo", "--max-examples", "200", "--failures-dir", str(failures),
                     "--report-json", str(report), "--no-fixtures"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL  mw.queue-fifo" in out and "Reproduce with: trigger-conformance replay" in out
    assert "expected (reference engine)" in out
    data = json.loads(report.read_text())
    rows = {r["key"]: r for r in data["rules"]}
    assert rows["mw.queue-fifo"]["status"] == "failed"
    replay_file = rows["mw.queue-fifo"]["failure"]["replay_file"]
    assert replay_file and (failures / replay_file.split("/")[-1]).exists()

    assert f"Reproduce with: trigger-conformance replay {replay_file} --engine mutant:mw-lifo" in out
    assert cli.main(["replay", replay_file, "--trust-file-engine"]) == 1
    assert "STILL FAILING: mw.queue-fifo" in capsys.readouterr().out
    assert cli.main(["replay", replay_file, "--engine", "reference"]) == 0
    assert "FIXED: mw.queue-fifo" in capsys.readouterr().out
    # An engine whose trace gives the rule nothing to judge has not fixed it (a fresh user's finding: FIXED was
    # printed for an empty trace).
    assert cli.main(["replay", replay_file, "--engine", "plugin_engines:EmptyTrace"]) == 1
    out = capsys.readouterr().out
    assert "NOT EXERCISED: mw.queue-fifo" in out and "FIXED" not in out
