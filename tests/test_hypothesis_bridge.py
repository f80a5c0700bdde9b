"""The Hypothesis internals the shrinking bridge relies on (conformance/shrinking/hypothesis_bridge.py), checked against the
installed Hypothesis: if a release changes them, these tests fail and name the module to update."""

from __future__ import annotations

from hypothesis import Phase, find, settings, strategies as st
from hypothesis.database import InMemoryExampleDatabase

from conformance.shrinking.hypothesis_bridge import decode_log, encode_log, secondary_key

WHERE = "conformance/shrinking/hypothesis_bridge.py relies on it; update it for this Hypothesis release"


def test_an_entry_round_trips():
    log = bytes([3, 0, 255, 17])
    assert decode_log(encode_log(log)) == log, WHERE
    from hypothesis.database import choices_to_bytes

    assert decode_log(choices_to_bytes((b"one", b"two"))) is None, WHERE  # two choices: not an answer log


def test_find_replays_and_shrinks_a_secondary_entry():
    """The bridge's whole premise: an entry saved under the secondary key is replayed by the reuse phase and
    shrunk, and ``find`` then returns a smaller value that still satisfies the condition."""
    database = InMemoryExampleDatabase()
    key = b"bridge-test"
    start = bytes([200, 1, 2, 3, 4, 5, 6, 7])
    database.save(secondary_key(key), encode_log(start))
    seen = []

    def condition(blob: bytes) -> bool:
        seen.append(blob)
        return len(blob) >= 2 and blob[0] >= 100

    found = find(st.binary(), condition, database_key=key,
                 settings=settings(database=database, phases=[Phase.reuse, Phase.shrink], max_examples=1000))
    assert seen and seen[0] == start, f"the reuse phase did not replay the secondary entry first: {WHERE}"
    assert found == bytes([100, 0]), f"the shrink phase did not minimise the replayed entry: {WHERE}"
