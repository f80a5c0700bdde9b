"""Every benchmark in benchmarks/ still imports against today's harness: the harness was regrouped into rooms (issue
27) and two benchmarks went on importing names from where they used to live, unnoticed until issue 26's next
measurement. Loading each module (not running it) is enough to catch a moved name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("path", sorted(BENCHMARKS.glob("bench_*.py")), ids=lambda p: p.stem)
def test_a_benchmark_module_imports(path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(f"_benchmark_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "main", None)), f"{path.name} has no main()"
    sys.modules.pop(spec.name, None)
