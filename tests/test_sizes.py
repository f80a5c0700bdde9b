"""Issue 19 item 6: every module of ``conformance/`` and ``reference_engine/`` is at most ``MAX_MODULE_LINES`` lines
and every function (method, nested function) at most ``MAX_FUNCTION_LINES``, so that each can be read in one sitting.
test262 lints its own tests the same way. A file that truly cannot be split goes into ``ALLOWED`` with the reason;
an entry that is no longer needed fails too, so the list only shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("conformance", "reference_engine")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80  # from the ``def`` line to the last line of the body

# path -> why it may be larger (its module, or functions in it).
ALLOWED: dict[str, str] = {}


def _modules():
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def _too_long(path: Path) -> list[str]:
    """What in ``path`` is over the limits, as messages."""
    text = path.read_text("utf-8")
    found = []
    lines = len(text.splitlines())
    if lines > MAX_MODULE_LINES:
        found.append(f"the module has {lines} lines (at most {MAX_MODULE_LINES})")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{node.name} (line {node.lineno}) has {length} lines (at most {MAX_FUNCTION_LINES})")
    return found


def test_modules_and_functions_are_small():
    found = {}
    for path in _modules():
        name = path.relative_to(ROOT).as_posix()
        if name not in ALLOWED:
            found.update({f"{name}: {message}": None for message in _too_long(path)})
    assert not found, "split by job (or, if it truly cannot be split, add it to ALLOWED with why):\n" + "\n".join(found)


def test_every_allowed_file_exists_and_still_needs_its_entry():
    stale = [name for name in ALLOWED if not (ROOT / name).is_file() or not _too_long(ROOT / name)]
    assert not stale, f"remove from ALLOWED (gone, or within the limits now): {stale}"


def test_the_lint_sees_a_long_function_and_a_long_module(tmp_path):
    """The check is not vacuous: a function of 81 lines and a module of 601 lines are reported."""
    body = "".join(f"    x{k} = {k}\n" for k in range(80))
    path = tmp_path / "long.py"
    path.write_text("def long():\n" + body + "\n" * 520, "utf-8")  # 81 lines, then 520 empty ones
    found = _too_long(path)
    assert any(m.startswith("long (line 1) has 81 lines") for m in found), found
    assert any(m.startswith("the module has 601 lines") for m in found), found
