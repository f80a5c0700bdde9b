"""Redemption CCG: the REG glossary definition of a triggered ability, cited paragraph by paragraph (TA.1 to TA.6).

Read in this order: ``options.py`` (the readings the definition leaves open), the reference engine
(reference_engine/engines/redemption/engine.py, which this package never imports), ``observations.py`` (what the
invariants replay from a trace), then ``invariants/`` (one module per paragraph). docs/rulesets/redemption.md lists
the rule keys and the modelling decisions.
"""

from reference_engine.rulesets.redemption.invariants import INVARIANTS
from reference_engine.rulesets.redemption.options import OPTIONS
from reference_engine.rulesets.redemption.situations import SITUATIONS
from reference_engine.rulesets.redemption.vocabulary import VOCABULARY
from reference_engine.core.ruleset import Ruleset
from reference_engine.rulesets.redemption.sentences import SENTENCE_HASHES

RULESET = "redemption"
EDITIONS = ["reg-glossary"]

REDEMPTION = Ruleset(
    name=RULESET,
    title="Redemption CCG, REG glossary: Triggered Ability (TA.1-TA.6)",
    editions=tuple(EDITIONS),
    options=OPTIONS,
    invariants=INVARIANTS,
    vocabulary=VOCABULARY,
    situations=SITUATIONS,
    sentence_hashes=SENTENCE_HASHES,
)
