"""Magic: The Gathering, Comprehensive Rules 603 (Handling Triggered Abilities) and the rules it relies on.

Read in this order: ``model.py`` (the judge's own reading of the scenario vocabulary, written from the rule text),
``vocabulary.py`` (the words MTG gives a meaning to), ``options.py`` (readings where the text is ambiguous),
``observations.py`` (the trace read through the rules), then ``invariants/`` (one module per numbered rule). The
reference engine (reference_engine/engines/mtg/) keeps its own reading; this package never imports it.
Editions: 2026-02-27 (default, two-pass 603.3b) and 2021-02-24 (single-pass 603.3b).
"""

from reference_engine.rulesets.mtg.invariants import INVARIANTS
from reference_engine.rulesets.mtg.options import OPTIONS
from reference_engine.rulesets.mtg.situations import SITUATIONS
from reference_engine.rulesets.mtg.vocabulary import VOCABULARY
from reference_engine.core.ruleset import Ruleset

RULESET = "mtg"
EDITIONS = ["2026-02-27", "2021-02-24"]

MTG = Ruleset(
    name=RULESET,
    title="Magic: The Gathering Comprehensive Rules 603 (Handling Triggered Abilities) and the stack",
    editions=tuple(EDITIONS),
    options=OPTIONS,
    invariants=INVARIANTS,
    vocabulary=VOCABULARY,
    situations=SITUATIONS,
)
