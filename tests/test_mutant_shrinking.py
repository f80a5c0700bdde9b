"""Issue 10 item 5: shrinking shrinks the scenario. Every bundled faulty engine's first failure, shrunk the way a run
shrinks it (``conformance.running.concluding._minimise``: the scenario-level passes, Hypothesis on the answer log, the passes
again), is at most its minimal size + 1, size being :func:`conformance.shrinking.reduction.scenario_size` (objects, abilities,
scripted actions).

The minimal sizes are recorded in ``tests/data/mutant_minimal_scenarios.json``: for each mutant, the smallest
scenario known to show its fault, with where it came from: a hand-written fixture of ``conformance/fixtures/`` on
which the mutant breaks its rule, or, where that was larger or none exists, the suite's shrinking with a long budget
(from seed 0, or the seed on which this test found a smaller one); then reduced until no change the reduction can
make keeps the fault. None is written by hand. This test checks every recorded scenario: it shows the fault (while
the reference engine plays it to a trace), its size is the one recorded, and it is 1-minimal: no one-step reduction
of it (:func:`conformance.shrinking.reduction.reductions`: every removal of one script step, action, ability, object or
player, every simplification and fold, every rewrite followed by one of those) still fails. It then shrinks each
mutant's first failure on another seed than 0 (a seed sampled per mutant, so the starting scenario is not the one
the minimum came from), and fails if the result is more than 1 over the recorded size; under it, it warns (the
record is not the smallest known: regenerate it as the warning says). Regenerating the file: see the ``regenerate`` function below.
"""

from __future__ import annotations

import json
import warnings
import zlib
from pathlib import Path

import pytest

from conformance.running.audit import mutant_config
from conformance.shrinking.reduction import reductions, scenario_size, well_formed
from conformance.running.concluding import _fails as run_fails, check_rule
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import MUTANTS as INSTALLED
from reference_engine.kernel.registry import get_ruleset
from reference_engine.kernel.schemas import bundled

# The bundled rulesets' faulty engines, whose minimal scenarios are recorded here (another installed ruleset's are not).
MUTANTS = {name: m for name, m in INSTALLED.items() if m.ruleset in bundled()}

DATA = Path(__file__).resolve().parent / "data" / "mutant_minimal_scenarios.json"
MINIMAL = json.loads(DATA.read_text("utf-8"))
SHRINK_SECONDS = 16.0  # a run's default is 30: here the CI cost of the shrinks is kept to a few minutes
SEEDS = 5  # the seed of each mutant's shrinking test is drawn from 1..SEEDS by its name
# The quick suite checks one faulty engine of each ruleset, the first by name unless a cheaper one is named here (the
# first MTG one took 13 s of the quick suite, issue 26); the others are marked slow (.ci/run).
CHEAP = {"mtg": "mtg-late-sba"}
QUICK = {CHEAP.get(ruleset) or min(name for name, m in MUTANTS.items() if m.ruleset == ruleset)
         for ruleset in {m.ruleset for m in MUTANTS.values()}}
NAMES = [pytest.param(name, marks=() if name in QUICK else pytest.mark.slow) for name in sorted(MUTANTS)]


def _fails(name: str):
    """Whether a scenario fails the mutant's rule on the mutant while the reference engine plays it to a trace (the
    predicate a run shrinks with)."""
    mutant = MUTANTS[name]
    inv = get_ruleset(mutant.ruleset).invariant(mutant.expected_rule_key)
    return run_fails(mutant.factory(), mutant_config(name), inv, reference_engine_for(mutant.ruleset))


def test_every_bundled_faulty_engine_has_a_minimal_scenario():
    assert set(MINIMAL) == set(MUTANTS)
    for name, known in MINIMAL.items():
        assert known["rule_key"] == MUTANTS[name].expected_rule_key and known["source"], name


@pytest.mark.sampled_nightly  # one slow case in four in .ci/run, all nightly (15 minutes)
@pytest.mark.parametrize("name", NAMES)
def test_the_minimal_scenario_shows_the_fault_and_is_one_minimal(name):
    known = MINIMAL[name]
    scenario, fails = known["scenario"], _fails(name)
    assert scenario_size(scenario) == known["size"]
    assert well_formed(scenario) and fails(scenario), "the recorded scenario does not show the fault"
    # Every removal of one script step, action, ability, object (with its mentions in lists), player or choice, every
    # simplification, fold, inline, hoist and sink, and every rewrite followed by one of those (reference engine
    # playing each to a trace).
    kept = next(reductions(scenario, fails, well_formed, set(MUTANTS[name].options)), None)
    assert kept is None, (f"a change still shows the fault: the recorded scenario is not minimal (size "
                          f"{scenario_size(kept)}: {json.dumps(kept, sort_keys=True)})")


def seed_for(name: str) -> int:
    return 1 + zlib.crc32(name.encode()) % SEEDS


