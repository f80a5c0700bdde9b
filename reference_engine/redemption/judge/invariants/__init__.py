"""The invariants of the Redemption triggered-ability definition, one module per paragraph (TA.1 to TA.6)."""

from reference_engine.kernel.invariant import Invariant
from reference_engine.redemption.judge.invariants import (
    rule_ta_1, rule_ta_2, rule_ta_3, rule_ta_4, rule_ta_5, rule_ta_6,
)

MODULES = (rule_ta_1, rule_ta_2, rule_ta_3, rule_ta_4, rule_ta_5, rule_ta_6)

INVARIANTS: tuple[Invariant, ...] = tuple(
    value for module in MODULES for value in vars(module).values() if isinstance(value, Invariant)
)
