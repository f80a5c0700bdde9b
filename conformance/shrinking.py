"""Hypothesis as the search and the shrinker for scenarios.

Exploration draws one seed per Hypothesis example and expands it into a batch of scenarios through a
:class:`~conformance.generation.source.SeededSource`, so Hypothesis's per-example cost is paid once per batch. A
failing scenario's answer log is then exactly a Hypothesis choice sequence for the same scenario built through a
:class:`~conformance.generation.source.DrawSource`: it is saved under the secondary key of an example database and
handed to :func:`hypothesis.find`, whose reuse phase replays it and whose shrink phase minimises it. (Hypothesis
does not shrink primary-key entries again, as it assumes they are already minimal.) The minimal sequence is then
saved under the primary key, where the next run, on this machine or any sharing the database, replays it first.
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
from conformance.generation.source import DrawSource, ReplaySource


@dataclass(frozen=True)
class Built:
    """A scenario document and the answer log that builds it."""

    document: dict[str, Any]
    log: tuple[int, ...]


class _RecordingDrawSource(DrawSource):
    def __init__(self, draw):
        super().__init__(draw)
        self.log: list[int] = []

    def integer(self, lo: int, hi: int) -> int:
        value = super().integer(lo, hi)
        self.log.append(value)
        return value


def scenarios(build: Builder, edition: str) -> st.SearchStrategy[Built]:
    """The Hypothesis strategy of scenarios built by ``build``: one ``st.integers`` choice per builder answer."""

    @st.composite
    def strategy(draw) -> Built:
        source = _RecordingDrawSource(draw)
        document = build(source, edition)
        return Built(document, tuple(source.log))

    return strategy()


def rebuild(build: Builder, edition: str, log: list[int] | tuple[int, ...]) -> Built:
    """The scenario an answer log builds (used by replay files and by the database's known failures)."""
    return Built(build(ReplaySource(log), edition), tuple(log))


def database_key(*parts: str) -> bytes:
    """A stable example-database key for one (engine, ruleset, edition, options, rule) combination."""
    return hashlib.sha256("\x00".join(("trigger-conformance", *parts)).encode()).hexdigest()[:32].encode()


def known_failures(database: ExampleDatabase | None, key: bytes) -> list[tuple[int, ...]]:
    """Answer logs saved by earlier runs for ``key``, smallest first."""
    if database is None:
        return []
    logs = []
    for blob in database.fetch(key):
        choices = choices_from_bytes(blob)
        if choices is not None and all(isinstance(c, int) for c in choices):
            logs.append(tuple(choices))
    return sorted(logs, key=lambda log: (len(log), log))


class _OutOfTime(Exception):
    pass


def shrink(build: Builder, edition: str, log: tuple[int, ...], fails: Callable[[dict[str, Any]], bool],
           key: bytes, database: ExampleDatabase | None = None, seconds: float = 30.0) -> Built:
    """Minimise a failing scenario with Hypothesis's shrinker, for at most about ``seconds``.

    ``log`` must build a scenario for which ``fails(document)`` is true. Returns the smallest failing scenario found
    (shortest answer log, then smallest answers; the original if nothing smaller fails). The result is saved to
    ``database`` under ``key``.
    """
    scratch = InMemoryExampleDatabase()
    scratch.save(key + b".secondary", choices_to_bytes(log))
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
        database.save(key, choices_to_bytes(found.log))
    return found
