"""Scenario builders by ruleset name.

A builder is ``build(source: ChoiceSource, edition: str) -> dict``: a deterministic function of the source's
answers that returns a scenario document without ``options`` (the run sets them). Builders must terminate on every
source (bounded sizes, no infinite trigger loops) and should make every rule key of their ruleset likely to fire.
"""

from __future__ import annotations

from typing import Any, Callable

from conformance.generation.source import ChoiceSource

Builder = Callable[[ChoiceSource, str], dict[str, Any]]


def _builders() -> dict[str, Builder]:
    from conformance.generation import momon_wonder, mtg, redemption

    return {
        "momon-wonder": momon_wonder.build_scenario,
        "redemption": redemption.build_scenario,
        "mtg": mtg.build_scenario,
    }


def builder_for(ruleset: str) -> Builder:
    """The scenario builder of ``ruleset``. Raises KeyError for a ruleset without one."""
    return _builders()[ruleset]
