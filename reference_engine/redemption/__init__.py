"""The redemption ruleset unit: Redemption CCG, REG glossary: Triggered Ability (TA.1-TA.6).

One folder holds every part of the ruleset (see :mod:`reference_engine.kernel.unit`):

* ``judge/``: what the rules require, as the judge reads them (options, vocabulary, observations, situations, one
  invariant module per numbered rule). It never imports an engine or the generator.
* ``engines/``: the reference engine (the oracle), the faulty engines that the self-check must catch, and the
  permissive engine that the editors' tools branch with. They never import the judge.
* ``generator.py``: the scenario builder, fed by a choice source (:mod:`reference_engine.kernel.source`).
* ``schema/``: the words this ruleset adds to the scenario and trace schemas.
* ``docs.md``: the rule keys, options and modelling decisions. Golden scenarios: ``fixtures/redemption/``.

This module is the manifest only: importing it loads none of the parts.
"""

from reference_engine.kernel.unit import RulesetUnit

UNIT = RulesetUnit(
    name="redemption",
    package=__name__,
    judge="reference_engine.redemption.judge:REDEMPTION",
    reference_engine="reference_engine.redemption.engines.reference:RedemptionEngine",
    faulty_engines="reference_engine.redemption.engines.faulty:MUTANTS",
    permissive_game="reference_engine.redemption.engines.permissive:PermissiveGame",
    generator="reference_engine.redemption.generator:build_scenario",
    profile_features="reference_engine.redemption.generator:PROFILE_FEATURES",
    feature_docs="reference_engine.redemption.generator:FEATURE_DOCS",
    rule_text="reference_engine.redemption.judge.sentences:paragraphs",
    prefix_safe=frozenset({"red.active-player-first", "red.new-trigger-placement", "red.mandatory-own-order",
                           "red.optional-own-order"}),
    fixtures="conformance:fixtures/redemption",
    rank=1,
)
