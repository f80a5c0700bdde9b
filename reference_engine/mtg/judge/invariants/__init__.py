"""The invariants of the MTG ruleset, one module per numbered rule (rule keys and numbers: reference_engine/mtg/docs.md)."""

from reference_engine.kernel.invariant import Invariant
from reference_engine.mtg.judge.invariants import (
    rule_113_7a, rule_405_5, rule_603_2, rule_603_3, rule_603_3b, rule_603_3d, rule_603_4, rule_603_5, rule_603_7,
    rule_603_8, rule_603_10, rule_603_12, rule_608_2, rule_704_3, rule_704_4, rule_800_4a,
)
from reference_engine.mtg.judge.invariants import rule_608_2b

MODULES = (rule_603_3, rule_704_3, rule_704_4, rule_603_2, rule_603_10, rule_603_3b, rule_405_5, rule_603_4,
           rule_603_5, rule_603_3d, rule_113_7a, rule_603_7, rule_603_8, rule_603_12, rule_800_4a, rule_608_2,
           rule_608_2b)

INVARIANTS: tuple[Invariant, ...] = tuple(
    value for module in MODULES for value in vars(module).values() if isinstance(value, Invariant)
)
