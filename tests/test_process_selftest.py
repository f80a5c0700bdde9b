"""The mutation self-check through the process protocol: faults are still caught, and shrunk, across the wire."""

from __future__ import annotations

import pytest

from reference_engine.kernel.errors import ConformanceError
from conformance.commands.selftest import check_mutant, default_process_mutants, selftest, summary_line, verdict_line
from reference_engine.kernel.registry import MUTANTS

OVER_THE_WIRE = default_process_mutants(MUTANTS, 2)


def test_two_mutants_of_different_rulesets_go_through_the_process_protocol():
    assert len(OVER_THE_WIRE) == 2
    assert len({MUTANTS[n].ruleset for n in OVER_THE_WIRE}) == min(2, len({m.ruleset for m in MUTANTS.values()}))


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("name", ["mw-lifo", "redemption-inactive-player-first"])
def test_a_mutant_served_over_the_protocol_is_caught_like_in_process(name):
    if name not in MUTANTS:
        pytest.skip(f"no mutant {name}")
    remote = check_mutant(name, max_examples=100, via_process=True)
    local = check_mutant(name, max_examples=100)
    assert remote.caught and remote.via == "process" and not remote.engine_problems
    assert (remote.rule_key, remote.examples, remote.shrunk_size) == (local.rule_key, local.examples, local.shrunk_size)
    assert remote.rule_key == MUTANTS[name].expected_rule_key
    assert remote.determinism == "deterministic"
    line = verdict_line(remote)
    assert name in line and "process" in line and "yes" in line
    assert summary_line([remote, local]) == ("2 of 2 mutants caught, 2 by their named rule key (1 through the "
                                             "process protocol); 0 with an unexplained divergence")


def test_unknown_mutants_are_named():
    with pytest.raises(ConformanceError) as raised:
        selftest(["no-such-mutant"])
    assert "no mutant 'no-such-mutant'" in str(raised.value)
