"""Hypothesis as the search and the shrinker for scenarios.

Exploration builds scenarios from seeds through a :class:`~conformance.generation.source.SeededSource`
(:mod:`conformance.runner`), so it pays no per-example cost to Hypothesis. A failing scenario's answer log is a byte string that rebuilds it (:class:`~conformance.generation.source.ReplaySource`),
so it is exactly one ``st.binary()`` choice of :func:`scenarios`. It is saved under the secondary key of an example
database and handed to :func:`hypothesis.find`, whose reuse phase replays it and whose shrink phase minimises it
(Hypothesis does not shrink primary-key entries again, as it takes them to be minimal already). The minimal log is
then saved under the primary key, where the next run, on this machine or any sharing the database, replays it first.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, find, settings, strategies as st
from hypothesis.database import (
    ExampleDatabase, InMemoryExampleDatabase, MultiplexedDatabase, choices_from_bytes, choices_to_bytes,
)
from hypothesis.errors import NoSuchExample

from conformance.generation.registry import Builder
from conformance.generation.source import ReplaySource

MAX_LOG_BYTES = 8192


@dataclass(frozen=True)
class Built:
    """A scenario document and the answer log that builds it."""

    document: dict[str, Any]
    log: bytes


def scenarios(build: Builder, edition: str) -> st.SearchStrategy[Built]:
    """The Hypothesis strategy of scenarios built by ``build`` from one ``st.binary()`` answer log."""
    return st.binary(max_size=MAX_LOG_BYTES).map(lambda blob: rebuild(build, edition, blob))


def rebuild(build: Builder, edition: str, log: bytes | list[int] | tuple[int, ...]) -> Built:
    """The scenario an answer log builds; the log is trimmed to the bytes the builder read."""
    source = ReplaySource(log)
    document = build(source, edition)
    return Built(document, bytes(log)[:source.consumed])


def database_key(*parts: str) -> bytes:
    """A stable example-database key for one (engine, ruleset, edition, options, rule) combination."""
    return hashlib.sha256("\x00".join(("trigger-conformance", *parts)).encode()).hexdigest()[:32].encode()


def known_failures(database: ExampleDatabase | None, key: bytes) -> list[bytes]:
    """Answer logs saved by earlier runs for ``key``, smallest first."""
    if database is None:
        return []
    logs = []
    for entry in database.fetch(key):
        choices = choices_from_bytes(entry)
        if choices is not None and len(choices) == 1 and isinstance(choices[0], bytes):
            logs.append(choices[0])
    return sorted(logs, key=lambda log: (len(log), log))


class _OutOfTime(Exception):
    pass


def shrink(build: Builder, edition: str, log: bytes, fails: Callable[[dict[str, Any]], bool],
           key: bytes, database: ExampleDatabase | None = None, seconds: float = 30.0) -> Built:
    """Minimise a failing scenario with Hypothesis's shrinker, for at most about ``seconds``.

    ``log`` must build a scenario for which ``fails(document)`` is true. Returns the smallest failing scenario found
    (shortest answer log, then smallest answers; the original if nothing smaller fails). The result is saved to
    ``database`` under ``key``.
    """
    scratch = InMemoryExampleDatabase()
    scratch.save(key + b".secondary", choices_to_bytes((bytes(log),)))
    store = scratch if database is None else MultiplexedDatabase(scratch, database)
    best = [rebuild(build, edition, log)]
    deadline = time.monotonic() + seconds

    def condition(built: Built) -> bool:
        if time.monotonic() > deadline:
            raise _OutOfTime
        if not fails(built.document):
            return False
        if (len(built.log), built.log) < (len(best[0].log), best[0].log):
            best[0] = built
        return True

    try:
        found = find(
            scenarios(build, edition),
            condition,
            settings=settings(database=store, phases=[Phase.reuse, Phase.shrink], max_examples=10_000,
                              deadline=None, suppress_health_check=list(HealthCheck)),
            database_key=key,
        )
    except (NoSuchExample, _OutOfTime):
        # Out of time, or the failure did not reproduce from its log (a nondeterministic engine): keep the best.
        found = best[0]
    if database is not None:
        database.save(key, choices_to_bytes((found.log,)))
    return found
