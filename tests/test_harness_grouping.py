"""Issue 27 item 5: the harness is grouped by job. conformance/ holds rooms (commands, running, generation,
shrinking, documents, adapters, reports, editors) and, beside them, only the package itself and the public
Hypothesis strategies; each room's __init__.py says what belongs in it and names every module it holds, so a
reader finds the room a change belongs in. The rooms' own layering is an import-linter contract
(tests/test_layering.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parent.parent / "conformance"
ROOMS = sorted(p.name for p in HARNESS.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def test_beside_the_rooms_only_the_package_and_the_public_strategies():
    assert sorted(p.name for p in HARNESS.glob("*.py")) == ["__init__.py", "strategies.py"]
    assert set(ROOMS) >= {"commands", "running", "generation", "shrinking", "documents", "adapters", "reports",
                          "editors"}


def _members(room: Path) -> set[str]:
    return {p.stem for p in room.glob("*.py") if p.name != "__init__.py"} | {
        p.name for p in room.iterdir() if p.is_dir() and (p / "__init__.py").exists()}


@pytest.mark.parametrize("room", ["commands", "running", "generation", "shrinking", "documents"])
def test_a_room_says_what_it_holds_and_holds_nothing_else(room):
    init = HARNESS / room / "__init__.py"
    tree = ast.parse(init.read_text())
    docstring = ast.get_docstring(tree) or ""
    assert docstring, f"{init} has no docstring saying what belongs in the room"
    assert len(tree.body) == 1, f"{init} holds code besides its docstring"
    named = set(re.findall(r":mod:`\.(\w+)`", docstring))
    assert named == _members(HARNESS / room), f"{init}'s docstring names {sorted(named)}"

