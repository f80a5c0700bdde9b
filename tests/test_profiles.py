"""Profiles (issue 10, item 4): an engine declares the part of a ruleset it can play (in-process with
``Engine.generation_profile``, over the process protocol with ``profiles`` in its ``started`` message) and the
generator builds only that, so a partial engine gets every rule it can exercise checked and nothing skipped."""

from __future__ import annotations

import sys
from pathlib import Path

from conformance.adapters.process import ProcessEngine
from conformance.running.session import RunSpec, Session

ROOT = Path(__file__).resolve().parent.parent
ENGINE = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'partial_mtg.py'}"


def test_a_process_engine_declares_its_profile_in_the_handshake():
    engine = ProcessEngine(ENGINE, env={"PYTHONPATH": str(ROOT)})
    try:
        assert engine.generation_profile("mtg") == {"exclude": ["delayed", "reflexive"]}
        assert engine.generation_profile("momon-wonder") is None
    finally:
        engine.close()


def test_a_partial_process_engine_is_given_only_what_it_can_play(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    session = Session(RunSpec(ruleset="mtg", engine=f"cmd:{ENGINE}", max_examples=40, fixtures=False))
    try:
        entries = {key: session.check_rule(key) for key in session.rule_keys()}
    finally:
        session.close()
    assert not any(e.get("engine_problems", {}).get("skipped") for e in entries.values()), entries
    exercised = [k for k, e in entries.items() if e["scenarios_exercised"]]
    assert "mtg.apnap-order" in exercised and "mtg.delayed-trigger" not in exercised


def test_without_the_profile_the_same_run_does_reach_what_the_partial_engine_excludes():
    session = Session(RunSpec(ruleset="mtg", engine="reference", max_examples=40, fixtures=False,
                              rules=("mtg.delayed-trigger", "mtg.reflexive")))
    try:
        entries = [session.check_rule(key) for key in session.rule_keys()]
    finally:
        session.close()
    assert all(e["scenarios_exercised"] > 0 for e in entries), entries
