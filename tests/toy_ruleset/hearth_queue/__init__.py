"""Hearth Queue, a toy fourth ruleset installed from its own distribution: a queue of whenever-triggers resolved in
play order. This module is the manifest only."""

from reference_engine.kernel.unit import RulesetUnit

UNIT = RulesetUnit(
    name="hearth-queue",
    package=__name__,
    judge="hearth_queue.judge:HEARTH_QUEUE",
    reference_engine="hearth_queue.engines:HearthQueueEngine",
    faulty_engines="hearth_queue.engines:MUTANTS",
    permissive_game="hearth_queue.engines:PermissiveGame",
    generator="hearth_queue.generator:build_scenario",
    profile_features="hearth_queue.generator:PROFILE_FEATURES",
    rule_text="hearth_queue.judge:paragraphs",
    prefix_safe=frozenset({"hq.newcomers-wait"}),
    fixtures="fixtures",
)