@pytest.mark.sampled_nightly  # one slow case in four in .ci/run, all nightly (15 minutes)
@pytest.mark.parametrize("name", NAMES)
def test_the_first_failure_shrinks_to_at_most_the_minimal_size_plus_one(name):
    inv = get_ruleset(MUTANTS[name].ruleset).invariant(MUTANTS[name].expected_rule_key)
    minimal = MINIMAL[name]["size"]
    for budget in (SHRINK_SECONDS, 3 * SHRINK_SECONDS):  # a shrink starved by a loaded machine gets a second go
        failure, seed = _shrunk_first_failure(name, inv, budget)
        assert failure.shrunk_size <= failure.original_size
        if failure.shrunk_size < minimal:  # the record is not the smallest known: said, not failed (it depends on
            # how far the shrink got in its time budget on this machine, and the bound below holds all the more)
            warnings.warn(f"{name} (seed {seed}) shrank to {failure.shrunk_size}, below the recorded minimal size "
                          f"{minimal}: record it (python tests/test_mutant_shrinking.py --seeds {seed} {name})")
        if failure.shrunk_size <= minimal + 1:
            return
    pytest.fail(f"{name} (seed {seed}): shrunk from {failure.original_size} to {failure.shrunk_size} with {budget:g} s, "
                f"its minimal size is {minimal} ({MINIMAL[name]['source']})")


def _shrunk_first_failure(name: str, inv, budget: float):
    """The first failure of ``name`` caught by ``inv`` on its sampled seed (or the next seeds), shrunk as a run
    shrinks it with ``budget`` seconds."""
    mutant = MUTANTS[name]
    for seed in (seed_for(name), *(s for s in range(1, SEEDS + 1) if s != seed_for(name))):
        config = mutant_config(name, 100, seed, budget)
        result = check_rule(mutant.factory(), reference_engine_for(mutant.ruleset), config, inv)
        if result.failure is not None:
            return result.failure, seed
    pytest.fail(f"{name} was not caught by {inv.key} on seeds 1..{SEEDS}")


def regenerate(path: Path = DATA, names=None, seeds=(0,)) -> None:  # pragma: no cover - run by hand
    """Rewrite the recorded minimal scenarios (of ``names``, default all): for each mutant, the smallest of the
    scenario recorded today and of the smallest of the fixtures on which it breaks its rule and its failures on
    ``seeds`` shrunk with a 30 s budget, each reduced (120 s) to 1-minimal. Ties go to the recorded one. Run it
    when mutants or the vocabulary change, or the reduction does (then ``seeds`` may be empty: ``--seeds ''``), or
    when the shrinking test finds a failure smaller than the one recorded (``--seeds`` its seed)."""
    from conformance.documents.fixture_files import bundled_fixtures
    from conformance.shrinking.reduction import reduce_scenario

    found_all = dict(json.loads(path.read_text("utf-8"))) if path.exists() else {}
    for name in sorted(names or MUTANTS):
        mutant, fails = MUTANTS[name], _fails(name)
        inv = get_ruleset(mutant.ruleset).invariant(mutant.expected_rule_key)
        found = []
        if name in found_all and well_formed(found_all[name]["scenario"]) and fails(found_all[name]["scenario"]):
            found.append((found_all[name]["size"], found_all[name]["source"], found_all[name]["scenario"]))
        found += [(scenario_size(f.scenario), f"fixture {f.id}", f.scenario) for f in bundled_fixtures(mutant.ruleset)
                  if f.scenario["edition"] == mutant.edition and fails(f.scenario)]
        for seed in seeds if seeds or name in found_all else (0,):
            result = check_rule(mutant.factory(), reference_engine_for(mutant.ruleset),
                                mutant_config(name, 100, seed, 30.0), inv)
            if result.failure is not None:
                found.append((result.failure.shrunk_size, f"shrunk from seed {seed}", result.failure.scenario))
        best = None
        recorded = found[:1] if name in found_all and found and found[0][2] is found_all[name]["scenario"] else []
        for size, source, scenario in recorded + sorted(found[len(recorded):], key=lambda t: t[0])[:1]:
            reduced = reduce_scenario(scenario, fails, well_formed, 120, set(mutant.options))
            if best is None or scenario_size(reduced) < best[0]:
                reduced_now = scenario_size(reduced) < size and not source.endswith(", then reduced")
                best = (scenario_size(reduced), source + (", then reduced" if reduced_now else ""), reduced)
        found_all[name] = {"rule_key": inv.key, "size": best[0], "source": best[1], "scenario": best[2]}
        print(name, best[0], best[1], flush=True)
        path.write_text(json.dumps(found_all, indent=1, sort_keys=True) + "\n", "utf-8")  # kept as it goes


if __name__ == "__main__":  # pragma: no cover
    import sys

    arguments = sys.argv[1:]  # [--seeds 0,1,...] [mutant names]
    chosen = [int(s) for s in arguments[1].split(",") if s] if arguments[:1] == ["--seeds"] else [0]
    regenerate(names=arguments[2 if arguments[:1] == ["--seeds"] else 0:] or None, seeds=tuple(chosen))
