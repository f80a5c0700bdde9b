"""The invariants of Momon Wonder 1.0.0 section 11.2, one module per numbered rule."""

from reference_engine.momon_wonder.judge.invariants import (
    rule_11_2_1, rule_11_2_2, rule_11_2_3, rule_11_2_4, rule_11_2_5, rule_11_2_6,
)
from reference_engine.kernel.invariant import Invariant

MODULES = (rule_11_2_1, rule_11_2_2, rule_11_2_3, rule_11_2_4, rule_11_2_5, rule_11_2_6)

INVARIANTS: tuple[Invariant, ...] = tuple(
    value for module in MODULES for value in vars(module).values() if isinstance(value, Invariant)
)
