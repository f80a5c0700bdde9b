"""Magic: The Gathering, Comprehensive Rules 603 (Handling Triggered Abilities) and the rules it relies on.

Read in this order: ``model.py`` (the judge's own reading of the scenario vocabulary, written from the rule text),
``vocabulary.py`` (the words MTG gives a meaning to), ``options.py`` (readings where the text is ambiguous),
``observations.py`` (the trace read through the rules), then ``invariants/`` (one module per numbered rule). The
reference engine (reference_engine/mtg/engines/) keeps its own reading; this package never imports it.
Editions: 2026-02-27 (default, two-pass 603.3b) and 2021-02-24 (single-pass 603.3b).
"""

from reference_engine.mtg.judge.invariants import INVARIANTS
from reference_engine.mtg.judge.options import OPTIONS
from reference_engine.mtg.judge.situations import SITUATIONS
from reference_engine.mtg.judge.vocabulary import VOCABULARY
from reference_engine.kernel.ruleset import Ruleset
from reference_engine.mtg.judge.sentences import BRANCH_POINTS, SENTENCES

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
    sentences=SENTENCES,
    branch_points=BRANCH_POINTS,
    # Every rule of chapter 603 that no key cites, with the reason (the lint reports any other one, and any edit to
    # these rules' sentences, since a changed rule may now need a key).
    unencoded=(
        ("603.1", "how a triggered ability is written: scenarios state the trigger condition and effect directly"),
        ("603.1a", "instructions after the effect (target limits, cannot be countered): scenarios state targets "
                   "directly, and nothing counters an ability"),
        ("603.1b", "several trigger conditions and an 'all of them' instruction: an ability of the vocabulary has "
                   "one trigger condition"),
        ("603.2a", "triggering while casting and activating are not allowed: the vocabulary has no timing limit to "
                   "test it against"),
        ("603.2b", "'at the beginning of' a phase or step: the vocabulary has no beginning-of-step trigger event"),
        ("603.2e", "'becomes' trigger events (attached, blocked): not in the vocabulary"),
        ("603.2f", "objects never seen by every player: the vocabulary has no face-down objects"),
        ("603.3c", "modal triggered abilities: the vocabulary has no modes"),
        ("603.6", "zone-change triggers that look for their object in the zone it moved to: no effect of the "
                  "vocabulary follows an object into its new zone"),
        ("603.6b", "continuous effects on an entering permanent: the vocabulary has no continuous effects"),
        ("603.6d", "'enters tapped / as / with' text is a static ability: not in the vocabulary"),
        ("603.6e", "Auras finding the new object of an enchanted permanent: the vocabulary has no Auras"),
        ("603.7a", "how delayed abilities come to be: only resolving abilities and spells create them in the "
                   "vocabulary (create_delayed); replacement effects and static abilities do not"),
        ("603.7c", "a delayed ability acting on an object that changed zones: the vocabulary's delayed effects do "
                   "not name a particular object to find later"),
        ("603.7f", "delayed abilities created by a replacement effect: the vocabulary has no replacement effects"),
        ("603.7g", "delayed abilities created through a static ability: the vocabulary has no static abilities"),
        ("603.7h", "delayed abilities counting resolutions in a turn: not in the vocabulary"),
        ("603.9", "abilities that trigger on a player losing the game: the vocabulary has players leaving (800.4a), "
                  "and no trigger condition on losing"),
        ("603.10", "the general rule (trigger conditions checked just after the event, as it happens): judged by "
                   "mtg.triggers-when-satisfied; its exceptions by mtg.look-back (603.10a)"),
        ("603.10b", "phasing: not in the vocabulary"),
        ("603.10c", "becoming unattached: the vocabulary has no attachments"),
        ("603.10d", "losing control looks back in time: not judged yet (mtg.look-back covers leaving the "
                    "battlefield and leaving a graveyard)"),
        ("603.10e", "a countered spell's abilities look back in time: not judged yet (mtg.look-back covers leaving "
                    "the battlefield and leaving a graveyard)"),
        ("603.10f", "losing the game: the vocabulary has no trigger condition on losing (603.9)"),
        ("603.10g", "planeswalking away from a plane: not in the vocabulary"),
        ("603.11", "how abilities linked to a static ability are written: the vocabulary has no static abilities"),
        ("603.12a", "a reflexive ability and a choice made once for several events: mtg.reflexive judges one "
                    "trigger per matching event; the single-choice case is not in the vocabulary"),
    ),
)
