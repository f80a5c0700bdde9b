"""One scenario stream judged by every rule (issue 10, item 1): scenario n depends only on the run seed and n; every
scenario is played once and judged by every invariant; ranges explored apart merge into the same verdicts, so the
number of workers never changes a verdict; and a run plays the engine once per scenario, not once per rule."""

from __future__ import annotations

import json

import pytest

from conformance.commands import cli
from reference_engine.kernel.engine import Engine
from conformance.running.concluding import check_rule
from conformance.running.runner import RunConfig, explore, merge
from conformance.generation.stream import stream_source
from conformance.running.session import RunSpec, Session, explore_stream
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import MUTANTS
from reference_engine.kernel.registry import get_ruleset

MOMON = get_ruleset("momon-wonder")


def _config(**overrides):
    values = dict(ruleset=MOMON, edition="1.0.0", options=MOMON.resolve_options({}), max_examples=120, seed=5)
    values.update(overrides)
    return RunConfig(**values)


def _without_start(found):
    return {key: {k: v for k, v in share.as_dict().items() if k != "start"} for key, share in found.items()}


def test_scenario_n_depends_only_on_the_seed_and_n():
    assert stream_source(5, 7).integer(0, 65535) == stream_source(5, 7).integer(0, 65535)
    assert [stream_source(5, n).integer(0, 65535) for n in range(5)] != \
        [stream_source(6, n).integer(0, 65535) for n in range(5)]


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("cuts", [(60,), (1, 2, 119), (30, 60, 90)])
def test_ranges_explored_apart_merge_into_the_whole(cuts):
    engine = MUTANTS["mw-lifo"].factory()
    invariants = list(MOMON.invariants)
    whole = explore(engine, _config(), invariants)
    bounds = [0, *cuts, 120]
    parts = [explore(engine, _config(), invariants, range(a, b)) for a, b in zip(bounds, bounds[1:])]
    assert _without_start(merge(list(reversed(parts)))) == _without_start(whole)
    assert whole["mw.queue-fifo"].failure_index is not None


@pytest.mark.first_quick  # the first quick, the longer stream slow (issue 26)
@pytest.mark.parametrize("examples", [40, 120])
def test_a_rule_checked_alone_gets_the_verdict_it_gets_among_all(examples):
    engine, reference = MUTANTS["mw-lifo"].factory(), reference_engine_for(MOMON.name)
    whole = explore(engine, _config(max_examples=examples), list(MOMON.invariants))
    for inv in MOMON.invariants:
        alone = explore(engine, _config(max_examples=examples), [inv])[inv.key]
        among = whole[inv.key]
        assert (alone.failure_index, alone.scenarios_run, alone.scenarios_exercised) == \
            (among.failure_index, among.scenarios_run, among.scenarios_exercised), inv.key
    result = check_rule(engine, reference, _config(max_examples=examples, shrink_seconds=2),
                        MOMON.invariant("mw.queue-fifo"))
    assert result.status == "failed" and result.scenarios_run == whole["mw.queue-fifo"].failure_index + 1


def test_workers_share_the_stream_without_changing_it():
    spec = RunSpec(ruleset="momon-wonder", engine="mutant:mw-package-behind-triggers", max_examples=80, seed=2,
                   audit=True)
    one, two = explore_stream(spec, 1), explore_stream(spec, 2)
    assert _without_start(one["rules"]) == _without_start(two["rules"])
    assert {k: v for k, v in one["audit"].as_dict().items() if k != "start"} == \
        {k: v for k, v in two["audit"].as_dict().items() if k != "start"}


class _Counting(Engine):
    """The reference engine, counting the scenarios it is asked to play."""

    plays = 0

    def __init__(self):
        self.inner = reference_engine_for("momon-wonder")

    @property
    def info(self):
        return self.inner.info

    def run(self, scenario, chooser):
        type(self).plays += 1
        return self.inner.run(scenario, chooser)


def test_a_run_plays_each_scenario_once_not_once_per_rule():
    _Counting.plays = 0
    session = Session(RunSpec(ruleset="momon-wonder", engine=f"{__name__}:_Counting", max_examples=50,
                              fixtures=False))
    entries = [session.check_rule(key) for key in session.rule_keys()]
    assert all(entry["status"] == "passed" and entry["scenarios_run"] == 50 for entry in entries)
    assert _Counting.plays == 50


@pytest.mark.slow  # a long check; its kind keeps a fast check in the quick suite (issue 26)
def test_the_cli_gives_the_same_verdicts_whatever_the_workers(tmp_path):
    reports = []
    for workers in (1, 2):
        path = tmp_path / f"report-{workers}.json"
        cli.main(["run", "--ruleset", "redemption", "--engine", "mutant:redemption-seat-order", "--max-examples",
                  "60", "--seed", "4", "--workers", str(workers), "--no-fixtures", "--shrink-seconds", "1",
                  "--report-json", str(path), "--failures-dir", str(tmp_path / "failures")])
        report = json.loads(path.read_text())
        reports.append([(r["key"], r["status"], r["scenarios_run"], r["scenarios_exercised"]) for r in report["rules"]])
    assert reports[0] == reports[1]
    assert any(status == "failed" for _, status, _, _ in reports[0])


class _ProfileRaises(Engine):
    """An engine whose generation_profile raises: no scenario can be built for it."""

    def __init__(self):
        self.inner = reference_engine_for("momon-wonder")

    @property
    def info(self):
        return self.inner.info

    def generation_profile(self, ruleset):
        raise RuntimeError("no profile today")

    def run(self, scenario, chooser):
        return self.inner.run(scenario, chooser)


def test_an_engine_whose_profile_raises_errors_every_rule_and_the_run_goes_on():
    session = Session(RunSpec(ruleset="momon-wonder", engine=f"{__name__}:_ProfileRaises", max_examples=10,
                              fixtures=False))
    entries = [session.check_rule(key) for key in session.rule_keys()]
    assert all(e["status"] == "errored" and "generation_profile raised RuntimeError" in e["first_problem"]
               for e in entries)
