"""The features a scenario may contain, which an engine's generation profile may exclude
(``profile={"exclude": [...]}``, see :func:`~reference_engine.mtg.generator.builder.build_scenario`), and the swarm
draw switching features off scenario by scenario."""

from __future__ import annotations

from reference_engine.kernel.source import ChoiceSource

MAX_LEVEL = 4
TOP = f"s{MAX_LEVEL}"


# Features an engine's generation profile may exclude (``profile={"exclude": [...]}``, see build_scenario), each
# with what a scenario has with it (docs/checking.md lists them, generated from here).
FEATURE_DOCS: dict[str, str] = {
    "signals": "named signals: as trigger conditions, in effects and in the script",
    "state_triggers": "603.8 state triggers",
    "watchers": "abilities triggering on another ability triggering or being put on the stack",
    "event_triggers": "abilities triggering on damage, life changes or a player leaving",
    "targets": "targeted abilities (603.3d)",
    "delayed": "delayed triggered abilities (603.7)",
    "reflexive": "reflexive triggered abilities (603.12)",
    "move_together": "several permanents leaving the battlefield in one event",
    "prevented": "prevented damage (603.2g)",
    "gain_control": "control changes",
    "players_leaving": "players at low life and conceding (800.4a)",
    "dies_when": "permanents dying when another is in a graveyard",
    "script_damage": "damage dealt by a scripted action (no source)",
    "empty_effects": "abilities whose effect does nothing",
    "other_objects": (
        "ability effects and intervening conditions naming an object other than the source (also: a "
        "card put from a hand onto the battlefield by a resolving ability)"
    ),
    "other_players": "ability effects on a player other than the ability's controller",
    "exile": (
        "abilities and actions exiling permanents (they destroy instead; a state trigger still exiles the card "
        "it watches from a graveyard)"
    ),
    "zone_conditions": "intervening conditions about zones (life conditions stay)",
    "graveyard_triggers": 'cards in a graveyard watching cards leave it, exiled together (implied by "exile")',
    "player_targets": (
        'abilities targeting a player (115.1), also one whose target leaves the game before it '
        'resolves (implied by "targets")'
    ),
    "turns": (
        'scripts spanning several turns (500.1; the active player changes), and delayed abilities lasting "next '
        'turn" or "until your next turn", with a set piece: a delayed ability limited to a turn whose event comes '
        'again in a later turn (603.7b)'
    ),
    "zone_changes": (
        'triggers on a zone change between any two zones ("put into exile from anywhere", "put into a '
        'hand or a library", "leaves a graveyard"), and a scripted event moving several objects to different zones '
        '(603.10a)'
    ),
    "filters": (
        "card types and tokens on objects; trigger filters \"you control\", \"an opponent controls\", \"a "
        "creature\", \"a nontoken\", \"you gain life\", \"a source you control deals damage\" (603.2, 603.3a), with "
        "a set piece whose event matters only to the ability's controller, not to the active player"
    ),
}


