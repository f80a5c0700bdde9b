"""The registry of rulesets: name -> :class:`reference_engine.core.ruleset.Ruleset`.

Each ruleset is one unit (vocabulary, options, observations, invariants) imported only when it is first asked
for, so a run of one ruleset loads none of the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from reference_engine.core.ruleset import Ruleset

# Ruleset name -> (module, attribute), in the order rulesets are listed.
_UNITS = {
    "momon-wonder": ("reference_engine.rulesets.momon_wonder", "MOMON_WONDER"),
    "redemption": ("reference_engine.rulesets.redemption", "REDEMPTION"),
    "mtg": ("reference_engine.rulesets.mtg", "MTG"),
}


class _Registry(Mapping):
    """A read-only mapping that imports a ruleset's unit on first access."""

    def __init__(self) -> None:
        self._loaded: dict[str, Ruleset] = {}

    def __getitem__(self, name: str) -> Ruleset:
        if name not in self._loaded:
            module, attribute = _UNITS[name]  # KeyError for an unknown name
            self._loaded[name] = getattr(importlib.import_module(module), attribute)
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_UNITS)

    def __len__(self) -> int:
        return len(_UNITS)


RULESETS: Mapping[str, Ruleset] = _Registry()


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``. Raises KeyError with the known names."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r} (known: {', '.join(sorted(RULESETS))})") from None
