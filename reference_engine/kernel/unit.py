"""A ruleset unit: the manifest naming every part of one ruleset's folder.

A ruleset plugs into the suite as one folder (``reference_engine/<ruleset>/`` for the bundled ones, any installed
package for the others) whose manifest, a :class:`RulesetUnit`, is registered under the entry-point group
``trigger_conformance.rulesets``::

    [project.entry-points."trigger_conformance.rulesets"]
    hearthstone = "hs_conformance:UNIT"

The manifest names its parts as ``"module:attribute"`` strings, so that listing the installed rulesets imports none
of them, and a run of one ruleset loads none of the others. :mod:`reference_engine.kernel.registry` loads a unit
when it is first asked for and validates it then (every part present and of the right shape, editions consistent
between the judge and the engines, prefix-safe keys that exist), raising :class:`UnitError` naming the part at fault.

The parts, and who may import whom (tests/test_layering.py):

* ``judge``: a :class:`reference_engine.kernel.ruleset.Ruleset` (vocabulary, options, observations, situations,
  invariants). Imports the kernel only: never an engine, a generator or another ruleset.
* ``reference_engine``: the :class:`reference_engine.kernel.engine.Engine` subclass that is the oracle. Engines
  import the engine interface and ``reference_engine.common`` only: never a judge.
* ``faulty_engines``: a sequence of :class:`reference_engine.common.faulty.Mutant` (may be empty).
* ``permissive_game``: the permissive ``Game`` class the editors' tools branch with (None: the editors' tools do not
  cover this ruleset).
* ``generator``: ``build(source, edition, profile=None) -> scenario`` (see :mod:`reference_engine.kernel.source`).
* ``profile_features``: the features the generator can switch off for a partial engine (a frozenset).
* ``rule_text``: ``paragraphs(text) -> {rule number: paragraph}``, the reader of the ruleset's rule text.
* ``schema``: folder (relative to the unit's package) of its schema fragments (``scenario.json``, ``trace.json``),
  composed into the shared scenario and trace schemas.
* ``fixtures``: folder of its golden scenarios, relative to the unit's package, or ``package:path`` (None: it ships
  none; the bundled rulesets keep theirs in the project's top-level ``fixtures/<ruleset>/``).
* ``docs``: its documentation page, relative to the unit's package.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class UnitError(Exception):
    """A ruleset unit is incomplete or inconsistent; the message names the unit and the part at fault."""


@dataclass(frozen=True)
class RulesetUnit:
    """The manifest of one ruleset (see the module docstring for each part). ``rank`` orders listings (bundled
    rulesets first, then by name)."""

    name: str
    package: str
    judge: str
    reference_engine: str
    generator: str
    rule_text: str
    profile_features: str | None = None
    faulty_engines: str | None = None
    permissive_game: str | None = None
    prefix_safe: frozenset[str] = frozenset()
    schema: str | None = "schema"
    fixtures: str | None = None
    docs: str | None = "docs.md"
    rank: int = 100
    extra: dict = field(default_factory=dict)
