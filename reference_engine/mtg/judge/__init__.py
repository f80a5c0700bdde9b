"""Magic: The Gathering, Comprehensive Rules 603 (Handling Triggered Abilities) and the rules it relies on.

Read in this order: ``model.py`` (the judge's own reading of the scenario vocabulary, written from the rule text),
``vocabulary.py`` (the words MTG gives a meaning to), ``options.py`` (readings where the text is ambiguous),
``observations.py`` (the trace read through the rules), then ``invariants/`` (one module per numbered rule). The
reference engine (reference_engine/engines/mtg/) keeps its own reading; this package never imports it.
Editions: 2026-02-27 (default, two-pass 603.3b) and 2021-02-24 (single-pass 603.3b).
"""

from reference_engine.mtg.judge.invariants import INVARIANTS
from reference_engine.mtg.judge.options import OPTIONS
from reference_engine.mtg.judge.situations import SITUATIONS
from reference_engine.mtg.judge.vocabulary import VOCABULARY
from reference_engine.kernel.ruleset import Ruleset
from reference_engine.mtg.judge.sentences import SENTENCE_HASHES

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
    sentence_hashes=SENTENCE_HASHES,
    unencoded=(
        ("603.1", "how a triggered ability is written: scenarios state the trigger condition and effect directly"),
        ("603.6", "zone-change triggers that look for their object in the zone it moved to: no effect of the "
                  "vocabulary follows an object into its new zone"),
        ("603.9", "abilities that trigger on a player losing the game: the vocabulary has players leaving (800.4a), "
                  "and no trigger condition on losing"),
        ("603.11", "how abilities linked to a static ability are written: the vocabulary has no static abilities"),
    ),
)
