"""Speed work changes nothing observable (issue 10, item 7): the first scenarios of each ruleset's stream, their
answer logs, every engine's traces (the reference engines and each bundled faulty engine) and every rule's verdict
and exercised count give the digests recorded from main before that work (tests/stream_digest.py)."""

from __future__ import annotations

import json

import pytest

from stream_digest import RECORDED, SEED, cases, digest

RECORDED_DIGESTS = json.loads(RECORDED.read_text())


def test_every_case_is_recorded_with_the_same_seed():
    assert RECORDED_DIGESTS["seed"] == SEED
    assert sorted(RECORDED_DIGESTS["digests"]) == sorted(f"{r}/{e}/{c}" for r, e, c in cases())


# The quick suite checks the reference engines' digests; the faulty engines' are marked slow (.ci/run runs them).
CASES = [pytest.param(*case, id="-".join(map(str, case)), marks=() if case[1] == "reference" else pytest.mark.slow)
         for case in cases()]


@pytest.mark.sampled_nightly  # one slow case in four in .ci/run, all nightly (15 minutes)
@pytest.mark.parametrize("ruleset, engine, count", CASES)
def test_stream_traces_and_verdicts_are_unchanged(ruleset, engine, count):
    assert digest(ruleset, engine, count) == RECORDED_DIGESTS["digests"][f"{ruleset}/{engine}/{count}"]