# Finer features an engine's profile may exclude too, which the swarm does not draw (so the stream's layout stays as
# it is): each names what a scenario contains by default, and a profile excluding it gets a narrower shape of the
# same situation (for an engine that plays the narrower shape only). Which engine excludes which, and why, is said
# by that engine's profile, never here.
NARROWER_SHAPE_DOCS: dict[str, str] = {
    "other_players_multiplayer": "effects on a player other than the ability's controller in games of 3-4 players",
    "life_triggers": "abilities triggering on a life change (they become damage triggers)",
    "foreign_graveyard_conditions": 'an intervening "if" that a card another player owns is not in a graveyard',
    "concede_effects": "abilities making a player lose the game (scripted concessions stay)",
    "delayed_anywhere": (
        'delayed abilities anywhere in an effect, of any duration, trigger and effect, with an '
        'intervening "if" (the default); a profile excluding this gets only those closing their effect, lasting the '
        'turn, on a creature (any, or one) leaving the battlefield or dying, doing one thing ("whenever a creature '
        'dies this turn, ...")'
    ),
    "reflexive_anywhere": (
        "reflexive abilities anywhere in an effect, watching any creature's death, with an "
        "intervening \"if\" (the default); a profile excluding this gets only those closing their effect right after "
        "destroying the object whose death they watch, an object no earlier instruction of the effect names, with no "
        "intervening \"if\" (\"destroy X. When you do, ...\"), never in an optional ability"
    ),
    "untargeted_zone_triggers": (
        'enter/leave abilities never target (the default); a profile excluding this lets '
        'them target "target player" (any player of the game), every object ("target creature") or one object, maybe '
        'one in a hand (no legal target, 603.3d), for an engine that reads targets but no named signals (the other '
        'targeted triggers) Each below is the default too, and a profile excluding it gets the narrower shape '
        'described.'
    ),
    "stray_targets": (
        "targeted enter/leave abilities (see untargeted_zone_triggers) on any trigger, their one object "
        "any (the default); a profile excluding this gets them only on their source's own entering or leaving "
        "(once), each one-object target a permanent nothing else in the scenario moves or damages (where there is "
        "one), and a target with no legal candidate (a card in a hand, 603.3d) only with no intervening \"if\" and "
        "with a second ability of its source on the same trigger, so that both trigger at once and their controller "
        "orders them"
    ),
    "scripted_delayed_triggers": (
        "a scripted event may trigger a live delayed ability (the default); a profile "
        "excluding this gets delayed abilities watching deaths only and, in a scenario that has one, scripted "
        "removals that exile (none where exile is left out)"
    ),
    "repeated_delayed_creations": (
        "an ability creating a delayed ability may trigger several times (the default); a "
        "profile excluding this gets creators of delayed abilities triggering only on their own source's entering or "
        "leaving (at most once)"
    ),
    "optional_for_others": (
        "an optional ability may begin with an instruction about another player (putting a card "
        "from their hand, their life); a profile excluding this leaves such an ability not optional"
    ),
    "hand_control_changes": (
        'scripted control changes of any object, to any other player (the default); a profile '
        'excluding this gets them only of permanents, to players who do not leave the game, preferring permanents '
        'with abilities that name no player through their controller ("you", "your", "opponent")'
    ),
    "chance_lethal_losses": (
        "lethal damage to a creature and its owner's loss of the game meet in one state-based actions check only "
        "by chance (the default); a profile excluding this gets, where a player may leave the game, a card of "
        "theirs entering first whose ability deals lethal damage to another creature they own and as much damage to "
        "them as their life (704.3: both in one check; 800.4a: the creature dies, then leaves with them)"
    ),
}
PROFILE_ONLY_FEATURES = frozenset(NARROWER_SHAPE_DOCS)


# Issue 12, item 1f (kept apart from the set above so that other vocabulary items can add theirs alongside).
FEATURE_DOCS |= {
    "batching": (
        '"whenever one or more ..." (603.2c), abilities triggering additional times (603.2d), "do this only '
        'once each turn" (603.2h), abilities triggering on an ability resolving'
    ),
}

# Issue 12, item 1g.
FEATURE_DOCS |= {
    "spells": (
        "spells cast from a hand onto the stack, resolving, countered, or removed for an illegal target "
        "(608.2b); abilities triggering on casting and on countering"
    ),
}

# Issue 22, item 1: new words of the vocabulary (reference_engine/mtg/generator/words.py).
FEATURE_DOCS |= {
    "ownership": (
        "trigger filters on who owns the event's object (\"a creature you own dies\", \"put into your "
        "graveyard\"), with a permanent given to another player first"
    ),
    "event_amounts": (
        'amounts taken from the trigger event ("you gain that much life", "deals that much damage"), '
        'answering damage or a life change (implied off by event_triggers)'
    ),
    "triggers_once": (
        'an ability that "triggers only once each turn", per object: its event twice at once, or again '
        'after its source left the battlefield and came back (400.7); on a named signal (implied off by signals)'
    ),
}


