"""The scenario words the Redemption triggered-ability rules give a meaning to: playing a card, negation, control
changes, the end of a phase, the set-aside area, 'If X, Y' abilities that check on play (TA.2) and cards that
specify their abilities end when they leave (TA.3).

An ability works from play, or from any other zone its ``active_in`` lists, except ``removed``: a card removed from
the game is out of it for good, no ability of it works and nothing brings it back."""

from reference_engine.kernel.derived import ability_words
from reference_engine.kernel.ruleset import (
    COMMON_ABILITY_FIELDS, COMMON_ACTION_FIELDS, COMMON_OBJECT_FIELDS, COMMON_SCENARIO_FIELDS, Vocabulary,
)


def shown(view):
    """The words Redemption's own entries show (the derived situations, :mod:`reference_engine.kernel.derived`): an
    'If X, Y' ability acting as its card is played (``activation_begin``; TA.2: not a triggered ability), its words
    and its condition's test."""
    for i in view.indexes_of("activation_begin"):
        ability = view.abilities.get((view.entries[i].get("source"), view.entries[i].get("ability")))
        if ability:
            yield from ability_words(ability)


VOCABULARY = Vocabulary(
    actions=frozenset({"signal", "move", "play", "negate", "gain_control", "end_phase"}),
    action_fields={
        **COMMON_ACTION_FIELDS,
        "play": frozenset({"do", "object"}),
        "negate": frozenset({"do", "object", "ability"}),
        "gain_control": frozenset({"do", "object", "player"}),
        "end_phase": frozenset({"do"}),
    },
    trigger_events=frozenset({"signal", "enter", "leave", "play", "control"}),
    trigger_fields=frozenset({"event", "subject", "name"}),
    ability_fields=COMMON_ABILITY_FIELDS | {"active_in", "checks_on_play", "condition", "ends_if_card_leaves"},
    object_fields=COMMON_OBJECT_FIELDS | {"controller"},
    scenario_fields=COMMON_SCENARIO_FIELDS,
    condition_tests=frozenset({"in_zone", "not_in_zone"}),
    choice_fields=frozenset({"trigger_order", "optional"}),
    zones=frozenset({"field", "hand", "deck", "graveyard", "set_aside", "removed"}),
    zone_changes={"move": "out of play"},
    shown=shown,
    ability_zones=frozenset({"field", "hand", "deck", "graveyard", "set_aside"}),
    final_zones=frozenset({"removed"}),
)
