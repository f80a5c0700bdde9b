"""Momon Wonder 1.0.0: the assumptions where section 11.2 leans on text that is not available.

11.2 cites Section 9.3 (the Effect-Based Summon package), Section 11.3 (simultaneous triggers), the State-Based
Conditions (and so the order in which one pass defeats several objects), the Snatch Check and the penalty guide's
remedy for missed triggers; none of them is published. Every choice the reference engine and the invariants make in their place is one of these options, so
that a run can be repeated under another reading, and the day the text is known only a default changes.
"""

from reference_engine.kernel.ruleset import Option

SAME_EVENT_ORDER = Option(
    name="same_event_order",
    default="active-player-first",
    values={
        "active-player-first": "the active player's triggers from one event first, then each other player's in turn "
        "order; each player orders their own",
        "object-order": "triggers from one event in the order their sources are listed in the scenario, then ability order",
    },
    stands_for="Section 11.3 (Simultaneous Triggers)",
    doc="How the trigger group of one event is ordered when it enters a queue.",
)

PACKAGE_CONTENTS = Option(
    name="package_contents",
    default="all-summon-event-triggers",
    values={
        "all-summon-event-triggers": "every trigger waiting from the successful Summon event is processed in the "
        "package's On Summon processing",
        "summoned-object-triggers": "only the summoned object's own triggers go into the package; other triggers from "
        "the Summon event form an ordinary trigger group placed right after the package (for a Summon during another "
        "package's processing, in that package's processing queue, as 11.2.5 places ordinary triggers)",
    },
    stands_for="Section 9.3 (Effect-Based Summon package)",
    doc="Which of the Summon event's waiting triggers the package's On Summon processing holds.",
)

SNATCH_CHECK_TRIGGERS = Option(
    name="snatch_check_triggers",
    default="post-snatch",
    values={
        "post-snatch": "ordinary triggers from events of the Snatch Check and of the State-Based Conditions after it "
        "enter the package's processing queue and resolve in its post-Snatch processing",
        "deferred": "they (those of the Snatch Check and of the State-Based Conditions after it alike) are appended "
        "to the Trigger Queue as ordinary trigger groups, after the package",
    },
    stands_for="Section 9.3 and the Snatch Check",
    doc="Where triggers that arise during a package's Snatch Check, or in the State-Based Conditions right after it, "
    "go (11.2.5 names neither; both go to the same place).",
)

SBC_EVENTS = Option(
    name="sbc_events",
    default=True,
    values={
        True: "performing State-Based Conditions defeats every object marked for defeat, each a 'defeated' event that "
        "can trigger abilities",
        False: "State-Based Conditions never cause events",
    },
    stands_for="State-Based Conditions",
    doc="Whether performing State-Based Conditions can cause trigger events.",
)

FAILED_SUMMON_EVENT = Option(
    name="failed_summon_event",
    default="ordinary-event",
    values={
        "ordinary-event": "a failed Effect-Based Summon is an ordinary 'summon_failed' event: it can trigger, and it "
        "creates no package",
        "no-event": "a failed Effect-Based Summon causes no event at all",
    },
    stands_for="Section 9.3",
    doc="What a failed Effect-Based Summon leaves behind. A Summon of an object that is not in hand or deck fails.",
)

SANCTIONED_PLAY = Option(
    name="sanctioned_play",
    default=False,
    values={
        True: "sanctioned play: a trigger restored by the Missed Trigger Remedy goes to the front of its queue",
        False: "casual play: the remedy is not a game rule; a restored trigger is appended like any new trigger",
    },
    stands_for="11.2.4's last sentence, and the penalty guide's remedy for missed triggers",
    doc="Whether the Missed Trigger Remedy's front placement applies.",
)

OPTIONAL_CHOICE = Option(
    name="optional_choice",
    default="on-resolution",
    values={
        "on-resolution": "an optional ('may') trigger enters the queue; its controller chooses as it would resolve",
        "on-trigger": "its controller chooses when it triggers; a declined trigger never enters the queue",
    },
    stands_for="nothing in 11.2 (optional triggers are not mentioned)",
    doc="When the controller of an optional triggered ability chooses whether to use it.",
)

INTERVENING_RECHECK = Option(
    name="intervening_recheck",
    default=True,
    values={
        True: "an intervening condition is checked when the event occurs and again as the trigger would resolve",
        False: "it is checked only when the event occurs",
    },
    stands_for="nothing in 11.2 (intervening conditions are not mentioned)",
    doc="Whether an intervening condition is checked again on resolution.",
)

SBC_DEFEAT_ORDER = Option(
    name="sbc_defeat_order",
    default="marked-order",
    values={
        "marked-order": "several objects defeated by one State-Based Conditions pass are defeated one after another "
        "in the order they were marked for defeat",
        "object-order": "they are defeated in the order the scenario lists them",
    },
    stands_for="State-Based Conditions, and 11.2.5's 'chronological order' (events caused at once are given none)",
    doc="In which order one State-Based Conditions pass defeats several objects: the order of their 'defeated' "
    "events, hence of their trigger groups.",
)

OPTIONS = (
    SAME_EVENT_ORDER,
    PACKAGE_CONTENTS,
    SNATCH_CHECK_TRIGGERS,
    SBC_EVENTS,
    FAILED_SUMMON_EVENT,
    SANCTIONED_PLAY,
    OPTIONAL_CHOICE,
    INTERVENING_RECHECK,
    SBC_DEFEAT_ORDER,
)
