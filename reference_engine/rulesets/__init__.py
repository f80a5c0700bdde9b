"""The registry of rulesets: name -> :class:`reference_engine.core.ruleset.Ruleset`."""

from __future__ import annotations

from reference_engine.rulesets.momon_wonder import MOMON_WONDER
from reference_engine.rulesets.mtg import MTG
from reference_engine.rulesets.redemption import REDEMPTION
from reference_engine.core.ruleset import Ruleset

RULESETS: dict[str, Ruleset] = {ruleset.name: ruleset for ruleset in (MOMON_WONDER, REDEMPTION, MTG)}


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``. Raises KeyError with the known names."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r} (known: {', '.join(sorted(RULESETS))})") from None
