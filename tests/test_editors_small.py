"""Issue 14, item 1: the editors' sweeps draw small scenarios from the rulesets' own builders, and say how many they
enumerated and how many they skipped as too large."""

from __future__ import annotations

import re

import pytest

from conformance.commands.cli import main
from conformance.editors.enumeration import enumerate_traces
from conformance.editors.small import SmallSource, small_scenarios
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import ReplaySource
from conformance.shrinking.reduction import scenario_size
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.registry import get_ruleset

RULESETS = ["momon-wonder", "mtg", "redemption"]


def test_a_small_source_is_seeded_skewed_and_replayable():
    a, b = SmallSource(3), SmallSource(3)
    answers = [a.integer(0, 9) for _ in range(200)]
    assert answers == [b.integer(0, 9) for _ in range(200)]
    assert all(0 <= x <= 9 for x in answers)
    uniform = SmallSource(3, skew=1)
    assert sum(answers) < sum(uniform.integer(0, 9) for _ in range(200))  # skewed toward the simplest answer
    with pytest.raises(ValueError):
        SmallSource(0, skew=0.5)
    with pytest.raises(ValueError):
        SmallSource(0).integer(0, 70_000)
    # The log replays the same scenario through the runner's ReplaySource.
    source = SmallSource(11)
    document = builder_for("momon-wonder")(source, "1.0.0")
    assert builder_for("momon-wonder")(ReplaySource(source.log), "1.0.0") == document


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("name", RULESETS)
def test_small_scenarios_are_smaller_and_enumerate_more_often(name):
    ruleset = get_ruleset(name)
    edition = ruleset.default_edition
    invariants = ruleset.invariants_for(edition)

    def sweep(skew: float) -> tuple[int, int]:
        enumerated, size = 0, 0
        for document in small_scenarios(name, edition, {}, 12, seed=2, skew=skew):
            _, scenario = prepare_scenario(document, "test")  # every one is a valid scenario
            size += scenario_size(document)
            enumerated += enumerate_traces(scenario, invariants, player_choices="scenario", max_runs=60).complete
        return enumerated, size

    small, full = sweep(3.0), sweep(1.0)
    assert small[1] < full[1]
    assert small[0] >= full[0] and small[0] >= 8


@pytest.mark.parametrize("name", RULESETS)
def test_lint_rules_reports_enumerated_and_skipped_on_every_ruleset(name, capsys):
    code = main(["lint-rules", "--ruleset", name, "--scenarios", "6", "--max-runs", "60", "--per-branch-point", "0"])
    out = capsys.readouterr().out
    match = re.search(r"(\d+) small scenarios enumerated \((\d+) larger ones skipped\), (\d+) traces explored", out)
    assert match and int(match[1]) + int(match[2]) == 6 and int(match[3]) > 0, out
    assert code in (0, 1)
