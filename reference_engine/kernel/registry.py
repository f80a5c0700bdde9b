"""The one registry of ruleset units: every part of every installed ruleset is reached through here.

Units are found through the entry-point group :data:`ENTRY_POINT_GROUP` (see :mod:`reference_engine.kernel.unit`),
loaded on first use and validated then. This module imports nothing of the project's statically: the harness
reaches rulesets only through it, and it never makes the judge depend on an engine.

Raises KeyError (naming the known rulesets) for an unknown ruleset and :class:`UnitError` for a unit that is
incomplete or inconsistent.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Callable

from reference_engine.kernel import schemas
from reference_engine.kernel import unit_checks as checks
from reference_engine.kernel.schemas import composed_schema
from reference_engine.kernel.unit import ENTRY_POINT_GROUP, RulesetUnit, UnitError, resource, unit, units

__all__ = ["ENTRY_POINT_GROUP", "composed_schema", "unit", "units"]  # found here as before; defined in unit/schemas

# A builder is ``build(source: ChoiceSource, edition: str) -> dict``: a deterministic function of the source's
# answers that returns a scenario document without ``options`` (the run sets them).
Builder = Callable[..., dict[str, Any]]


def _load(spec: str, unit: str, part: str) -> Any:
    module, _, attribute = spec.partition(":")
    try:
        value = importlib.import_module(module)
        for name in attribute.split(".") if attribute else ():
            value = getattr(value, name)
    except (ImportError, AttributeError) as error:
        raise UnitError(f"ruleset unit {unit!r}: its {part} {spec!r} cannot be loaded: {error}") from error
    return value


@functools.lru_cache(maxsize=None)
def loaded(name: str) -> "LoadedUnit":
    """Ruleset ``name`` with every part loaded and validated. Raises KeyError or UnitError."""
    return LoadedUnit(unit(name))


class LoadedUnit:
    """The parts of one unit, loaded. Validation happens here, once, when the unit is first used."""

    def __init__(self, manifest: RulesetUnit):
        self.manifest = manifest
        name = manifest.name
        self.ruleset = _load(manifest.judge, name, "judge")
        self.reference_engine = _load(manifest.reference_engine, name, "reference engine")
        self.generator = _load(manifest.generator, name, "generator")
        self.rule_text = _load(manifest.rule_text, name, "rule-text reader")
        self.profile_features = frozenset(_load(manifest.profile_features, name, "profile features")
                                          if manifest.profile_features else ())
        self.feature_docs = dict(_load(manifest.feature_docs, name, "feature docs") if manifest.feature_docs else {})
        self.faulty_engines = tuple(_load(manifest.faulty_engines, name, "faulty engines")
                                    if manifest.faulty_engines else ())
        self.permissive_game = (_load(manifest.permissive_game, name, "permissive engine")
                                if manifest.permissive_game else None)
        self.choice_kinds = dict(_load(manifest.choice_kinds, name, "choice kinds") if manifest.choice_kinds else {})
        self._validate()

    def _validate(self) -> None:
        """Raises UnitError naming the unit and every problem found, each with what to do."""
        m = self.manifest
        problems = self._part_problems() + self._file_problems() + self._schema_problems() + self._choice_problems()
        if problems:
            raise UnitError(f"ruleset unit {m.name!r} is inconsistent: " + "; ".join(problems))

    def _part_problems(self) -> list[str]:
        m, ruleset, problems = self.manifest, self.ruleset, []
        if getattr(ruleset, "name", None) != m.name:
            problems.append(f"its judge is named {getattr(ruleset, 'name', None)!r}")
        editions = tuple(getattr(ruleset, "editions", ()))
        if not editions:
            problems.append("its judge lists no edition")
        keys = {inv.key for inv in getattr(ruleset, "invariants", ())}
        if not keys:
            problems.append("its judge has no invariant")
        problems += checks.engine_problems(self.reference_engine, m.name, editions)
        engine_editions = tuple(getattr(self.reference_engine, "editions", None) or editions)
        if set(engine_editions) != set(editions):
            problems.append(f"its reference engine plays editions {list(engine_editions)}, its judge has "
                            f"{list(editions)}")
        for faulty in self.faulty_engines:
            if faulty.ruleset != m.name or faulty.edition not in editions:
                problems.append(f"faulty engine {faulty.name!r} is for {faulty.ruleset} {faulty.edition}")
            if faulty.expected_rule_key not in keys:
                problems.append(f"faulty engine {faulty.name!r} expects unknown rule key {faulty.expected_rule_key!r}")
        if self.feature_docs and not self.profile_features <= set(self.feature_docs):
            problems.append(f"its feature docs leave out {sorted(self.profile_features - set(self.feature_docs))}")
        for key in sorted(m.prefix_safe - keys):
            problems.append(f"prefix-safe key {key!r} is not one of its rule keys")
        if not callable(self.generator) or not callable(self.rule_text):
            problems.append("its generator and rule-text reader must be callables")
        else:
            problems += checks.generator_problems(self.generator)
        if self.permissive_game is None:
            problems.append("its manifest names no permissive engine (permissive_game): `diff`, `lint-rules` and the "
                            "editors' tools branch with it; name its Game(scenario, chooser, oracle) class")
        elif not callable(self.permissive_game):
            problems.append("its permissive engine must be a class")
        problems += checks.option_problems(ruleset)
        problems += checks.scope_problems(m.rule_scope, getattr(ruleset, "invariants", ()))
        return problems

    def _file_problems(self) -> list[str]:
        m, problems = self.manifest, []
        for part, relative in (("schema folder", m.schema), ("fixtures folder", m.fixtures), ("docs page", m.docs)):
            if relative is not None and not self.resource(relative).exists():
                problems.append(checks.missing_resource(part, relative, self.resource(relative)))
        if m.fixtures is not None and self.resource(m.fixtures).is_dir():
            keys = {inv.key for inv in getattr(self.ruleset, "invariants", ())}
            problems += checks.fixture_problems(self.resource(m.fixtures), m.fixtures, keys)
        return problems

    def _schema_problems(self) -> list[str]:
        m, problems = self.manifest, []
        if m.schema is None or not self.resource(m.schema).exists():
            return problems
        for kind in schemas.KINDS:
            try:
                fragment = schemas.schema_fragment(m, kind)
                for where in checks.stray_keys(fragment):
                    problems.append(f"its {kind} schema fragment {m.schema}/{kind}.json has a stray key {where} (not "
                                    f"a JSON Schema keyword: a typo?)")
                schemas.compose(schemas.kernel_schema(kind), [(m.name, fragment)])
                if kind == "trace":
                    where = f"{m.schema}/trace.json ({self.resource(m.schema) / 'trace.json'})"
                    problems += checks.entry_kind_problems(fragment, where, schemas.kernel_schema(kind),
                                                           self._before_fragments(kind))
            except UnitError as error:
                problems.append(f"its {kind} schema fragment does not compose with the kernel's "
                                f"({str(error).split(': ', 1)[-1]})")
                continue
            problems += self._installed_problems(kind)
        if not problems and getattr(self.ruleset, "vocabulary", None):
            from reference_engine.kernel.derived import unexplained_words
            schema = schemas.compose(schemas.kernel_schema("scenario"),
                                     [(m.name, schemas.schema_fragment(m, "scenario"))])
            for word in unexplained_words(schema, self.ruleset.vocabulary):
                problems.append(f"its vocabulary's {word} has no derived situation (its scenario schema does not "
                                f"define it)")
        return problems

    def _before_fragments(self, kind: str) -> dict[str, dict[str, Any]]:
        """The ``kind`` fragments of the units listed before this one (all of them when it is not installed)."""
        found = {}
        for other in units().values():
            if other.name == self.manifest.name:
                break
            try:
                found[other.name] = schemas.schema_fragment(other, kind)
            except UnitError:
                continue  # that unit's own load says so
        return found

    def _installed_problems(self, kind: str) -> list[str]:
        """Its fragment composed with every installed unit's, in listing order (itself in its place, or last): a
        word another unit defines differently is refused here, naming the unit that comes later. Raises the
        UnitError of another pair of units that do not compose (it names the unit at fault)."""
        m = self.manifest
        chosen = [u if u.name != m.name else m for u in units().values()]
        chosen += [] if m.name in units() else [m]
        try:
            schemas.compose(schemas.kernel_schema(kind), [(u.name, schemas.schema_fragment(u, kind)) for u in chosen])
        except UnitError as error:
            if f"ruleset unit {m.name!r}" not in str(error):
                raise
            return [f"its {kind} schema fragment does not compose with the other installed units' "
                    f"({str(error).split(': ', 1)[-1]}): use a word of its own, or the other unit's meaning"]
        return []

    def _choice_problems(self) -> list[str]:
        """Its choice kinds against the kernel's, those of the units listed before it, and its own fragments."""
        m = self.manifest
        if not self.choice_kinds:
            return []
        before = {}
        for other in units().values():
            if other.name == m.name:
                break
            if other.choice_kinds:
                try:
                    before[other.name] = dict(_load(other.choice_kinds, other.name, "choice kinds"))
                except UnitError:
                    continue  # that unit's own load says so
        try:
            fragments = {kind: schemas.schema_fragment(m, kind) for kind in schemas.KINDS}
        except UnitError:
            fragments = {}  # reported by _schema_problems
        return checks.choice_kind_problems(self.choice_kinds, m.choice_kinds, before, fragments)

    def resource(self, relative: str) -> Path:
        """A file or folder of the unit's package (``relative`` to it), or of another package (``package:path``)."""
        return resource(self.manifest, relative)


