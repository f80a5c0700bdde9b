"""MTG: the named assumptions where the Comprehensive Rules text used here is ambiguous or silent.

Everything else follows the text (CR effective 2026-02-27, and the 2021-02-24 edition for the single-pass 603.3b).
Each option is read by the reference engine and by the invariants alike (each in its own code), so a run under another reading checks
that reading consistently.
"""

from reference_engine.kernel.ruleset import Option

PASS_TWO_MEMBERSHIP = Option(
    name="pass_two_membership",
    default="triggering-only",
    values={
        "triggering-only": "only abilities whose trigger condition is another ability triggering go on the stack in "
        "603.3b's second pass",
        "triggering-or-stacking": "abilities that trigger on another ability being put on the stack also go in the "
        "second pass",
    },
    stands_for="603.3b ('a trigger condition that isn't another ability triggering'; rules digest F.2.5)",
    doc="Which abilities 603.3b's second pass holds (2026-02-27 edition; the 2021-02-24 edition has one pass).",
)

DEPARTED_DELAYED = Option(
    name="departed_delayed",
    default="cease",
    values={
        "cease": "a delayed triggered ability controlled by a player who leaves the game ends with them",
        "persist": "it stays, but it can no longer trigger for them; it ends only by triggering or by its duration",
    },
    stands_for="800.4a (it names objects on the stack, not delayed triggered abilities waiting to trigger)",
    doc="What happens to the delayed triggered abilities of a player who leaves the game.",
)

LEAVES_INTERVENING_IF = Option(
    name="leaves_intervening_if",
    default="look-back",
    values={
        "look-back": "the intervening 'if' of an ability whose event looks back in time is judged, like whether it "
        "triggers, on the game just before the event",
        "after-event": "it is judged on the game just after the event (whether the ability triggers still looks "
        "back)",
    },
    stands_for="603.10a with 603.4 (603.10a looks back to decide whether those abilities trigger; 603.4 checks the "
    "condition as the trigger event occurs; neither says on which game a look-back ability's condition is read)",
    doc="On which game the intervening 'if' of a leaves-the-battlefield ability (or any whose event looks back in "
    "time, 603.10a) is checked when its event occurs; the check on resolution (608.2a) is unchanged.",
)

ONCE_EACH_TURN_TAKEN = Option(
    name="once_each_turn_taken",
    default="unless-declined",
    values={
        "unless-declined": "a 'do this only once each turn' action is taken as an instance of the ability begins "
        "resolving, unless its controller declines it (603.5), even if its effect then changes nothing",
        "on-resolution": "it is taken as an instance begins resolving, even if its controller declines it",
        "when-performed": "it is taken only when the instance's effect does something: at its first event that is "
        "not prevented, or as it creates a delayed or reflexive ability",
    },
    stands_for="603.2h (the ability triggers only while its controller has not taken the stated action this turn; it "
    "does not say whether a declined or ineffective instance takes the action)",
    doc="When the action of a 'do this only once each turn' ability counts as taken for the turn (603.2h).",
)

CONTROLLER_OFF_BATTLEFIELD = Option(
    name="controller_off_battlefield",
    default="owner",
    values={
        "owner": "a trigger filter 'you control' / 'an opponent controls' reads the owner of an object that is not "
        "on the battlefield (108.4a)",
        "last-known": "it reads the controller the object had when it was last on the battlefield (its last known "
        "information, as for a source that has left, 113.7a); its owner if it has not been on the battlefield",
        "none": "no one controls an object that is not on the battlefield: such a filter never matches it",
    },
    stands_for="108.4a with 603.10a and 113.7a (an object off the battlefield and the stack has no controller, and "
    "108.4a puts its owner in when something asks; a look-back or last known information could give the controller "
    "it had; a filter asking who controls it could also find no one)",
    doc="Whom a 'you control' / 'an opponent controls' trigger filter finds controlling an object that is not on "
    "the battlefield when the event is judged.",
)

OPTIONS = (PASS_TWO_MEMBERSHIP, DEPARTED_DELAYED, LEAVES_INTERVENING_IF, ONCE_EACH_TURN_TAKEN,
           CONTROLLER_OFF_BATTLEFIELD)
