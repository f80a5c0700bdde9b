"""The engines bundled with the suite: one reference engine per ruleset, and the faulty engines in ``mutants``.

An engine depends only on the engine interface (:mod:`conformance.adapters.base`): it never imports the judge
(:mod:`reference_engine.rulesets`, :mod:`reference_engine.core`), so a misreading of a rule in an engine cannot also
hide in the invariants that check it. tests/test_layering.py enforces this with import-linter contracts.
"""

from __future__ import annotations

from conformance.adapters.base import Engine


def reference_engine_classes() -> dict[str, type[Engine]]:
    """Ruleset name -> the class of its reference engine (the oracle whose trace a failure is shown against)."""
    from reference_engine.engines.momon_wonder.engine import MomonWonderEngine
    from reference_engine.engines.mtg.engine import MtgEngine
    from reference_engine.engines.redemption.engine import RedemptionEngine

    return {cls.ruleset: cls for cls in (MomonWonderEngine, MtgEngine, RedemptionEngine)}


def reference_engine_for(ruleset: str, max_trace_entries: int | None = None) -> Engine:
    """A fresh reference engine for ``ruleset`` (e.g. ``"mtg"``). Raises KeyError naming the known rulesets.
    ``max_trace_entries``: its loop guard (None: the default, 20,000; see ReferenceEngine)."""
    classes = reference_engine_classes()
    try:
        cls = classes[ruleset]
    except KeyError:
        raise KeyError(f"no reference engine for ruleset {ruleset!r} (known: {', '.join(sorted(classes))})") from None
    return cls() if max_trace_entries is None else cls(max_trace_entries=max_trace_entries)
