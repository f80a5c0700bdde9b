"""Which fields of a trace entry name something, read from the ruleset's composed trace schema (issue 34).

A property of an entry definition (or of a definition it ``$ref``s, such as ``cause``) carries these annotations:

* ``x-refers-to``: what its value names. Inside the trace: ``event``, ``trigger``, ``check`` (an sbc_check or
  sba_check), ``package``, ``activation``, ``delayed`` (the ids that some entry's ``x-defines`` property gives).
  In the scenario: ``object``, ``player``, ``object or player``, ``ability`` (printed on the object in the field
  named by ``x-ability-of``, or created by an effect of the scenario), ``step`` (an index into the script) and
  ``action`` (a ``[step, action]`` pair of the script).
* ``x-defines``: the entry introduces an id of that sort (an event's ``id``, a package_create's ``package``...).
* ``x-or``: literal values accepted besides the ids (Momon Wonder's queue ``main``).

So a ruleset that adds an entry kind declares its references in its schema fragment, and
:meth:`reference_engine.kernel.traceview.TraceView.structure_problems` checks every one of them; no list of fields
is kept by hand.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from reference_engine.kernel.schemas import composed_schema

IN_TRACE = frozenset({"event", "trigger", "check", "package", "activation", "delayed"})
IN_SCENARIO = frozenset({"object", "player", "object or player", "ability", "step", "action"})


@dataclass(frozen=True)
class Reference:
    """A field (``path`` into the entry, e.g. ``("cause", "resolution")``) whose value names a ``what``."""

    path: tuple[str, ...]
    what: str
    ability_of: str | None = None
    also: frozenset[str] = frozenset()

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
    """For each entry kind: the fields that name something, and the fields that define an id (field, what)."""

    refers: dict[str, tuple[Reference, ...]]
    defines: dict[str, tuple[tuple[str, str], ...]]

    @functools.cached_property
    def in_trace(self) -> dict[str, tuple[Reference, ...]]:
        """Per entry kind, the fields naming an id of the trace (:data:`IN_TRACE`); kinds with none left out."""
        return self._naming(IN_TRACE)

    @functools.cached_property
    def in_scenario(self) -> dict[str, tuple[Reference, ...]]:
        """Per entry kind, the fields naming something of the scenario (:data:`IN_SCENARIO`); kinds with none left
        out."""
        return self._naming(IN_SCENARIO)

    def _naming(self, sorts: frozenset[str]) -> dict[str, tuple[Reference, ...]]:
        chosen = {kind: tuple(ref for ref in refs if ref.what in sorts) for kind, refs in self.refers.items()}
        return {kind: refs for kind, refs in chosen.items() if refs}


def _definition(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in spec:
        return schema["$defs"][spec["$ref"].rsplit("/", 1)[-1]]
    return spec


def _references(schema: dict[str, Any], properties: dict[str, Any], prefix: tuple[str, ...]) -> list[Reference]:
    found = []
    for name, spec in properties.items():
        path = prefix + (name,)
        if "x-refers-to" in spec:
            what = spec["x-refers-to"]
            if what not in IN_TRACE | IN_SCENARIO:
                raise ValueError(f"trace schema: {'.'.join(path)} refers to {what!r}, which is no known sort of id")
            found.append(Reference(path, what, spec.get("x-ability-of"), frozenset(spec.get("x-or", ()))))
        elif not prefix:  # one level down: a definition such as ``cause`` whose own properties name things
            found += _references(schema, _definition(schema, spec).get("properties", {}), path)
    return found


@functools.lru_cache(maxsize=None)
def entry_references(ruleset: str | None) -> EntryReferences:
    """The references of every entry kind of ``ruleset``'s composed trace schema (None: every installed unit's).
    Raises KeyError for an unknown ruleset."""
    schema = composed_schema("trace", None if ruleset is None else (ruleset,))
    refers: dict[str, tuple[Reference, ...]] = {}
    defines: dict[str, tuple[tuple[str, str], ...]] = {}
    for branch in schema["$defs"]["entry"]["oneOf"]:
        definition = _definition(schema, branch)
        kind = definition["properties"]["kind"]
        kinds = (kind["const"],) if "const" in kind else tuple(kind["enum"])
        properties = {k: v for k, v in definition["properties"].items() if k != "kind"}
        found = tuple(_references(schema, properties, ()))
        made = tuple((name, spec["x-defines"]) for name, spec in properties.items() if "x-defines" in spec)
        for k in kinds:
            refers[k], defines[k] = found, made
    return EntryReferences(refers, defines)