class _Rulesets(Mapping):
    """Ruleset name -> its judge (:class:`reference_engine.kernel.ruleset.Ruleset`), loaded on first access."""

    def __getitem__(self, name: str):
        return loaded(name).ruleset

    def __iter__(self) -> Iterator[str]:
        return iter(units())

    def __len__(self) -> int:
        return len(units())


class _FaultyEngines(Mapping):
    """Faulty engine name -> :class:`reference_engine.common.faulty.Mutant`, over every installed ruleset."""

    def _all(self) -> dict:
        found = {}
        for name in units():
            for faulty in loaded(name).faulty_engines:
                if faulty.name in found:
                    raise UnitError(f"faulty engine {faulty.name!r} is defined by two rulesets")
                found[faulty.name] = faulty
        return found

    def __getitem__(self, name: str):
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


RULESETS: Mapping[str, Any] = _Rulesets()
MUTANTS: Mapping[str, Any] = _FaultyEngines()


def get_ruleset(name: str):
    """The judge of ruleset ``name``. Raises KeyError with the known names."""
    return loaded(name).ruleset


def reference_engine_classes() -> dict[str, type]:
    """Ruleset name -> the class of its reference engine (the oracle whose trace a failure is shown against)."""
    return {name: loaded(name).reference_engine for name in units()}


