"""The checks the registry makes of a unit when it loads (issue 27 item 3), beyond the shape of its parts: each takes
the loaded parts and returns its problems as phrases (``"its reference engine ... : set ..."``), each saying what is
wrong, where, and what to do. :class:`reference_engine.kernel.registry.LoadedUnit` joins them into one UnitError
naming the unit. Imports the kernel only.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path
from typing import Any

from reference_engine.kernel.choices import KERNEL_CHOICES, ChoiceKind
from reference_engine.kernel.engine import Engine

# JSON Schema draft 2020-12 keywords a fragment may use; any other key of a schema object is a stray key (a typo such
# as ``oneof`` or ``defs`` would otherwise merge silently into the composed schema and mean nothing).
KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$defs", "$comment", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
    "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "format", "maxItems", "minItems", "uniqueItems", "maxContains",
    "minContains", "maxProperties", "minProperties", "required", "dependentRequired",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items", "contains",
    "properties", "patternProperties", "additionalProperties", "propertyNames", "unevaluatedItems",
    "unevaluatedProperties", "contentEncoding", "contentMediaType", "contentSchema",
})
_NAMED = frozenset({"$defs", "properties", "patternProperties", "dependentSchemas"})  # name -> schema
_ONE = frozenset({"not", "if", "then", "else", "items", "contains", "additionalProperties", "propertyNames",
                  "unevaluatedItems", "unevaluatedProperties", "contentSchema"})  # -> schema
_MANY = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})  # -> list of schemas


def stray_keys(node: Any, pointer: str = "") -> list[str]:
    """The JSON pointers of the keys of schema ``node`` (a fragment) that are neither a JSON Schema keyword nor an
    ``x-`` annotation, in order."""
    if not isinstance(node, dict):
        return []
    found = []
    for key, value in node.items():
        where = f"{pointer}/{key}"
        if key not in KEYWORDS and not key.startswith("x-"):  # x-...: the project's annotations (x-refers-to, ...)
            found.append(where)
        elif key in _NAMED and isinstance(value, dict):
            for name, schema in value.items():
                found += stray_keys(schema, f"{where}/{name}")
        elif key in _ONE:
            found += stray_keys(value, where)
        elif key in _MANY and isinstance(value, list):
            for n, schema in enumerate(value):
                found += stray_keys(schema, f"{where}/{n}")
    return found


def engine_problems(engine: Any, name: str, editions: tuple[str, ...]) -> list[str]:
    """What the reference engine class lacks: an Engine subclass with the class attributes ``ruleset`` (the unit's
    name) and ``editions`` (the judge's), built with ``cls()`` and ``cls(max_trace_entries=n)``."""
    what = getattr(engine, "__qualname__", repr(engine))
    if not (isinstance(engine, type) and issubclass(engine, Engine)):
        return [f"its reference engine {what} is not a class deriving from reference_engine.kernel.engine.Engine "
                f"(reference_engine.common.reference.ReferenceEngine gives the rest)"]
    problems = []
    if not getattr(engine, "ruleset", None):
        problems.append(f"its reference engine {what} sets no class attribute `ruleset`: set ruleset = {name!r}")
    elif engine.ruleset != name:
        problems.append(f"its reference engine {what} plays {engine.ruleset!r}: set ruleset = {name!r}")
    if not tuple(getattr(engine, "editions", ()) or ()):
        problems.append(f"its reference engine {what} sets no class attribute `editions`: set editions = "
                        f"{tuple(editions)!r} (its judge's)")
    try:
        inspect.signature(engine).bind(max_trace_entries=20_000)
    except (TypeError, ValueError):
        problems.append(f"its reference engine {what} cannot be built as {what}(max_trace_entries=n): accept that "
                        f"keyword (the loop guard; ReferenceEngine does)")
    return problems


def generator_problems(generator: Any) -> list[str]:
    """A generator is ``build(source, edition, profile=None) -> scenario`` and never sees the options (the run draws
    and sets them): one that asks for ``options``, or cannot be called so, is refused."""
    try:
        signature = inspect.signature(generator)
    except (TypeError, ValueError):
        return []
    if "options" in signature.parameters:
        return [f"its generator {getattr(generator, '__qualname__', generator)} takes `options`: a generator never "
                f"reads the options (the run draws them and sets the scenario's `options` after it builds); "
                f"build(source, edition, profile=None) only"]
    try:
        signature.bind(None, "edition", profile=None)
    except TypeError:
        return [f"its generator {getattr(generator, '__qualname__', generator)} cannot be called as "
                f"build(source, edition, profile=None){signature}: give it that signature"]
    return []


def option_problems(ruleset: Any) -> list[str]:
    """Each option whose default is not one of its values (compared with its type: 1 is not True)."""
    return [f"its option {o.name!r} defaults to {json.dumps(o.default)}, not one of its values "
            f"({', '.join(json.dumps(v) for v in o.values)}): make the default one of them"
            for o in getattr(ruleset, "options", ())
            if not any(o.default == v and type(o.default) is type(v) for v in o.values)]


def scope_problems(rule_scope: str | None, invariants) -> list[str]:
    """A rule scope must match (whole) at least one rule number its keys encode, else it scopes out every key."""
    if rule_scope is None:
        return []
    try:
        pattern = re.compile(rule_scope)
    except re.error as error:
        return [f"its rule scope {rule_scope!r} is not a regular expression: {error}"]
    numbers = sorted({number for inv in invariants for number in inv.rule_numbers.values()})
    if numbers and not any(pattern.fullmatch(number) for number in numbers):
        return [f"its rule scope {rule_scope!r} matches none of the rule numbers its keys encode "
                f"({', '.join(numbers[:5])}{', ...' if len(numbers) > 5 else ''}): it must match whole rule numbers "
                f"of its text, those its keys must encode"]
    return []


def fixture_problems(folder: Path, relative: str, keys: set[str]) -> list[str]:
    """Each fixture file of ``folder`` that cannot be read, and each rule key no fixture names (``lint-rules`` wants a
    golden scenario per key)."""
    problems, named = [], set()
    for path in sorted(folder.glob("*.json")):
        try:
            named |= set(json.loads(path.read_text("utf-8")).get("rule_keys", ()))
        except (OSError, ValueError, AttributeError, TypeError) as error:
            problems.append(f"its fixture {relative}/{path.name} cannot be read ({error})")
    for key in sorted(keys - named):
        problems.append(f"its rule key {key!r} has no fixture: add a golden scenario naming it in `rule_keys` to its "
                        f"fixtures folder {relative!r} ({folder})")
    return problems


def missing_resource(part: str, relative: str, path: Path) -> str:
    """The problem of a declared file or folder that is not there, with the path looked at."""
    return (f"its {part} {relative!r} does not exist (looked at {path}): ship it as package data of the unit's "
            f"distribution (e.g. [tool.setuptools.package-data]), or set the manifest's field to None")


def _source_file(spec: str) -> str:
    """The file of the module a ``module:attribute`` spec names (the spec itself when it has none)."""
    try:
        return inspect.getsourcefile(importlib.import_module(spec.partition(":")[0])) or spec
    except (ImportError, TypeError):
        return spec


def choice_kind_problems(kinds: dict[str, Any], spec: str, before: dict[str, dict[str, Any]],
                         fragments: dict[str, dict[str, Any]]) -> list[str]:
    """A unit's ``choice_kinds`` (declared at ``spec``, ``module:attribute``): each must be a ChoiceKind under its own
    name, none the kernel's (``order``, ``optional``) or one that a unit listed ``before`` it (unit name -> its kinds)
    declares otherwise (another description included: a question means one thing), and each must be a word of its
    fragments (``fragments``: ``scenario`` and ``trace`` -> the unit's fragment): its ``choices`` key and its
    ``decision``."""
    where, problems = f"{spec} ({_source_file(spec)})", []
    choices = fragments.get("scenario", {}).get("$defs", {}).get("choices", {}).get("properties", {})
    decisions = fragments.get("trace", {}).get("$defs", {}).get("choice", {}).get("properties", {}) \
        .get("decision", {}).get("enum", ())
    for name, kind in kinds.items():
        if not isinstance(kind, ChoiceKind) or kind.name != name:
            problems.append(f"its choice kinds {where} hold {name!r} -> {kind!r}, not a ChoiceKind of that name: "
                            f"build them with reference_engine.kernel.choices.kind_table(ChoiceKind(...), ...)")
            continue
        if name in KERNEL_CHOICES:
            problems.append(f"its choice kind {name!r} in {where} redefines the kernel's (Chooser.{name}): the "
                            f"kernel's questions mean one thing in every game; name a choice kind of its own")
            continue
        for other, theirs in before.items():
            if name in theirs and theirs[name] != kind:
                problems.append(f"its choice kind {name!r} in {where} redefines the {other!r} unit's, declared "
                                f"otherwise (as {theirs[name]!r}): a question means one thing in every game; name a "
                                f"choice kind of its own, or declare it exactly as {other!r} does")
        if kind.key not in choices:
            problems.append(f"its choice kind {name!r} in {where} reads choices.{kind.key}, which its scenario "
                            f"schema fragment does not define: add it under /$defs/choices/properties")
        if name not in decisions:
            problems.append(f"its choice kind {name!r} in {where} is no `decision` of its trace schema fragment: add "
                            f"it to /$defs/choice/properties/decision/enum")
    return problems


def _declared_kinds(schema: dict[str, Any]) -> dict[str, tuple[str, Any]]:
    """Entry kind -> (its definition's name, that definition's own ``description``) for every definition of a trace
    schema or fragment's ``$defs`` whose ``kind`` property is a const or an enum (a fragment that only adds fields to
    another's definition declares none)."""
    found: dict[str, tuple[str, Any]] = {}
    for name, definition in (schema.get("$defs") or {}).items():
        kind = ((definition or {}).get("properties") or {}).get("kind") or {}
        values = [kind["const"]] if "const" in kind else list(kind.get("enum", ())) if isinstance(kind, dict) else []
        for value in values:
            found.setdefault(value, (name, definition.get("description")))
    return found


def entry_kind_problems(fragment: dict[str, Any], where: str, kernel: dict[str, Any],
                        before: dict[str, dict[str, Any]]) -> list[str]:
    """A unit's trace schema ``fragment`` (the file ``where``) must not redefine an entry kind of the kernel's trace
    schema ``kernel`` or of a unit listed ``before`` it (unit name -> its trace fragment): neither define that kind
    again under another definition, nor give the definition a description of its own (a kernel kind means one thing
    in every game; a kind two units share, each defining it whole, is described alike by both). Adding fields, enum
    values or field descriptions to a definition is extending it, not redefining it."""
    owners = {kind: ("the kernel", name, text) for kind, (name, text) in _declared_kinds(kernel).items()}
    for unit, theirs in before.items():
        for kind, (name, text) in _declared_kinds(theirs).items():
            owners.setdefault(kind, (f"the {unit!r} unit", name, text))
    defs, problems = fragment.get("$defs") or {}, []
    for kind, (name, text) in _declared_kinds(fragment).items():
        owner = owners.get(kind)
        if owner is not None and owner[1] != name:
            problems.append(f"its trace schema fragment {where} defines entry kind {kind!r} at /$defs/{name}, which "
                            f"{owner[0]} defines at /$defs/{owner[1]}: an entry kind means one thing in every game; "
                            f"name an entry kind of its own, or add fields to /$defs/{owner[1]}")
    described = {name: (owner, text) for owner, name, text in owners.values()}
    for name, definition in defs.items():
        if name not in described or not isinstance(definition, dict) or "description" not in definition:
            continue
        owner, text = described[name]
        if owner == "the kernel" or definition["description"] != text:
            problems.append(f"its trace schema fragment {where} redefines {owner}'s entry kind /$defs/{name} by "
                            f"description (/$defs/{name}/description): an entry kind means one thing in every game; "
                            f"add an entry kind of its own (a /$defs definition and a $ref in /$defs/entry/oneOf) for "
                            f"what differs, describe the fields it adds (their own descriptions), or say it on the "
                            f"ruleset's docs page")
    return problems
