"""Random MTG scenarios: simultaneous triggers from two to four players with the active player in any seat,
triggers during resolutions and from state-based actions, intervening 'if' clauses, optional, targeted, delayed,
reflexive and state triggers (intervening 'if' clauses on delayed and state triggers too), abilities triggering on
other abilities triggering (603.3b's second pass), permanents leaving the battlefield together, cards leaving a
graveyard together watched by abilities of cards in that graveyard (603.10a), abilities with no legal target left,
abilities targeting players (one of them a player who leaves the game before it resolves), prevented damage,
control changes (also of the source of a delayed ability before it triggers) and players leaving
the game, permanents put onto the battlefield in the middle of a resolution, scripts of one to three steps, and
how many times abilities trigger ("one or more", additional times, "only once each turn", on an ability resolving),
and spells cast onto the stack, resolving, countered or removed for an illegal target, watched by abilities.

Swarm testing (Groce et al., ISSTA 2012): the first answers a scenario reads are one per feature of
:data:`PROFILE_FEATURES` (:func:`draw_features`, 0 meaning off), so each scenario enables its own random subset of
the features instead of one fixed mix, and shrinking toward 0 turns the features a failure does not need off; the
features an engine's profile excludes stay off whatever is drawn. Under the mix, set pieces make the rarer situations
likely: a backbone of resolutions ``s1 -> s2 -> ... -> s4`` for nesting, a delayed ability whose source changes
hands before it triggers (603.7e), two abilities on one signal, the first to resolve destroying the other's target
(603.3d), a doomed player's ability waiting as they leave (800.4a), "the next time a creature dies" as several die
at once (603.7b).

Every scenario terminates:
* objects only move forward (hand -> battlefield -> graveyard -> exile; every move names the zone it moves from),
  so zone changes are finite;
* a signal ``sK`` only triggers abilities whose effects emit signals of a higher level (at most one signal per
  effect, so that chains grow deep rather than exponentially wide); abilities at the top level, and abilities
  triggered by damage, life, players leaving or other abilities, emit at most a top-level signal or a forward move
  (where a profile or the swarm leaves signals or empty effects out, the source's own destruction instead);
* a state trigger ("X is in a graveyard") always ends by exiling X, and is never optional or targeted; its
  intervening 'if', if any, is checked again on resolution, and while false it neither triggers nor resolves;
* an ability of a card in a graveyard that watches cards leaving the graveyard answers with a top-level signal or
  a life change;
* the reflexive ability of an optional ability ("you may ...; when you do, ...") only moves an object forward or
  does nothing, so even an engine that wrongly lets it trigger every time cannot loop through it;
* a delayed ability created by a set piece ("the next time a creature dies") only signals at the top level, and
  one lasting a step or a turn (triggering on every occurrence) that watches a signal signals nothing;
* an ability that watches another object's abilities (triggering or being put on the stack) watches an object
  that has no such watcher.

The package, by job: :mod:`.features` (the features a profile may exclude, the swarm draw), :mod:`.builder` (the
order of the draws, the document, :func:`build_scenario`), :mod:`.effects`, :mod:`.abilities`, :mod:`.set_pieces`,
:mod:`.script` and :mod:`.narrow` (the narrower shapes a profile may ask for instead of a default one). A search
shape (:data:`~.features.SEARCH_SHAPES`, in :mod:`.situated`) is built only when a profile includes it, which only the
editors' search does (``build_scenario.option_shapes``): no run's stream holds one.
"""

from reference_engine.mtg.generator.builder import Builder, build_scenario
from reference_engine.mtg.generator.features import (
    MAX_LEVEL, PROFILE_FEATURES, PROFILE_ONLY_FEATURES, SWARM_ODDS, SWARM_ODDS_DEFAULT, SWARM_ORDER, TOP,
    draw_features,
)

__all__ = ["MAX_LEVEL", "PROFILE_FEATURES", "PROFILE_ONLY_FEATURES", "SWARM_ODDS", "SWARM_ODDS_DEFAULT", "SWARM_ORDER",
           "TOP", "Builder", "build_scenario", "draw_features"]
