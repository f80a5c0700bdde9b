"""Scenario builders by ruleset name.

A builder is ``build(source: ChoiceSource, edition: str) -> dict``: a deterministic function of the source's
answers that returns a scenario document without ``options`` (the run sets them). Builders must terminate on every
source (bounded sizes, no infinite trigger loops) and should make every rule key of their ruleset likely to fire.
"""

from __future__ import annotations

import functools
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


def builder_for(ruleset: str, profile: dict[str, Any] | None = None) -> Builder:
    """The scenario builder of ``ruleset``, restricted to an engine's generation ``profile`` when one is given (see
    ``Engine.generation_profile``; only builders with a ``profile`` keyword accept one). Raises KeyError for a
    ruleset without a builder."""
    build = _builders()[ruleset]
    if profile is None:
        return build
    return functools.partial(build, profile=profile)