def reference_engine_for(ruleset: str, max_trace_entries: int | None = None):
    """A fresh reference engine for ``ruleset`` (a unit's name). Raises KeyError naming the known rulesets.
    ``max_trace_entries``: its loop guard (None: the default, 20,000; see ReferenceEngine)."""
    try:
        cls = loaded(ruleset).reference_engine
    except KeyError:
        raise KeyError(f"no reference engine for ruleset {ruleset!r} (known: {', '.join(units())})") from None
    return cls() if max_trace_entries is None else cls(max_trace_entries=max_trace_entries)


def builder_for(ruleset: str, profile: dict[str, Any] | None = None) -> Builder:
    """The scenario builder of ``ruleset``, restricted to an engine's generation ``profile`` when one is given (see
    ``Engine.generation_profile``). Raises KeyError for an unknown ruleset."""
    build = loaded(ruleset).generator
    if profile is None:
        return build
    return functools.partial(build, profile=profile)


def game_factory(ruleset: str):
    """The permissive ``Game`` class of ``ruleset``: ``cls(scenario, chooser, oracle).play() -> trace``. Raises
    KeyError for a ruleset without one."""
    game = loaded(ruleset).permissive_game
    if game is None:
        raise KeyError(f"ruleset {ruleset!r} has no permissive engine")
    return game


def prefix_safe(ruleset: str) -> frozenset[str]:
    """The rule keys of ``ruleset`` whose violation on a trace prefix stays in every completion (the editors' tools
    prune with them); empty for an unknown ruleset."""
    try:
        return unit(ruleset).prefix_safe
    except KeyError:
        return frozenset()


@functools.lru_cache(maxsize=None)
def derived(ruleset: str) -> list:
    """The situations derived from ``ruleset``'s vocabulary (:func:`reference_engine.kernel.derived.derive`), possible
    and impossible. Raises KeyError for an unknown ruleset."""
    from reference_engine.kernel.derived import derive
    ruleset_judge = loaded(ruleset).ruleset
    return derive(composed_schema("scenario", (ruleset,)), ruleset_judge.vocabulary, ruleset_judge.invariants)


def choice_kinds(ruleset: str) -> dict[str, Any]:
    """The player choices ``ruleset``'s engines ask beyond the kernel's: name ->
    :class:`reference_engine.kernel.choices.ChoiceKind` (empty for a unit that declares none). Raises KeyError for an
    unknown ruleset, UnitError for an inconsistent unit."""
    return loaded(ruleset).choice_kinds


def paragraphs(ruleset: str, text: str) -> dict[str, str]:
    """Rule number -> paragraph, as ``ruleset``'s rule-text reader reads ``text``. Raises KeyError."""
    return loaded(ruleset).rule_text(text)
