"""The only place that relies on Hypothesis internals (issue 10, item 6): how an example database entry encodes a
test case, and the key suffix under which Hypothesis keeps entries it will shrink again.

:mod:`conformance.shrinking.shrinker` stores a failing scenario's answer log as one ``st.binary()`` choice in Hypothesis's
example database and lets ``find()`` replay and shrink it. That needs two things Hypothesis does not document as
public API: the encoding of an entry (``choices_to_bytes`` / ``choices_from_bytes`` in ``hypothesis.database``, 6.x)
and the ``.secondary`` key suffix (entries there are replayed in the reuse phase and shrunk, while primary entries are
taken as minimal). tests/test_hypothesis_bridge.py checks both against the installed Hypothesis and fails loudly,
naming this module, when a release changes them.
"""

from __future__ import annotations

from hypothesis.database import choices_from_bytes, choices_to_bytes

SECONDARY_SUFFIX = b".secondary"


def encode_log(log: bytes) -> bytes:
    """A database entry holding one test case whose only choice is the byte string ``log``."""
    return choices_to_bytes((bytes(log),))


def decode_log(entry: bytes) -> bytes | None:
    """The answer log of an entry written by :func:`encode_log`, or None for any other entry."""
    choices = choices_from_bytes(entry)
    if choices is not None and len(choices) == 1 and isinstance(choices[0], bytes):
        return choices[0]
    return None


def secondary_key(key: bytes) -> bytes:
    """The key under which Hypothesis's reuse phase replays an entry and its shrink phase minimises it."""
    return key + SECONDARY_SUFFIX


__all__ = ["SECONDARY_SUFFIX", "decode_log", "encode_log", "secondary_key"]
