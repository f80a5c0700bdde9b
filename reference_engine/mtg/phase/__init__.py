"""phase.rs (https://github.com/phase-rs/phase), an open-source MTG rules engine in Rust, checked through its Python
binding ``phase-python`` (import name ``phase``; pinned, see ``PHASE_VERSION``).

Install with ``pip install 'trigger-conformance[phase]'`` and run ``trigger-conformance run --engine phase --ruleset
mtg``. What the adapter does with one scenario:

1. **Render**: every scenario object becomes a synthetic creature card whose Oracle text phase's own parser reads
   (``phase.build_oracle_face``), one line per triggered ability, in the ability's order (phase's ``printed_index``
   maps a stack entry back to its ability). The subset it renders (anything else is ``Skipped``, never guessed):

   * trigger conditions ``enter`` / ``leave`` (``to: graveyard`` is "dies"), subject ``self`` ("this creature"),
     ``other`` ("another creature") or ``any`` ("a creature");
   * trigger filters ``controller`` ("a creature you control", "an opponent controls") on enter/leave, ``type`` and
     ``nontoken`` where they exclude no object; ``once_each_turn`` ("Do this only once each turn.");
   * ``intervening_if`` ``life_at_least`` of the controller ("if you have N or more life"); ``optional`` ("you may");
   * effects on the ability's source or controller only: destroy this creature, this creature deals N damage to
     itself / to you, you gain / lose N life (at least one action);
   * cards starting on the battlefield, in a hand, a graveyard, a library or exile; fields that change nothing for
     the adapter (an ability's ``text``, an object's ``name``, ``types`` and ``token`` no filter reads) are ignored;
   * scripted actions: a card moved from hand to the battlefield, a permanent moved to the graveyard or exile (debug
     ``MoveToZone`` with ``simulate: true``, so phase's own zone-change pipeline and triggers run);
   * later widened (the full table is in docs/engines/phase.md): effects and conditions on other objects through
     creature types, damage / life / "loses the game" triggers, control changes, concessions, players leaving, and
     ``target`` ``{"players": every player}`` on enter/leave abilities ("target player loses N life", "this creature
     deals N damage to target player"; MTG 603.3d), and ``{"candidates": ...}`` of every object ("target creature")
     or one object ("destroy target Elf", "exile target Elf", "deals N damage to target Elf"); reflexive abilities
     ("destroy all Elves. When you do, ...", 603.12) and delayed ones lasting the turn ("whenever a creature dies
     this turn, ...", 603.7), each only as the last instruction of its creator.

   :data:`PROFILE` (:mod:`.profile`) declares this subset to the MTG scenario builder (``Engine.generation_profile``).
2. **Play**: a free-for-all game with one seat per scenario player in turn order, the active player first; every
   hand kept; debug mode on; the battlefield placed without triggers (``simulate: false``); then each scripted
   action, every player passing priority until the stack is empty. ``OrderTriggers`` prompts are answered from the
   harness's chooser, ``OptionalEffectChoice`` and ``TriggerTargetSelection`` (a player or creature target)
   prompts likewise; a target phase asks after a priority pass (phase-rs/phase#1287) is written where phase asked,
   not on the push. An ability phase offered for ordering and then removed for want of a legal target is written
   removed for ``no_target`` (603.3d); alone, phase reports nothing of it, and the scenario is ``Skipped``.
3. **Trace**: phase's events (``ZoneChanged``, ``DamageDealt``, ``LifeChanged``, ``StackResolved``,
   ``CreatureDestroyed``...) and its stack (``game.stack()``, bottom to top, each entry naming its source,
   controller, ``printed_index`` and ``trigger_event``) become trace entries: events, trigger instances (placed right
   after the event phase says triggered them), stack pushes in the order they appear on phase's stack, resolutions,
   state-based actions (a creature destroyed with no source) and priority.

What the adapter cannot observe it does not invent; see docs/engines/phase.md for the limits and the triage.

The package, by job: :mod:`.render` (scenarios into phase.rs cards: Oracle text, MTGJSON faces, the subset check),
:mod:`.play` and :mod:`.prompts` (driving the game: setup, the script, priority, phase's prompts), :mod:`.trace`,
:mod:`.stack` and :mod:`.events` (reading back phase's events and stack as trace entries), :mod:`.tokens`
(``create_token``: phase's own token effect through a token maker's ability, which also makes the script's
simultaneous moves), :mod:`.signals` (named signals as helper lands played), :mod:`.unseen` (what cannot be seen
while playing: skipped), :mod:`.profile` (what it cannot play, as generator features excluded) and
:mod:`.engine` (:class:`PhaseEngine`). It depends only on the engine interface (``reference_engine.kernel.engine``,
``reference_engine.kernel.errors``): the import contract "third-party engine adapters" in pyproject.toml.
"""

from reference_engine.mtg.phase.engine import EDITIONS, PHASE_VERSION, RULESET, PhaseEngine
from reference_engine.mtg.phase.events import delayed_effect
from reference_engine.mtg.phase.play import Play
from reference_engine.mtg.phase.profile import LIMITS, PROFILE
from reference_engine.mtg.phase.render import (
    CREATURE_TYPES, Names, card_text, check_scenario, mtgjson_face, render_ability,
)

__all__ = ["CREATURE_TYPES", "EDITIONS", "LIMITS", "PHASE_VERSION", "PROFILE", "RULESET", "Names", "PhaseEngine",
           "Play", "card_text", "check_scenario", "delayed_effect", "mtgjson_face", "render_ability"]
