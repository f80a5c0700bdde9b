"""Redemption CCG: the REG glossary definition of a triggered ability, cited paragraph by paragraph (TA.1 to TA.6).

Read in this order: ``options.py`` (the readings the definition leaves open), the reference engine
(reference_engine/redemption/engines/reference.py, which this package never imports), ``observations.py`` (what the
invariants replay from a trace), then ``invariants/`` (one module per paragraph). reference_engine/redemption/docs.md lists
the rule keys and the modelling decisions.
"""

from reference_engine.redemption.judge.invariants import INVARIANTS
from reference_engine.redemption.judge.options import OPTIONS
from reference_engine.redemption.judge.situations import SITUATIONS
from reference_engine.redemption.judge.vocabulary import VOCABULARY
from reference_engine.kernel.ruleset import Ruleset
from reference_engine.redemption.judge.sentences import BRANCH_POINTS, SENTENCES

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
    sentences=SENTENCES,
    branch_points=BRANCH_POINTS,
)
