"""A ruleset unit: the manifest naming every part of one ruleset's folder.

A ruleset plugs into the suite as one folder (``reference_engine/<ruleset>/`` for the bundled ones, any installed
package for the others) whose manifest, a :class:`RulesetUnit`, is registered under the entry-point group
``trigger_conformance.rulesets``::

    [project.entry-points."trigger_conformance.rulesets"]
    hearthstone = "hs_conformance:UNIT"

The manifest names its parts as ``"module:attribute"`` strings, so that listing the installed rulesets imports none
of them, and a run of one ruleset loads none of the others. :mod:`reference_engine.kernel.registry` loads a unit
when it is first asked for and validates it then (every part present and of the right shape, editions consistent
between the judge and the engines, prefix-safe keys that exist, a fixture per key, option defaults among their
values, a rule scope that matches its keys, schema fragments without stray keys that compose with every installed
unit's; :mod:`reference_engine.kernel.unit_checks`), raising :class:`UnitError` naming the part at fault and the fix.

The parts, and who may import whom (tests/test_layering.py):

* ``judge``: a :class:`reference_engine.kernel.ruleset.Ruleset` (vocabulary, options, observations, situations,
  invariants). Imports the kernel only: never an engine, a generator or another ruleset.
* ``reference_engine``: the :class:`reference_engine.kernel.engine.Engine` subclass that is the oracle. Engines
  import the engine interface and ``reference_engine.common`` only: never a judge.
* ``faulty_engines``: a sequence of :class:`reference_engine.common.faulty.Mutant` (may be empty).
* ``permissive_game``: the permissive ``Game`` class the editors' tools (``diff``, ``lint-rules``) branch with
  (required: a unit without one is refused at load): ``Game(scenario, chooser, oracle).play() -> trace``, writing
  its entries through ``.record``
  (a :class:`reference_engine.common.recorder.Recorder`: its ``entries`` and ``max_entries`` are read and set).
* ``generator``: ``build(source, edition, profile=None) -> scenario`` (see :mod:`reference_engine.kernel.source`).
* ``profile_features``: the features the generator can switch off for a partial engine (a frozenset).
* ``feature_docs``: each feature a profile may exclude, with what a scenario has with it (a dict; docs/checking.md
  lists them).
* ``choice_kinds``: the player choices its engines ask beyond the kernel's ``order`` and ``optional``: a mapping
  name -> :class:`reference_engine.kernel.choices.ChoiceKind` (``kind_table(...)``; None: none). Its engines ask them
  with ``Chooser.choose(name, player, context, candidates)``; a name the kernel or another installed unit declares
  otherwise is refused at load.
* ``rule_text``: ``paragraphs(text) -> {rule number: paragraph}``, the reader of the ruleset's rule text.
* ``rule_scope``: a regular expression matching the rule numbers of that text the rule keys must encode (None:
  every number the reader finds; a text holding a whole game's rules, of which one chapter is in scope, matches
  that chapter's numbers only).
* ``schema``: folder (relative to the unit's package) of its schema fragments (``scenario.json``, ``trace.json``),
  composed into the shared scenario and trace schemas.
* ``fixtures``: folder of its golden scenarios, relative to the unit's package, or ``package:path`` (None: it ships
  none; the bundled rulesets keep theirs in the project's top-level ``fixtures/<ruleset>/``).
* ``docs``: its documentation page, relative to the unit's package.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from importlib.metadata import entry_points
from pathlib import Path

from reference_engine.kernel.errors import ConformanceError

ENTRY_POINT_GROUP = "trigger_conformance.rulesets"


class UnitError(ConformanceError):
    """A ruleset unit is incomplete or inconsistent; the message names the unit and the part at fault (the CLI
    reports it in one line, exit code 2)."""


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
    feature_docs: str | None = None
    faulty_engines: str | None = None
    permissive_game: str | None = None
    choice_kinds: str | None = None
    prefix_safe: frozenset[str] = frozenset()
    rule_scope: str | None = None
    schema: str | None = "schema"
    fixtures: str | None = None
    docs: str | None = "docs.md"
    rank: int = 100
    extra: dict = field(default_factory=dict)


@functools.lru_cache(maxsize=None)
def units() -> dict[str, RulesetUnit]:
    """Every installed ruleset unit by name, in listing order (rank, then name). Raises UnitError for an entry point
    that is not a RulesetUnit or whose name differs from its unit's."""
    found = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            manifest = ep.load()
        except Exception as error:  # a broken third-party package must say which one it is
            raise UnitError(f"ruleset entry point {ep.name!r} ({ep.value}) cannot be loaded: "
                            f"{type(error).__name__}: {error}") from error
        if not isinstance(manifest, RulesetUnit):
            raise UnitError(f"ruleset entry point {ep.name!r} ({ep.value}) is not a RulesetUnit")
        if manifest.name != ep.name:
            raise UnitError(f"ruleset entry point {ep.name!r} names a unit called {manifest.name!r}")
        found[manifest.name] = manifest
    return dict(sorted(found.items(), key=lambda item: (item[1].rank, item[0])))


def unit(name: str) -> RulesetUnit:
    """The manifest of ruleset ``name``. Raises KeyError naming the known rulesets."""
    known = units()
    if name not in known:
        raise KeyError(f"unknown ruleset {name!r} (known: {', '.join(sorted(known)) or 'none installed'})")
    return known[name]


def resource(manifest: RulesetUnit, relative: str) -> Path:
    """A file or folder of the unit's package (``relative`` to it), or of another package (``package:path``)."""
    package, _, path = relative.rpartition(":")
    return Path(str(resources.files(package or manifest.package).joinpath(path)))
