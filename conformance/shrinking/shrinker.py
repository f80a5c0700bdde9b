"""Hypothesis as the search and the shrinker for scenarios.

Exploration builds scenarios from seeds through a :class:`~reference_engine.kernel.source.SeededSource`
(:mod:`conformance.running.runner`), so it pays no per-example cost to Hypothesis. A failing scenario's answer log is a byte
string that rebuilds it (:class:`~reference_engine.kernel.source.ReplaySource`), so it is exactly one ``st.binary()``
choice of :func:`scenarios`. It is saved under the secondary key of a scratch example database and handed to
:func:`hypothesis.find`, whose reuse phase replays it and whose shrink phase minimises it. The minimal log is saved
under the primary key of the run's example database, where the next run, on this machine or any sharing the
database, replays it first (and, starting from a small failure, shrinks it quickly).

Shrinking never stops a run: an engine whose verdict on the same scenario changes from one play to the next makes
Hypothesis raise ``Flaky``/``FlakyFailure``; :func:`shrink` catches it (and any other error of the search), keeps
the smallest scenario seen failing, and says so in :attr:`Built.nondeterministic` with both answers (how many of
several plays with the same choices failed the rule, and how many passed it). The shrunk scenario is replayed
``VERDICT_REPLAYS`` more times for the same reason, so that a flaky verdict is not taken for a deterministic one.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, find, settings, strategies as st
from hypothesis.database import ExampleDatabase, InMemoryExampleDatabase
from hypothesis.errors import Flaky, NoSuchExample

from reference_engine.kernel.registry import Builder
from conformance.shrinking.hypothesis_bridge import decode_log, encode_log, secondary_key
from reference_engine.kernel.source import ReplaySource

MAX_LOG_BYTES = 8192
VERDICT_REPLAYS = 5  # plays of the shrunk scenario, beyond the shrinker's own, that must all fail the rule


@dataclass(frozen=True)
class Built:
    """A scenario document and the answer log that builds it.

    A result of :func:`shrink` may say more: ``nondeterministic`` (empty unless the same scenario, with the same
    choices, both failed and passed the rule; then both answers, counted) and ``shrink_error`` (empty unless the
    search itself raised; the scenario is then the smallest failing one seen).
    """

    document: dict[str, Any]
    log: bytes
    nondeterministic: str = ""
    shrink_error: str = ""


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
        log = decode_log(entry)
        if log is not None:
            logs.append(log)
    return sorted(logs, key=lambda log: (len(log), log))


class _OutOfTime(Exception):
    pass


def _out_of_time_inside(exc: BaseException) -> bool:
    """Whether the deadline (_OutOfTime) is among the exceptions a Flaky error of Hypothesis groups or chains."""
    seen, todo = set(), [exc]
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, _OutOfTime):
            return True
        todo += [*getattr(current, "exceptions", ()), current.__cause__, current.__context__]
    return False


def shrink(build: Builder, edition: str, log: bytes, fails: Callable[[dict[str, Any]], bool],
           key: bytes, database: ExampleDatabase | None = None, seconds: float = 30.0,
           patience: tuple[int, float, int] | None = None,
           replay: Callable[[dict[str, Any]], bool] | None = None) -> Built:
    """Minimise a failing scenario with Hypothesis's shrinker, for at most about ``seconds``, and, with
    ``patience`` = (tries, seconds, plays): on an engine slower than ``seconds`` per play, only until the scenarios
    tried in a row without a smaller failing one are ``tries`` and as many as it took to find the last smaller one,
    and for at most ``plays`` plays. (On a fast engine Hypothesis usually finishes well within the budget, and its
    result does not depend on the machine's speed; on a slow one the time budget would cut it anyway, wherever the
    machine's load left it: a count of plays cuts it at the same place on every machine.)

    ``log`` must build a scenario for which ``fails(document)`` is true; ``fails`` may return None for a play the
    engine did not answer (a crash, a timeout), which is neither a failure nor a pass. Returns the smallest failing
    scenario found (shortest answer log, then smallest answers; the original if nothing smaller fails), replayed
    ``VERDICT_REPLAYS`` more times: see :class:`Built` for what it says when the verdict changed between plays, or
    the search raised (never raised from here). A deterministic result is saved to ``database`` under ``key``.
    ``replay`` (default ``fails``) judges those replays: it must play the scenario again, where ``fails`` may answer
    from what it remembers of earlier plays (conformance.running.runner.PlayMemo).
    """
    scratch = InMemoryExampleDatabase()
    scratch.save(secondary_key(key), encode_log(log))
    # Hypothesis works in a scratch database: what it saves on its own includes scenarios it never played (those the
    # deadline or ``patience`` stopped, which it takes for failures); only the shrunk log goes to ``database``.
    store = scratch
    best = [rebuild(build, edition, log)]
    deadline = time.monotonic() + seconds

    unanswered = [0]  # plays the engine did not answer (crashed, timed out...): neither a pass nor a failure
    tries = [0, 0]  # scenarios tried, and tried when the last smaller failing one was found
    started = time.monotonic()

    def condition(built: Built) -> bool:
        now, fruitless = time.monotonic(), tries[0] - tries[1]
        slow = patience is not None and now - started >= patience[1] * tries[0]
        if now > deadline or (slow and (fruitless >= max(patience[0], tries[1]) or tries[0] >= patience[2])):
            raise _OutOfTime
        verdict = fails(built.document)
        tries[0] += 1
        if verdict is None:
            unanswered[0] += 1
        if not verdict:
            return False
        if (len(built.log), built.log) < (len(best[0].log), best[0].log):
            best[0], tries[1] = built, tries[0]
        return True

    flaky = error = ""
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
    except Flaky as exc:  # FlakyFailure too: the same scenario failed, then passed (or the other way round)
        found = best[0]
        # The deadline raising _OutOfTime in a replay of an example that had an answer looks flaky to Hypothesis;
        # and a play without an answer (a crash) is no verdict: neither is a sign of nondeterminism.
        if not unanswered[0] and not _out_of_time_inside(exc) and time.monotonic() <= deadline:
            flaky = f"Hypothesis found the verdict unreliable: {type(exc).__name__}"
    except Exception as exc:  # a search that breaks must not cost the rule its verdict, nor the run its report
        found, error = best[0], f"shrinking stopped early: {type(exc).__name__}: {str(exc)[:300]}"
    found = _replayed(found, replay or fails, flaky, error)
    if database is not None and not found.nondeterministic:
        database.save(key, encode_log(found.log))
    return found


def _replayed(found: Built, replay: Callable[[dict[str, Any]], bool | None], flaky: str, error: str) -> Built:
    """``found`` played again ``VERDICT_REPLAYS`` times with the same choices: nondeterministic (with both answers,
    counted) when a replay satisfied the rule or Hypothesis found the verdict unreliable (``flaky``)."""
    verdicts = []
    for _ in range(VERDICT_REPLAYS):  # the verdict of the shrunk scenario, played again with the same choices
        try:
            verdict = replay(found.document)
        except Exception as exc:
            error = error or f"replaying the shrunk scenario raised {type(exc).__name__}: {str(exc)[:300]}"
            break
        if verdict is not None:
            verdicts.append(bool(verdict))
    if flaky or False in verdicts:
        failed = verdicts.count(True) + 1  # the play that made it the counterexample failed the rule too
        passed = verdicts.count(False) + (1 if flaky and False not in verdicts else 0)
        flaky = (f"NONDETERMINISTIC: with the same choices the engine's answer to this scenario violated the rule "
                 f"in {failed} of {failed + passed} plays and satisfied it in the other {passed}"
                 + (f" ({flaky})" if flaky else ""))
    return Built(found.document, found.log, nondeterministic=flaky, shrink_error=error)
