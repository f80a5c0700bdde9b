"""Tools for rules editors: every trace the rules allow for a small scenario, contradictions (minimal sets of rule
keys that cannot all hold), ambiguities (orders the rules leave open), edition and option diffs, and the rule-key
coverage matrix and lint.

* :mod:`conformance.editors.enumeration`: depth-first enumeration over the permissive engines
  (``reference_engine/<ruleset>/engines/permissive.py``), each complete trace judged by the ruleset's invariants, with prefix
  pruning.
* :mod:`conformance.editors.analysis`: contradictions, ambiguities and diffs over enumerations, with minimal
  scenarios (``conformance.shrinking.reduction``).
* :mod:`conformance.editors.matrix`: the coverage matrix and the rule-text lint (``--rules-text`` for a draft).
* :mod:`conformance.editors.report` builds the report document of a command (findings with sentences, scenario in
  words, outcomes and timelines); :mod:`conformance.editors.pages` renders it for the terminal, as Markdown and as
  HTML, and writes it.
"""
