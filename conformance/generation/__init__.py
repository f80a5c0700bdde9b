"""Scenario generation: one deterministic builder per ruleset, fed by a source of choices.

The same builder runs on a seeded source while exploring (one seed per scenario, no per-example cost to Hypothesis)
and on a replayed answer log while shrinking, where the log is a single ``st.binary()`` choice that Hypothesis
minimises (so a failure shrinks to a small scenario with simple choices). See :mod:`conformance.generation.source`
and :mod:`conformance.shrinking`.
"""
