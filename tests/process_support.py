"""Helpers shared by tests/test_process_*.py: starting the engines of tests/engines and making scenarios."""

from __future__ import annotations

import copy
import os
import sys
from pathlib import Path

from conformance.adapters.process import ProcessEngine
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import SeededSource
from conformance.documents.scenarios import prepare_scenario

REPO = Path(__file__).resolve().parent.parent
ENGINES = Path(__file__).resolve().parent / "engines"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}

TWO_TRIGGERS = {
    "format": "trigger-conformance/scenario/1", "id": "two-triggers", "ruleset": "momon-wonder", "edition": "1.0.0",
    "players": ["P1", "P2"], "active_player": "P1",
    "objects": [{"id": "X", "owner": "P1", "zone": "field", "abilities": [
        {"id": "A1", "trigger": {"event": "signal", "name": "go"}, "effect": [{"do": "signal", "name": "one"}]},
        {"id": "A2", "trigger": {"event": "signal", "name": "go"}, "effect": [{"do": "signal", "name": "two"}]}]}],
    "script": [{"step": "main", "actions": [{"by": "P1", "effect": [{"do": "signal", "name": "go"}]}]}],
}


# One trigger from one event: no order for any player to choose.
ONE_TRIGGER = {**TWO_TRIGGERS, "id": "one-trigger", "objects": [{**TWO_TRIGGERS["objects"][0], "abilities": [
    TWO_TRIGGERS["objects"][0]["abilities"][0]]}]}


def engine(script: str, *args: str, **kwargs) -> ProcessEngine:
    """A ProcessEngine running ``tests/engines/<script>.py`` (short timeouts unless given)."""
    kwargs.setdefault("timeout", 5.0)
    kwargs.setdefault("start_timeout", 30.0)
    kwargs.setdefault("env", ENV)
    return ProcessEngine([sys.executable, str(ENGINES / f"{script}.py"), *args], **kwargs)


def server(*args: str, **kwargs) -> ProcessEngine:
    """The reference engine served over the protocol (``python -m reference_engine.serve``)."""
    kwargs.setdefault("timeout", 10.0)
    kwargs.setdefault("env", ENV)
    return ProcessEngine([sys.executable, "-m", "reference_engine.serve", *args], cwd=str(REPO), **kwargs)


def seeded(seed: int, name: str | None = None) -> dict:
    """The prepared Momon Wonder scenario of ``seed`` (options resolved), with scenario id ``name``."""
    document = builder_for("momon-wonder")(SeededSource(seed), "1.0.0")
    if name is not None:
        document["id"] = name
    return prepare_scenario(document, f"seeded scenario {seed}")[1]


def named(document: dict, name: str) -> dict:
    document = copy.deepcopy(document)
    document["id"] = name
    return prepare_scenario(document, name)[1]
