"""The conformance suite as pytest items (added by the pytest plugin when it is configured with a ruleset).

What each outcome means in pytest and in JUnit XML:

* a rule violation fails the item (``<failure>``) with the explanation, the shrunk scenario, both traces and the
  replay command;
* an engine that misbehaved (crashed, timed out, garbage, wrong protocol, nondeterministic, unavailable) or a check
  that raised fails the item in its setup (``<error>``): no verdict on the rule could be reached;
* a rule that never applied in the run, or whose every scenario the engine declined, is skipped (``<skipped>``)
  with the reason;
* otherwise it passes.
"""

from __future__ import annotations

import pytest

from conformance.running.recorder import unexercised_advice
from conformance.reports.text import failure_block, rule_row


def _no_verdict(entry: dict) -> str:
    """Why a rule got no verdict: the engine's problems counted, the first one, its stderr; or the check's error."""
    if entry.get("check_error"):
        return (f"{entry['key']}: the check raised (not the engine: a bug in the file the traceback ends in, its "
                f"ruleset's judge or the suite's conformance/):\n  {entry['check_error']}")
    problems = ", ".join(f"{n} {status}" for status, n in sorted((entry.get("engine_problems") or {}).items()))
    lines = [f"{entry['key']} [{entry.get('rule_number', '?')}]: no verdict, the engine misbehaved ({problems})",
             f"  first problem: {entry.get('first_problem') or '(none given)'}"]
    if entry.get("engine_stderr"):
        lines.append(f"  engine stderr: {entry['engine_stderr'][-2000:]}")
    if entry.get("failure"):
        lines += failure_block(entry)
    return "\n".join(lines)


@pytest.fixture
def conformance_rule_verdict(conformance_session, conformance_rule_key, conformance_record):
    """Conclude the rule (in the item's setup, so that no verdict at all is an error, not a failure)."""
    entry = conformance_session.check_rule(conformance_rule_key)
    conformance_record("rule", entry)
    if entry["status"] == "errored":
        pytest.fail(_no_verdict(entry), pytrace=False)
    return entry


@pytest.fixture
def conformance_fixture_verdict(conformance_session, conformance_fixture_id, conformance_record):
    entry = conformance_session.check_fixture(conformance_fixture_id)
    conformance_record("fixture", entry)
    if entry["status"] == "errored":
        pytest.fail(f"fixture {entry['id']}: no verdict, the engine misbehaved:\n" + "\n".join(entry["messages"]),
                    pytrace=False)
    return entry


def test_rule(conformance_session, conformance_rule_verdict):
    from conformance.documents.expectations import judge

    entry = conformance_rule_verdict
    expected = conformance_session.expected.get(entry["key"]) or conformance_session.quarantined.get(entry["key"])
    verdict = judge(entry, conformance_session.expected, conformance_session.quarantined)
    if verdict == "quarantined":
        pytest.xfail(f"quarantined by the suite ({expected.issue}): {expected.reason}")
    if verdict == "expected-failure":
        pytest.xfail(f"expected failure ({expected.issue}): {expected.reason}")
    if verdict == "unexpected-pass":
        pytest.fail(f"{entry['key']} passed but is listed as an expected failure ({expected.issue}): the "
                    f"expectation is stale, remove it (expected failures are strict)", pytrace=False)
    if entry["status"] == "failed":
        pytest.fail("\n".join([rule_row(entry), *failure_block(entry)]), pytrace=False)
    if entry["status"] == "skipped":
        pytest.skip(f"{entry['key']}: the engine declined every one of {entry['scenarios_run']} scenarios: "
                    f"{entry.get('first_problem') or 'no reason given'}")
    if entry["status"] == "unexercised":
        advice = unexercised_advice(conformance_session.excluded_features(), "--trigger-max-examples",
                                    conformance_session.silent_engine())
        pytest.skip(f"{entry['key']}: the rule never applied in {entry['scenarios_run']} scenarios, so a pass would "
                    f"say nothing ({advice})")


def test_fixture(conformance_fixture_verdict):
    entry = conformance_fixture_verdict
    if entry["status"] == "failed":
        pytest.fail(f"fixture {entry['id']} failed:\n" + "\n".join(entry["messages"]), pytrace=False)
    if entry["status"] == "skipped":
        pytest.skip(f"fixture {entry['id']}: the engine declined it: " + "; ".join(entry["messages"]))


def test_audit(conformance_session, conformance_audit, conformance_record):
    """The divergence audit (``--audit``): an unexplained divergence is a gap in the judge or the reference engine,
    reported as its own verdict and never as the engine's failure of a rule, so this item does not fail."""
    entry = conformance_session.check_audit()
    conformance_record("audit", {**entry, "key": conformance_audit})
