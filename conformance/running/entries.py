"""A rule's verdict as a report entry (``schemas/report.schema.json#/$defs/rule``): written by the session for a rule
it concluded and by :mod:`conformance.running.partial` for a rule an interrupted run left partial."""

from __future__ import annotations

from typing import Any

from conformance.running.runner import RuleResult


def rule_entry(result: RuleResult) -> dict[str, Any]:
    """A RuleResult as a report entry (``schemas/report.schema.json#/$defs/rule``)."""
    entry: dict[str, Any] = {
        "key": result.key, "rule_number": result.rule_number, "summary": result.summary, "status": result.status,
        "scenarios_run": result.scenarios_run, "scenarios_exercised": result.scenarios_exercised,
        "seconds": result.seconds,
    }
    if result.engine_problems:
        entry["engine_problems"] = dict(result.engine_problems)
        entry["first_problem"] = result.first_problem
        if result.engine_stderr:
            entry["engine_stderr"] = result.engine_stderr
        if result.engine_traceback:
            entry["engine_traceback"] = result.engine_traceback
        if result.scenarios_lost:
            entry["scenarios_lost"] = result.scenarios_lost
    if result.check_error:
        entry["check_error"] = result.check_error
    if result.skip_reasons:
        entry["skip_reasons"] = dict(sorted(result.skip_reasons.items(), key=lambda kv: (-kv[1], kv[0])))
    if result.exercised_under:
        entry["exercised_under"] = {name: dict(sorted(counts.items()))
                                    for name, counts in sorted(result.exercised_under.items())}
    failure = result.failure
    if failure is not None:
        entry["failure"] = {
            "messages": failure.messages, "scenario": failure.scenario, "choice_log": failure.log,
            "original_size": failure.original_size, "shrunk_size": failure.shrunk_size,
            "actual_trace": failure.actual_trace, "expected_trace": failure.expected_trace,
            "also_violates": failure.also_violates, "determinism": failure.determinism, "replay_file": None,
            "seconds": {"shrinking": failure.shrink_seconds, "explaining": failure.explain_seconds},
        }
    return entry
