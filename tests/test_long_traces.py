"""Issue 34: the harness's own memory on a long trace. Judging a trace of about 100,000 entries (one event that
triggers 20,000 abilities, every one then resolved) once peaked at 17 GB for Momon Wonder: every departure copied the
whole queue, every snapshot every object's zone. Each ruleset's judge now keeps what does not change between entries
shared. Measured in a fresh process (its peak resident size, ``ru_maxrss``), never a timing."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT

PEAK_MIB = 600  # the harness with everything imported is about 90 MiB; the play and the trace about 60 more

PROGRAM = """
import json, resource, sys
sys.path.insert(0, {benchmarks!r})
from bench_engine_scaling import one_event
from conformance.running.checking import EngineOutcome, check_trace, play
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.registry import get_ruleset, reference_engine_for
name, n = sys.argv[1], int(sys.argv[2])
_, scenario = prepare_scenario(one_event(name, n), "long")
trace = play(reference_engine_for(name, max_trace_entries=10 ** 7), scenario).trace
trace = json.loads(json.dumps(trace))  # as it comes from an engine: nothing shared with the scenario
checked = check_trace(scenario, trace, get_ruleset(name).invariants_for(scenario["edition"]),
                      EngineOutcome("trace", trace=trace))
print(json.dumps({{"entries": len(trace["entries"]), "violations": sorted(checked.violations),
                  "errors": sorted(checked.check_errors), "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["momon-wonder", pytest.param("mtg", marks=pytest.mark.nightly)])  # MTG's ~45 s
def test_a_100000_entry_trace_is_judged_in_bounded_memory(ruleset):
    program = PROGRAM.format(benchmarks=str(ROOT / "benchmarks"))
    done = subprocess.run([sys.executable, "-c", program, ruleset, "20000"], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["entries"] >= 100_000
    assert found["violations"] == [] and found["errors"] == []  # the reference engine's trace, judged right
    assert found["peak_mib"] < PEAK_MIB, found
