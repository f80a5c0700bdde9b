"""One fast check of each kind stays in the quick suite (the README's command); its repeats run in the slow set that
.ci/run runs after it (issue 26 item 1). ``first_quick`` parametrizes a test over ``items`` with the first item of
each group (by default, the first item) quick and every other one marked slow."""

from __future__ import annotations

from typing import Any, Callable, Iterable

import pytest


def first_quick(items: Iterable[Any], group: Callable[[Any], Any] = lambda item: None,
                ids: Callable[[Any], str] | None = None) -> list:
    """``items`` as pytest params: the first item of each ``group(item)`` unmarked, the others ``pytest.mark.slow``."""
    seen: set = set()
    out = []
    for item in items:
        key = group(item)
        marks = () if key not in seen else (pytest.mark.slow,)
        seen.add(key)
        out.append(pytest.param(item, marks=marks, id=ids(item) if ids else None))
    return out
