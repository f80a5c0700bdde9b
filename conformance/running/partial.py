"""What an interrupted run learnt of the rules it did not conclude (issue 23 item 3).

A run stopped by SIGINT or SIGTERM (while the stream was explored, or while rules were concluded) still knows, for
each rule, what the scenarios explored so far showed: a failure (reported ``failed`` as found: not shrunk, replayed
nor compared with the reference engine, its replay file written at once) or no violation at all (reported
``partial``: "no violation in N scenarios", with how many exercised the rule). A partial verdict is never a pass:
every report says so (the console's ``PARTIAL``, the JSON and JSON Lines status ``partial``, a skipped JUnit case).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from reference_engine.kernel.errors import ConformanceError

PARTIAL = "partial"


def interrupted_verdict(session, key: str, explored: dict[str, Any],
                        described: dict[str, str] | None) -> dict[str, Any] | None:
    """The report entry of rule ``key`` of ``session`` from its share of the explored stream (``explored``: rule key
    -> :class:`conformance.running.runner.Exploration`), or None when no scenario was explored for it. ``described``: the
    engine's description from its handshake, for the replay file of a failure (never asked again: the engine may be
    the reason the run was stopped); without it no replay file is written."""
    share = explored.get(key)
    if share is None:
        return None
    from conformance.running.runner import RuleResult
    from conformance.running.entries import rule_entry

    inv = session.ruleset.invariant(key)
    result = RuleResult(key, inv.rule_number(session.edition), inv.summary,
                        "failed" if share.failure_scenario is not None else PARTIAL, share.scenarios_run,
                        share.scenarios_exercised, dict(share.engine_problems), share.first_problem,
                        share.engine_stderr, share.engine_traceback, check_error=share.check_error,
                        exercised_under=share.exercised_under, skip_reasons=share.skip_reasons)
    if share.failure_scenario is None:
        return rule_entry(result)
    return _found_failure(session, result, share, described)


def _found_failure(session, result, share, described) -> dict[str, Any]:
    """A failure found while exploring, as found, with its replay file written now (so that an interrupt loses
    nothing found)."""
    from conformance.documents.failure_store import replay_command
    from conformance.shrinking.reduction import scenario_size
    from conformance.running.runner import Failure
    from conformance.running.entries import rule_entry

    entry = rule_entry(result)
    size = scenario_size(share.failure_scenario)
    entry["failure"] = {
        "messages": list(share.failure_messages or []) + [
            f"the run was interrupted before this failure (scenario {share.failure_index} of the stream) was "
            f"shrunk, replayed or compared with the reference engine"],
        "scenario": share.failure_scenario, "choice_log": list(share.failure_log or []),
        "original_size": size, "shrunk_size": size, "actual_trace": share.failure_trace, "expected_trace": None,
        "also_violates": [], "determinism": "deterministic", "replay_file": None}
    failure = Failure(messages=entry["failure"]["messages"], scenario=share.failure_scenario,
                      log=entry["failure"]["choice_log"], original_size=size, shrunk_size=size,
                      actual_trace=share.failure_trace, expected_trace=None)
    path = None
    if described is not None:
        try:
            path = session.write_replay(dataclasses.replace(result, failure=failure), described)
        except (OSError, ConformanceError):  # a report entry without its replay file beats none
            path = None
    if path:
        entry["failure"]["replay_file"] = path
        entry["failure"]["replay_command"] = replay_command(path, session.spec.engine, session.spec.engine_timeout)
    return entry

