"""The divergence audit (issue 9, item 3): a divergence from the reference engine that no invariant explains is
reported as its own verdict, with a shrunk scenario and both outcomes, and never as the engine's failure of a rule;
every bundled faulty engine has none (the judge explains every way it differs), and the self-check measures it."""

from __future__ import annotations

import dataclasses
import json

import pytest

from quick_sample import first_quick

from conformance.commands import cli
from conformance.running.audit import STATUS, audit, audit_mutant, observable_outcome
from conformance.documents.json_io import validate
from conformance.running.runner import RunConfig
from conformance.commands.selftest import catch_rate, check_mutant
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import MUTANTS
from reference_engine.kernel.registry import RULESETS, get_ruleset
from reference_engine.kernel.schemas import bundled

MOMON = get_ruleset("momon-wonder")


def _config(ruleset, **overrides):
    values = dict(ruleset=ruleset, edition=ruleset.default_edition, options=ruleset.resolve_options({}),
                  max_examples=60, seed=1, shrink_seconds=5.0)
    values.update(overrides)
    return RunConfig(**values)


def _renamed(trace: dict, prefix: str) -> dict:
    """The same trace with every engine id renamed (E1 -> xE1, ...): what another engine might number."""
    text = json.dumps(trace)
    for ids in ("E", "T", "K", "S"):
        text = text.replace(f'"{ids}', f'"{prefix}{ids}')
    return json.loads(text)


def test_the_outcome_ignores_engine_ids(momon_fixture):
    scenario, trace = momon_fixture("mw-nested-packages-three-deep")
    assert observable_outcome(scenario, trace) == observable_outcome(scenario, _renamed(trace, "x"))


def test_the_outcome_sees_the_resolution_order(momon_fixture):
    scenario, trace = momon_fixture("mw-append-after-pending")
    begins = [i for i, e in enumerate(trace["entries"]) if e["kind"] == "resolve_begin"]
    assert len(begins) >= 2
    swapped = json.loads(json.dumps(trace))
    a, b = begins[0], begins[1]
    swapped["entries"][a]["trigger"], swapped["entries"][b]["trigger"] = (swapped["entries"][b]["trigger"],
                                                                           swapped["entries"][a]["trigger"])
    assert observable_outcome(scenario, swapped)["resolved"] != observable_outcome(scenario, trace)["resolved"]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_reference_engine_never_diverges_from_itself(name):
    ruleset = get_ruleset(name)
    result = audit(reference_engine_for(name), reference_engine_for(name), _config(ruleset))
    assert result.status == "passed" and result.compared == 60 and result.explained == 0


def test_a_divergence_no_invariant_flags_is_reported_shrunk_with_both_outcomes():
    """With the judge emptied, every way a faulty engine differs is unexplained: the audit must say so."""
    blind = dataclasses.replace(MOMON, invariants=())
    result = audit(MUTANTS["mw-lifo"].factory(), reference_engine_for(MOMON.name), _config(blind))
    assert result.status == STATUS
    found = result.divergence
    assert found is not None and found.actual != found.expected and "(at $." in found.where
    assert found.shrunk_size <= found.original_size
    assert found.actual_trace != found.expected_trace


def test_a_divergence_an_invariant_flags_is_explained_not_reported():
    result = audit(MUTANTS["mw-lifo"].factory(), reference_engine_for(MOMON.name), _config(MOMON))
    assert result.status == "passed" and result.explained > 0 and result.divergence is None


@pytest.mark.sampled_nightly  # one slow case in four in .ci/run, all nightly (15 minutes)
@pytest.mark.parametrize("name", first_quick(sorted(MUTANTS), lambda name: MUTANTS[name].ruleset))
def test_every_faulty_engine_is_explained_by_the_judge(name):
    assert audit_mutant(name, range(1), max_examples=100, shrink_seconds=2) == []


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_faulty_engine_is_caught_by_its_rule_key_on_seed_0(name):
    """The quick check of each faulty engine: its rule key catches it on seed 0 (the 20 seeds run in the slow set)."""
    rate = catch_rate(name, range(1), 100)
    assert rate["caught"] == 1, rate


@pytest.mark.slow
@pytest.mark.nightly
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_faulty_engine_is_caught_by_its_rule_key_on_19_of_20_seeds(name):
    rate = catch_rate(name, range(20), 100)
    assert rate["caught"] >= 19, rate


def test_at_least_forty_faulty_engines():
    shipped = sorted(name for name, m in MUTANTS.items() if m.ruleset in bundled())  # another installed unit's aside
    assert len(shipped) >= 40, shipped


def test_the_self_check_reports_the_audit_and_the_catch_rate():
    verdict = check_mutant("mw-lifo", max_examples=50, seeds=3)
    assert verdict.caught and verdict.rule_key == "mw.queue-fifo"
    assert verdict.audit == "passed" and verdict.catch_rate == (3, 3) and verdict.ok


def test_run_audit_writes_the_audit_into_the_report(tmp_path, capsys):
    report = tmp_path / "report.json"
    code = cli.main(["run", "--ruleset", "momon-wonder", "--max-examples", "20", "--no-fixtures", "--audit",
                     "--rules", "mw.queue-fifo", "--report-json", str(report),
                     "--failures-dir", str(tmp_path / "failures")])
    assert code == 0
    document = json.loads(report.read_text())
    validate(document, "report", "the report")
    assert document["audit"]["status"] == "passed" and document["audit"]["compared"] == 20
    assert "audit (unexplained-divergence)" in capsys.readouterr().out
