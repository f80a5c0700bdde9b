"""The mtg ruleset unit: Magic: The Gathering Comprehensive Rules 603 (Handling Triggered Abilities) and the stack.

One folder holds every part of the ruleset (see :mod:`reference_engine.kernel.unit`):

* ``judge/``: what the rules require, as the judge reads them (options, vocabulary, observations, situations, one
  invariant module per numbered rule). It never imports an engine or the generator.
* ``engines/``: the reference engine (the oracle), the faulty engines that the self-check must catch, and the
  permissive engine that the editors' tools branch with. They never import the judge.
    phase.rs is checked through its own adapter, :mod:`reference_engine.mtg.phase`.
* ``generator/``: the scenario builder, fed by a choice source (:mod:`reference_engine.kernel.source`).
* ``choices.py``: the player choices it asks beyond the kernel's (target, occurrence).
* ``schema/``: the words this ruleset adds to the scenario and trace schemas.
* ``docs.md``: the rule keys, options and modelling decisions. Golden scenarios: ``fixtures/mtg/``.

This module is the manifest only: importing it loads none of the parts.
"""

from reference_engine.kernel.unit import RulesetUnit

UNIT = RulesetUnit(
    name="mtg",
    package=__name__,
    judge="reference_engine.mtg.judge:MTG",
    reference_engine="reference_engine.mtg.engines.reference:MtgEngine",
    faulty_engines="reference_engine.mtg.engines.faulty:MUTANTS",
    permissive_game="reference_engine.mtg.engines.permissive:PermissiveGame",
    generator="reference_engine.mtg.generator:build_scenario",
    choice_kinds="reference_engine.mtg.choices:CHOICE_KINDS",
    profile_features="reference_engine.mtg.generator:PROFILE_FEATURES",
    feature_docs="reference_engine.mtg.generator.features:EXCLUDABLE_DOCS",
    rule_scope=r"603\.\d+[a-z]?",
    rule_text="reference_engine.mtg.judge.sentences:paragraphs",
    prefix_safe=frozenset({"mtg.apnap-order", "mtg.trigger-on-trigger-last"}),
    fixtures="conformance:fixtures/mtg",
    rank=2,
)
