"""Public Hypothesis strategies: the suite's scenarios, for properties of your own.

``trigger-conformance run`` explores a seeded stream of scenarios (fast, and the same on every machine); this module
offers the same scenarios, built by the same builders, as an ordinary Hypothesis strategy over Hypothesis's public
API, so an engine author can write properties of their own with ``@given``, steer them with ``target()`` and pin
cases with ``@example``::

    from hypothesis import given, target
    from conformance.strategies import scenarios

    @given(scenarios("momon-wonder"))
    def test_my_engine_never_loops(scenario):
        trace = my_engine.play(scenario)
        target(len(trace["entries"]), label="trace length")
        assert len(trace["entries"]) < 10_000

Every answer the builder needs is one ``st.integers`` draw, so Hypothesis shrinks these scenarios the usual way.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import ChoiceSource
from conformance.generation.stream import explorable_options
from reference_engine.kernel.registry import get_ruleset


class _DrawSource(ChoiceSource):
    """A builder's choices drawn from Hypothesis (inside ``st.composite``)."""

    def __init__(self, draw):
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(st.integers(lo, hi))


def scenarios(ruleset: str, edition: str | None = None, profile: dict[str, Any] | None = None,
              options: dict[str, Any] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Scenario documents of ``ruleset`` (schemas/scenario.schema.json), ready to play: each carries every option.

    ``edition`` defaults to the ruleset's first; ``profile`` restricts the builder to what an engine supports (the
    shape :meth:`reference_engine.kernel.engine.Engine.generation_profile` returns); ``options`` pins option values, and
    every other option is drawn (its default is the simplest value, so failures shrink toward the defaults).
    Raises KeyError for an unknown ruleset and ValueError for an unknown edition or a bad option value.
    """
    unit = get_ruleset(ruleset)
    edition = edition or unit.default_edition
    if edition not in unit.editions:
        raise ValueError(f"ruleset {ruleset} has no edition {edition!r} (known: {', '.join(unit.editions)})")
    pinned = unit.resolve_options(options or {})
    free = explorable_options(unit, options or {})
    build = builder_for(ruleset, profile)

    @st.composite
    def scenario(draw) -> dict[str, Any]:
        drawn = {name: draw(st.sampled_from(values)) for name, values in free}
        document = build(_DrawSource(draw), edition)
        return {**document, "options": {**pinned, **drawn}}

    return scenario()


__all__ = ["scenarios"]
