"""The scenario words MTG CR 603 and the rules it relies on give a meaning to: damage and life, conceding
(800.4a), simultaneous zone changes, targets (603.3d), delayed (603.7) and reflexive (603.12) triggered abilities,
state triggers (603.8), triggers on triggering and on being put on the stack, toughness and state-based actions,
control changes and starting life totals, and zone changes other than entering or leaving the battlefield
(``move``: e.g. a card leaving a graveyard, which looks back in time, 603.10a), and batching (603.2c "one or more"
triggers, 603.2d additional triggers, 603.2h "only once each turn", triggers on an ability resolving, an ability that
"triggers only once each turn" per object, 400.7), and spells on the stack (cast, resolved, countered, removed for an
illegal target: 405, 608.2b), and creating tokens (a token entering the battlefield from ``uncreated``, 603.6a), and
activated abilities with costs (602.2, 601.2h: the ability on the stack before its cost is paid, so what the payment
triggers resolves first), and combat damage as distinct from noncombat damage (120.2a-b, 510.2: a scripted action's
damage marked ``combat``, a trigger's ``combat`` filter), and "that player" (``that_player``: the trigger event's
player, or the owner of a card put into a graveyard, a hand or a library, 400.3).

Where abilities work (113.6): from the battlefield, and from a hand, a library, a graveyard, exile or the stack ("when
you cast this spell", 113.6c) when the ability says so (``active_in``); never from ``removed`` (out of the game with a
player who left it, 800.4a) or from ``uncreated`` (a token not created yet exists nowhere, 111.1, 603.6a). Nothing
leaves ``removed``: the objects of a player who left the game are gone for good."""

from reference_engine.kernel.derived import action_words
from reference_engine.kernel.ruleset import (
    COMMON_ABILITY_FIELDS, COMMON_ACTION_FIELDS, COMMON_OBJECT_FIELDS, COMMON_SCENARIO_FIELDS, Vocabulary,
)


def shown(view):
    """The words MTG's own entries show (the derived situations, :mod:`reference_engine.kernel.derived`): the effect
    of a spell that begins resolving, and the duration of a delayed triggered ability created."""
    for i in view.indexes_of("spell_resolve_begin"):
        spell = view.objects.get(view.entries[i].get("spell"), {}).get("spell", {})
        yield from (("effect", a) for a in action_words(spell.get("effect", ())))
    for i in view.indexes_of("delayed_create"):
        if view.entries[i].get("duration"):
            yield ("timing", view.entries[i]["duration"])


VOCABULARY = Vocabulary(
    actions=frozenset({"signal", "move", "damage", "life", "concede", "move_together", "move_target",
                       "create_delayed", "reflexive", "gain_control", "move_each", "cast", "counter",
                       "damage_together", "create_token", "activate"}),
    action_fields={
        **COMMON_ACTION_FIELDS,
        "damage": frozenset({"do", "source", "player", "object", "amount", "prevented", "target", "that_many",
                             "combat", "that_player"}),
        "life": frozenset({"do", "player", "amount", "target", "that_many", "that_player"}),
        "concede": frozenset({"do", "player"}),
        "move_together": frozenset({"do", "objects", "from", "to"}),
        "move_target": frozenset({"do", "to"}),
        "create_delayed": frozenset({"do", "ability", "duration"}),
        "reflexive": frozenset({"do", "ability"}),
        "gain_control": frozenset({"do", "object", "player"}),
        "move_each": frozenset({"do", "moves"}),
        "damage_together": frozenset({"do", "hits", "combat"}),
        "create_token": frozenset({"do", "objects"}),
        "cast": frozenset({"do", "object"}),
        "activate": frozenset({"do", "object", "ability"}),
        "counter": frozenset({"do", "object", "target"}),
    },
    trigger_events=frozenset({"signal", "enter", "leave", "move", "damage", "life", "control", "player_leaves",
                              "ability_triggered", "ability_stacked", "state", "zone_change", "resolved", "cast", "countered",
                              "dealt_damage"}),
    trigger_fields=frozenset({"event", "subject", "name", "from", "to", "state", "controller", "player", "type",
                              "nontoken", "change", "batch", "owner", "combat"}),
    ability_fields=COMMON_ABILITY_FIELDS | {"intervening_if", "target", "active_in", "once_each_turn",
                                            "triggers_once_each_turn"},
    object_fields=COMMON_OBJECT_FIELDS | {"controller", "toughness", "dies_when", "types", "token", "additional_triggers", "spell",
                                            "activated"},
    scenario_fields=COMMON_SCENARIO_FIELDS | {"life"},
    condition_tests=frozenset({"in_zone", "not_in_zone", "life_at_least", "life_at_most", "zone_empty"}),
    choice_fields=frozenset({"trigger_order", "optional", "targets", "occurrence"}),
    zones=frozenset({"field", "hand", "deck", "graveyard", "exile", "removed", "stack", "uncreated"}),
    step_fields=frozenset({"step", "actions", "turn"}),
    zone_changes={"move": "out of play", "zone_change": "anywhere"},
    shown=shown,
    ability_zones=frozenset({"field", "hand", "deck", "graveyard", "exile", "stack"}),
    final_zones=frozenset({"removed"}),
)
