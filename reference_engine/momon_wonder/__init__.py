"""The momon-wonder ruleset unit: how triggers fire and wait in the Queue (section 11.2, rules edition 1.0.0).

One folder holds every part of the ruleset (see :mod:`reference_engine.kernel.unit`):

* ``judge/``: what the rules require, as the judge reads them (options, vocabulary, observations, situations, one
  invariant module per numbered rule). It never imports an engine or the generator.
* ``engines/``: the reference engine (the oracle), the faulty engines that the self-check must catch, and the
  permissive engine that the editors' tools branch with. They never import the judge.
* ``generator.py``: the scenario builder, fed by a choice source (:mod:`reference_engine.kernel.source`).
* ``schema/``: the words this ruleset adds to the scenario and trace schemas.
* ``docs.md``: the rule keys, options and modelling decisions. Golden scenarios: ``fixtures/momon-wonder/``.

This module is the manifest only: importing it loads none of the parts.
"""

from reference_engine.kernel.unit import RulesetUnit

UNIT = RulesetUnit(
    name="momon-wonder",
    package=__name__,
    judge="reference_engine.momon_wonder.judge:MOMON_WONDER",
    reference_engine="reference_engine.momon_wonder.engines.reference:MomonWonderEngine",
    faulty_engines="reference_engine.momon_wonder.engines.faulty:MUTANTS",
    permissive_game="reference_engine.momon_wonder.engines.permissive:PermissiveGame",
    generator="reference_engine.momon_wonder.generator:build_scenario",
    profile_features="reference_engine.momon_wonder.generator:PROFILE_FEATURES",
    feature_docs="reference_engine.momon_wonder.generator:FEATURE_DOCS",
    rule_text="reference_engine.momon_wonder.judge.sentences:paragraphs",
    prefix_safe=frozenset({"mw.queue-fifo", "mw.same-event-order", "mw.remedy-front"}),
    fixtures="conformance:fixtures/momon-wonder",
    rank=0,
)
