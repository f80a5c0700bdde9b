"""Shared test helpers: fixtures on disk, and small tools to break a trace by hand."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED_RULES = ROOT.parent / "shared" / "rules"

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")


def load_fixture_document(ruleset: str, fixture_id: str) -> dict:
    return json.loads((ROOT / "fixtures" / ruleset / f"{fixture_id}.json").read_text("utf-8"))


@pytest.fixture
def momon_fixture():
    """Load a Momon Wonder fixture by id as (prepared scenario, deep copy of its expected trace)."""
    from conformance.scenarios import prepare_scenario

    def load(fixture_id: str):
        document = load_fixture_document("momon-wonder", fixture_id)
        _, scenario = prepare_scenario(document["scenario"], fixture_id)
        return scenario, copy.deepcopy(document["expected_trace"])

    return load
