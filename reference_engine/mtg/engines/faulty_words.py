"""MTG faulty engines for the words of issue 31 (spells creating delayed triggered abilities, ...): the reference
engine with one fault each. Registered, with the rule key that must catch each, in faulty.py's ``MUTANTS``."""

from __future__ import annotations

from reference_engine.mtg.engines.reference import Game


class SpellDelayedDroppedGame(Game):
    """Creates delayed triggered abilities only for resolving abilities, as if only an ability's effect could create
    one: a spell's "when ... this turn" is dropped (603.7a, 603.7d: a resolving spell creates them too, the spell
    their source, its controller theirs); caught by mtg.delayed-trigger."""

    @staticmethod
    def spell_creates(do, ctx) -> bool:
        return False
