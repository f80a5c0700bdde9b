"""Redemption (REG glossary, "Triggered Ability"): the assumptions where the definition is silent.

The definition (paragraphs TA.1 to TA.6, see reference_engine/redemption/docs.md) leaves three questions open
(../shared/research/rules-digest.md, F.1.3 and F.3.14; and who holds a trigger about its own card's change of control,
issue 9 item 5). Each is an option with a stated default, so that a run can be
repeated under the other reading and the invariants check whichever reading the scenario selects.
"""

from reference_engine.kernel.ruleset import Option

AFTER_PENDING = "after-pending"
BEFORE_PENDING = "before-pending"

TRIGGER_DURING_RESOLUTION = Option(
    name="trigger_during_resolution",
    default=AFTER_PENDING,
    values={
        AFTER_PENDING: "a trigger arising while a triggered ability resolves waits until every triggered ability "
        "already pending has activated; the ones that gathered meanwhile then become free together",
        BEFORE_PENDING: "the triggers arising while an ability resolves become free together as soon as it finishes, "
        "ahead of the triggered abilities that were already pending",
    },
    stands_for="TA.6 (silent on triggers that arise during a triggered ability's resolution)",
    doc="Where a trigger that arises during the resolution of a triggered ability goes relative to the triggered "
    "abilities already pending. The default reads TA.6 literally: those already pending are 'other abilities', so "
    "the newcomer waits for them.",
)

LAPSE = "lapse"
PERSIST = "persist"

MANDATORY_AFTER_PHASE = Option(
    name="mandatory_after_phase",
    default=LAPSE,
    values={
        LAPSE: "a pending mandatory trigger whose card is out of play and out of the set-aside area when the phase "
        "ends lapses then (removed, reason 'expired')",
        PERSIST: "it keeps waiting into the next phase and activates there, like any pending trigger",
    },
    stands_for="TA.3 ('at least until the end of the current phase': the upper bound is not given)",
    doc="What happens to a pending mandatory trigger whose card has left play and the set-aside area when the phase "
    "ends before it could activate (a phase ends early only through an effect that ends it). The default takes the "
    "guarantee as the whole of it: past the phase, nothing keeps the ability of a card that is gone alive.",
)

NEW_CONTROLLER = "new-controller"
OLD_CONTROLLER = "old-controller"

CONTROL_CHANGE_HOLDER = Option(
    name="control_change_holder",
    default=NEW_CONTROLLER,
    values={
        NEW_CONTROLLER: "a card's ability that triggers on that card's own change of control is held by the player who "
        "just gained control of the card",
        OLD_CONTROLLER: "it is held by the player who controlled the card until that change (the trigger looks back, "
        "like a card's ability triggered by its own leaving play)",
    },
    stands_for="TA.1 and TA.3 (an ability activates for its card's controller; the text does not say which controller "
    "when the situation is the change of control itself)",
    doc="Who holds a triggered ability whose situation is a change of control of its own card. TA.3 lets an optional "
    "trigger activate only while its holder controls the card, so under old-controller such an optional trigger can "
    "never activate; the default gives it to the new controller, who controls the card when the situation occurs. "
    "Abilities of other cards triggered by the change are held by their own card's controller either way.",
)

OPTIONS = (TRIGGER_DURING_RESOLUTION, MANDATORY_AFTER_PHASE, CONTROL_CHANGE_HOLDER)
