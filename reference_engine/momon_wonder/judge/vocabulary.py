"""The scenario words Momon Wonder 11.2 gives a meaning to: signals, zone changes, Effect-Based Summons (with their
Snatch Check), marks for defeat (performed by the State-Based Conditions) and the Missed Trigger Remedy.

An ability works from play, or from any other zone its ``active_in`` lists, except ``removed``: a card removed from
the game is out of it for good, no ability of it works and nothing brings it back."""

from reference_engine.kernel.ruleset import (
    COMMON_ABILITY_FIELDS, COMMON_ACTION_FIELDS, COMMON_OBJECT_FIELDS, COMMON_SCENARIO_FIELDS, Vocabulary,
)
from reference_engine.kernel.vocabulary import LEAVING_EVENTS

# The events that take their subject out of its zone, which looks back in time to see itself leave: the kernel's
# and a ``defeated`` object's move to the graveyard.
LEAVING = LEAVING_EVENTS | {"defeated"}

VOCABULARY = Vocabulary(
    actions=frozenset({"signal", "move", "summon", "mark_defeat", "remedy_missed_trigger"}),
    action_fields={
        **COMMON_ACTION_FIELDS,
        "summon": frozenset({"do", "object", "also", "succeeds", "snatch_check"}),
        "mark_defeat": frozenset({"do", "object"}),
        "remedy_missed_trigger": frozenset({"do", "source", "ability"}),
    },
    trigger_events=frozenset({"signal", "summon", "summon_failed", "defeated", "enter", "leave"}),
    trigger_fields=frozenset({"event", "subject", "name"}),
    ability_fields=COMMON_ABILITY_FIELDS | {"intervening_if", "active_in"},
    object_fields=COMMON_OBJECT_FIELDS | {"controller"},
    scenario_fields=COMMON_SCENARIO_FIELDS,
    condition_tests=frozenset({"in_zone", "not_in_zone"}),
    choice_fields=frozenset({"trigger_order", "optional"}),
    zones=frozenset({"field", "hand", "deck", "graveyard", "exile", "removed"}),
    zone_changes={"move": "out of play", "defeated": "in play"},
    ability_zones=frozenset({"field", "hand", "deck", "graveyard", "exile"}),
    final_zones=frozenset({"removed"}),
)
