"""What the first scenarios of each ruleset's stream give, reduced to one digest per engine: the scenario documents
and their answer logs (generation), the traces (the engines) and every rule's verdict, exercised count and check
error (the judge). tests/test_stream_digest.py compares the digests with those recorded in
tests/data/stream_digest.json, so that a change made for speed cannot change a verdict, a trace or which scenario
a (seed, n) gives without the test saying so.

The recorded digests were computed from main before the speed work of issue 10 (item 7), and recomputed after
changes meant to change the stream, a trace or a verdict (new options and faulty engines, control ending off the
battlefield, the script played as written), where they were checked equal to those of the same tree with the speed
work's commits reverted. Regenerate them only for such a change: ``python tests/stream_digest.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.running.checking import check_scenario  # noqa: E402
from conformance.generation.stream import explorable_options, stream_source  # noqa: E402
from conformance.running.runner import RunConfig, prepare_generated, scenario_builder  # noqa: E402
from reference_engine.kernel.registry import reference_engine_for  # noqa: E402
from reference_engine.kernel.registry import MUTANTS  # noqa: E402
from reference_engine.kernel.registry import get_ruleset  # noqa: E402

RECORDED = Path(__file__).resolve().parent / "data" / "stream_digest.json"
RULESETS = ("momon-wonder", "mtg", "redemption")  # the bundled rulesets, by name: any other installed is left out
SEED = 3
REFERENCE_SCENARIOS = 200  # the first scenarios of the stream, for each reference engine
MUTANT_SCENARIOS = 25  # the first scenarios of the stream, for each bundled faulty engine


def _dump(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(ruleset_name: str, engine_name: str, count: int) -> str:
    """SHA-256 (hex) of the first ``count`` scenarios of the stream of ``ruleset_name`` (seed :data:`SEED`, every
    option drawn) played on ``engine_name`` ("reference" or a bundled faulty engine's name) and judged by every rule
    of the default edition: per scenario, the document, its answer log, the engine's outcome (status, message,
    trace) and each rule's violations, exercised count and whether its check raised."""
    ruleset = get_ruleset(ruleset_name)
    engine = reference_engine_for(ruleset_name) if engine_name == "reference" else MUTANTS[engine_name].factory()
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}), seed=SEED,
                       explored_options=explorable_options(ruleset, {}))
    build = scenario_builder(config, engine)
    invariants = ruleset.invariants_for(config.edition)
    sha = hashlib.sha256()
    for n in range(count):
        source = stream_source(config.seed, n)
        scenario = prepare_generated(config, build(source, config.edition))
        result = check_scenario(engine, scenario, invariants)
        outcome = result.outcome
        sha.update(_dump({
            "n": n, "scenario": scenario, "log": source.log.hex(),
            "status": outcome.status, "message": outcome.message, "trace": outcome.trace,
            "violations": result.violations, "exercised": result.exercised, "errors": sorted(result.check_errors),
        }).encode())
    return sha.hexdigest()


def cases() -> list[tuple[str, str, int]]:
    """(ruleset, engine, scenarios) of every digest recorded: each reference engine, then each faulty engine."""
    found = [(name, "reference", REFERENCE_SCENARIOS) for name in RULESETS]
    found += [(m.ruleset, m.name, MUTANT_SCENARIOS) for m in MUTANTS.values() if m.ruleset in RULESETS]
    return found


def compute() -> dict[str, str]:
    return {f"{ruleset}/{engine}/{count}": digest(ruleset, engine, count) for ruleset, engine, count in cases()}


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/stream_digest.py --write")
    RECORDED.write_text(json.dumps({"seed": SEED, "digests": compute()}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {RECORDED}")
