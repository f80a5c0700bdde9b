"""Which fields of a trace entry name something, read from the ruleset's composed trace schema (issue 34).

A property of an entry definition (or of a definition it ``$ref``s, such as ``cause``) carries these annotations:

* ``x-refers-to``: what its value names. Inside the trace: ``event``, ``trigger``, or any sort of id that some
  entry's ``x-defines`` property gives (a ruleset's entry kinds add sorts of their own). In the scenario: ``object``,
  ``player``, ``object or player``, ``ability`` (printed on the object in the field named by ``x-ability-of``, or
  created by an effect of the scenario), ``step`` (an index into the script) and ``action`` (a ``[step, action]``
  pair of the script).
* ``x-defines``: the entry introduces an id of that sort (an event's ``id``, a trigger's ``id``...).
* ``x-or``: literal values accepted besides the ids (a queue named ``main`` besides the ids of the queues entries
  define).
* ``x-earlier``: the entry that defines the id named must come earlier in the trace (a resolve_begin after its
  trigger).
* ``x-null-means``: what a null value of this field means, in words (a trigger with no event: how it arose).
* ``x-unresolved``: the entry ends the trigger instance this field names without resolving it (its resolve_begin never
  comes): :attr:`reference_engine.kernel.traceview.TraceView.unresolved` indexes such entries, whatever their kind.

So a ruleset that adds an entry kind declares its references and its role in its schema fragment, and
:meth:`reference_engine.kernel.traceview.TraceView.structure_problems` checks every one of them; no list of fields or
entry kinds is kept by hand.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

from reference_engine.kernel.schemas import composed_schema

IN_TRACE = frozenset({"event", "trigger"})  # the kernel's sorts; a composed schema adds those its x-defines give
IN_SCENARIO = frozenset({"object", "player", "object or player", "ability", "step", "action"})


@dataclass(frozen=True)
class Reference:
    """A field (``path`` into the entry, e.g. ``("cause", "resolution")``) whose value names a ``what``."""

    path: tuple[str, ...]
    what: str
    ability_of: str | None = None
    also: frozenset[str] = frozenset()
    earlier: bool = False
    unresolved: bool = False

    @property
    def field(self) -> str:
        return ".".join(self.path)

    def value(self, entry: dict[str, Any]) -> Any:
        """The field's value in ``entry`` (None when it is absent)."""
        if len(self.path) == 1:  # most fields: the judge's hot path, one lookup
            return entry.get(self.path[0])
        value: Any = entry
        for key in self.path:
            if not isinstance(value, dict):
                return None
            value = value.get(key)
        return value


@dataclass(frozen=True, eq=False)
class EntryReferences:
    """For each entry kind: the fields that name something, and the fields that define an id (field, what);
    ``sorts``: the sorts of id the trace defines (the kernel's and every ``x-defines`` of the schema)."""

    refers: dict[str, tuple[Reference, ...]]
    defines: dict[str, tuple[tuple[str, str], ...]]
    sorts: frozenset[str] = IN_TRACE
    null_means: dict[tuple[str, str], str] = dataclasses.field(default_factory=dict)  # (kind, field) -> x-null-means

    @functools.cached_property
    def in_trace(self) -> dict[str, tuple[Reference, ...]]:
        """Per entry kind, the fields naming an id of the trace (:attr:`sorts`); kinds with none left out."""
        return self._naming(self.sorts)

    @functools.cached_property
    def in_scenario(self) -> dict[str, tuple[Reference, ...]]:
        """Per entry kind, the fields naming something of the scenario (:data:`IN_SCENARIO`); kinds with none left
        out."""
        return self._naming(IN_SCENARIO)

    @functools.cached_property
    def earlier(self) -> dict[str, tuple[Reference, ...]]:
        """Per entry kind, the fields (``x-earlier``) whose id must be defined earlier in the trace; kinds with none
        left out."""
        return {kind: found for kind, refs in self.refers.items() if (found := tuple(r for r in refs if r.earlier))}

    @functools.cached_property
    def unresolved(self) -> dict[str, str]:
        """Entry kind -> its field (``x-unresolved``) naming the trigger instance it ends without resolving."""
        return {kind: ref.path[0] for kind, refs in self.refers.items() for ref in refs if ref.unresolved}

    def _naming(self, sorts: frozenset[str]) -> dict[str, tuple[Reference, ...]]:
        chosen = {kind: tuple(ref for ref in refs if ref.what in sorts) for kind, refs in self.refers.items()}
        return {kind: refs for kind, refs in chosen.items() if refs}


def _definition(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in spec:
        return schema["$defs"][spec["$ref"].rsplit("/", 1)[-1]]
    return spec


def _references(schema: dict[str, Any], properties: dict[str, Any], prefix: tuple[str, ...],
                sorts: frozenset[str]) -> list[Reference]:
    found = []
    for name, spec in properties.items():
        path = prefix + (name,)
        if "x-refers-to" in spec:
            what = spec["x-refers-to"]
            if what not in sorts | IN_SCENARIO:
                raise ValueError(f"trace schema: {'.'.join(path)} refers to {what!r}, which is no known sort of id "
                                 f"(no entry's x-defines gives it)")
            found.append(Reference(path, what, spec.get("x-ability-of"), frozenset(spec.get("x-or", ())),
                                   bool(spec.get("x-earlier")), bool(spec.get("x-unresolved"))))
        elif not prefix:  # one level down: a definition such as ``cause`` whose own properties name things
            found += _references(schema, _definition(schema, spec).get("properties", {}), path, sorts)
    return found


def entry_kinds(schema: dict[str, Any]) -> dict[str, str]:
    """Entry kind -> the name of its definition (``$defs/<name>``), for every alternative of a trace schema's
    ``$defs/entry/oneOf`` (a definition whose ``kind`` is an enum gives several kinds)."""
    found: dict[str, str] = {}
    for branch in schema["$defs"]["entry"]["oneOf"]:
        name = branch["$ref"].rsplit("/", 1)[-1] if "$ref" in branch else ""
        kind = _definition(schema, branch).get("properties", {}).get("kind", {})
        for k in (kind["const"],) if "const" in kind else tuple(kind.get("enum", ())):
            found.setdefault(k, name)
    return found


@functools.lru_cache(maxsize=None)
def entry_references(ruleset: str | None) -> EntryReferences:
    """The references of every entry kind of ``ruleset``'s composed trace schema (None: every installed unit's).
    Raises KeyError for an unknown ruleset, ValueError for a field naming a sort no entry defines."""
    schema = composed_schema("trace", None if ruleset is None else (ruleset,))
    refers: dict[str, tuple[Reference, ...]] = {}
    defines: dict[str, tuple[tuple[str, str], ...]] = {}
    null_means: dict[tuple[str, str], str] = {}
    branches = [_definition(schema, branch) for branch in schema["$defs"]["entry"]["oneOf"]]
    sorts = IN_TRACE | {spec["x-defines"] for definition in branches
                        for spec in definition["properties"].values() if "x-defines" in spec}
    for definition in branches:
        kind = definition["properties"]["kind"]
        kinds = (kind["const"],) if "const" in kind else tuple(kind["enum"])
        properties = {k: v for k, v in definition["properties"].items() if k != "kind"}
        found = tuple(_references(schema, properties, (), sorts))
        made = tuple((name, spec["x-defines"]) for name, spec in properties.items() if "x-defines" in spec)
        for k in kinds:
            refers[k], defines[k] = found, made
            null_means.update({(k, name): spec["x-null-means"] for name, spec in properties.items()
                               if "x-null-means" in spec})
    return EntryReferences(refers, defines, frozenset(sorts), null_means)
