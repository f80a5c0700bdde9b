"""The conformance suite as pytest items (collected when the pytest plugin is configured with a ruleset)."""

from __future__ import annotations

import pytest

from conformance.reports.text import audit_block, failure_block, rule_row


def test_rule(conformance_session, conformance_rule_key, conformance_record):
    entry = conformance_session.check_rule(conformance_rule_key)
    conformance_record("rule", entry)
    if entry["status"] in ("failed", "errored"):
        pytest.fail("\n".join([rule_row(entry), *failure_block(entry)]), pytrace=False)


def test_fixture(conformance_session, conformance_fixture_id, conformance_record):
    entry = conformance_session.check_fixture(conformance_fixture_id)
    conformance_record("fixture", entry)
    if entry["status"] in ("failed", "errored"):
        pytest.fail(f"fixture {entry['id']} {entry['status']}:\n" + "\n".join(entry["messages"]), pytrace=False)


def test_audit(conformance_session, conformance_audit, conformance_record):
    """The divergence audit (``--audit``): an unexplained divergence is a gap in the judge or the reference engine,
    reported as its own verdict and never as the engine's failure of a rule, so this item does not fail."""
    entry = conformance_session.check_audit()
    conformance_record("audit", {**entry, "key": conformance_audit})
