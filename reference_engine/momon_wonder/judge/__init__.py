"""Momon Wonder CR 1.0.0, section 11.2: how triggers wait in the Queue.

Read in this order: ``options.py`` (the assumptions standing in for the unavailable sections 9.3 and 11.3, the
State-Based Conditions, the Snatch Check and the Missed Trigger Remedy), ``reference_engine/momon_wonder/engines/reference.py`` (the reference engine, which this package never imports), then
``invariants/`` (one module per numbered rule).
"""

from reference_engine.momon_wonder.judge.invariants import INVARIANTS
from reference_engine.momon_wonder.judge.options import OPTIONS
from reference_engine.momon_wonder.judge.situations import SITUATIONS
from reference_engine.momon_wonder.judge.vocabulary import VOCABULARY
from reference_engine.kernel.ruleset import Ruleset
from reference_engine.momon_wonder.judge.sentences import BRANCH_POINTS, SENTENCES

RULESET = "momon-wonder"
EDITIONS = ["1.0.0"]

MOMON_WONDER = Ruleset(
    name=RULESET,
    title="Momon Wonder Comprehensive Rules, section 11.2 (Triggering and the Queue)",
    editions=tuple(EDITIONS),
    options=OPTIONS,
    invariants=INVARIANTS,
    vocabulary=VOCABULARY,
    situations=SITUATIONS,
    sentences=SENTENCES,
    branch_points=BRANCH_POINTS,
)
