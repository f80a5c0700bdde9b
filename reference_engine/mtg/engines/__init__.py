"""The engines of the mtg ruleset: ``reference`` (the oracle), ``faulty`` (one named fault each) and
``permissive`` (every open decision a branch point). They import the engine interface and reference_engine.common,
never the judge."""