# Issue 31: more words (reference_engine/mtg/generator/words.py), drawn last in the swarm order (ISSUE_31_ORDER) so
# that the features before them keep their places in the stream.
ISSUE_31_ORDER: tuple[str, ...] = ("spell_delayed", "dealt_damage", "damage_occurrences")
# Features the swarm does not draw: their set piece, drawn last, draws its own odds (its first answer, 0 turning it
# off when shrinking), so adding one moved no draw of the stream before it, nor the stream of a profile excluding it
# (phase's: a shifted stream there lost the one or two scenarios exercising its rarest rules).
UNSWARMED: frozenset[str] = frozenset({"tokens", "activated", "zone_tour", "combat_damage", "that_player"})
FEATURE_DOCS |= {
    "spell_delayed": (
        'a spell creating delayed triggered abilities ("whenever a creature dies this turn", "when C dies"), '
        'cast by a player who is often not the active one (603.7a, 603.7d; implied off by spells and by delayed)'
    ),
    "dealt_damage": (
        '"whenever this is dealt damage", "whenever a creature you control is dealt damage" (the permanent dealt '
        'damage, not the source, 120.3), two permanents damaging each other, answered by a named signal (implied off by '
        'event_triggers, script_damage and signals)'
    ),
    "damage_occurrences": (
        'one damage event with several occurrences (one source damaging several permanents, or several sources '
        'damaging one, as combat damage), watched once per occurrence or "one or more" once per event (603.2c; '
        'answered by a named signal; implied off by event_triggers, script_damage and signals; "one or more" off '
        'with batching)'
    ),
    "tokens": (
        'creating tokens (a token, or two at once, comes into existence on the battlefield: "whenever a creature '
        'enters" and its own "when this enters" trigger on each, 603.6a, 603.2c), sometimes twice (the second does nothing) or dying afterwards, '
        'and a token never created whose abilities never trigger (implied off by event_triggers; not drawn by the '
        'swarm: its set piece draws its own odds)'
    ),
    "activated": (
        'an activated ability with a cost (602.2, 601.2h): sacrificing a creature (its "when this dies", or '
        '"whenever a creature you control dies"), sometimes the permanent itself, discarding a card ("whenever a card '
        'is put into a graveyard from a hand"), paying life; what the payment triggers resolves before the ability '
        '(implied off by event_triggers; not drawn by the swarm: its set piece draws its own odds)'
    ),
    "combat_damage": (
        'combat damage as distinct from noncombat damage (120.2a-b, 510.2): "whenever this deals combat damage to a '
        'player", "whenever a creature you control deals combat damage to a player" (maybe "one or more"), or '
        '"noncombat damage", with both kinds dealt by the creature (answered by a named signal; implied off by '
        'event_triggers, script_damage and signals; not drawn by the swarm: its set piece draws its own odds)'
    ),
    "that_player": (
        '"that player", "them" (603.2, 608.2): "whenever a player draws a card (a named signal given by the drawer), '
        'this deals 1 damage to them" or "they lose 1 life", maybe "an opponent" (not with signals off), or "whenever '
        'a permanent is put into an opponent\'s graveyard, that player loses 1 life" (the owner, 400.3; with ownership '
        'and filters), often of a permanent given to the ability\'s controller first (not drawn by the swarm: its set '
        'piece draws its own odds)'
    ),
    "zone_tour": (
        "a card's tour of the zones (cast as a spell, created as a token, or put anywhere first), watched from every "
        "zone an ability works from, with intervening conditions of every test, delayed abilities of each duration, a "
        "control change, damage (prevented; lethal, in one event with another), a reflexive and a state trigger and "
        "a player conceding around it (issue 30; not drawn by the swarm, nor are its parts, which follow the "
        "profile: the tour and each part draw their own odds, after every other answer)"
    ),
}


# Swarm testing (Groce et al., ISSTA 2012): each scenario first enables a random subset of the features, each with
# these odds (percent; the others: SWARM_ODDS_DEFAULT), so that scenarios differ in kind and not only in detail, and
# a feature that masks another (players leaving take their abilities with them...) is often absent. A feature drawn
# "off" reads 0, so shrinking turns features off; a profile's exclusions stay off whatever is drawn.
SWARM_ODDS_DEFAULT = 70
SWARM_ODDS = {"signals": 92, "other_objects": 80, "empty_effects": 50}
PROFILE_FEATURES = frozenset(FEATURE_DOCS)
EXCLUDABLE_DOCS = {**FEATURE_DOCS, **NARROWER_SHAPE_DOCS}  # every feature a profile may exclude, documented
SWARM_ORDER = tuple(sorted(PROFILE_FEATURES - set(ISSUE_31_ORDER) - UNSWARMED)) + ISSUE_31_ORDER


def draw_features(source: ChoiceSource, exclude: frozenset[str] = frozenset()) -> frozenset[str]:
    """The features a scenario leaves out: those ``exclude`` names (a profile's, for good) and those the swarm draw
    switches off. The first answers of ``source``: one per feature of :data:`SWARM_ORDER`, 0 meaning off."""
    off = {feature for feature in SWARM_ORDER if not source.chance(SWARM_ODDS.get(feature, SWARM_ODDS_DEFAULT))}
    return frozenset(off | exclude)



# Issue 33 item 3: shapes a run never draws (its stream and answer logs stay as they are), built only when a profile
# includes them (``profile={"include": [...]}``): the editors' small-scenario search (``diff``) asks for them when it
# compares values of an option whose readings differ in that shape alone (:data:`OPTION_SHAPES`, read by
# conformance/editors/targeting.py as ``build_scenario.option_shapes``). Each is drawn after every other answer.
SEARCH_SHAPE_DOCS: dict[str, str] = {
    "watcher_chain": (
        'an ability on a named signal, "whenever that ability is put on the stack" on a second permanent and '
        '"whenever that ability triggers" on a third, one controller\'s: the two watchers wait in one batch, and which '
        "pass of 603.3b the first goes in decides their order (pass_two_membership)"
    ),
}
SEARCH_SHAPES = frozenset(SEARCH_SHAPE_DOCS)
OPTION_SHAPES: dict[str, tuple[str, ...]] = {"pass_two_membership": ("watcher_chain",)}
