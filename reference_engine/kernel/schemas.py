"""The scenario and trace schemas, composed from a ruleset-neutral kernel part and each ruleset unit's fragment.

The kernel part (``reference_engine/kernel/schema/<kind>.json``) is a whole JSON Schema (draft 2020-12) holding the
words every ruleset shares. A unit's fragment (``<unit folder>/schema/<kind>.json``, see
:mod:`reference_engine.kernel.unit`) is shaped like the kernel schema and holds only what the ruleset adds: an
action alternative (``$defs/action/oneOf``), an event type (``$defs/event_type/enum``), a trace entry (its
``$defs/<name>`` and a ``$ref`` in ``$defs/entry/oneOf``), a property of an object or of an ability. Composition
merges each fragment in, in the registry's listing order (the kernel part names no game: every game's own words,
entry kinds and choices are in its fragments):

* objects merge key by key; a key the kernel lacks is added;
* arrays (``enum``, ``oneOf``, ...) gain the fragment's items they do not hold yet, after their own;
* two ``description`` texts are joined (the kernel's first), an equal one said once;
* any other value must be equal to the one already there.

A fragment may not change a value, extend a ``required`` list (that would bind every other ruleset's documents; a
definition two units share, each whole, has the same one in both), or
define an alternative of a tagged ``oneOf`` (``do`` or ``kind``) that another unit defines differently. The result
is again a plain draft 2020-12 schema. It reads the units' manifests only: composing imports no part of a
unit (no judge, no engine), so the harness's document layer may use it.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable
from importlib import resources
from typing import Any

from reference_engine.kernel.unit import RulesetUnit, UnitError, resource, unit, units

KINDS = ("scenario", "trace")  # the schemas that units extend; the other schemas of schemas/ are the harness's own


def compose(kernel: dict[str, Any], fragments: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The kernel schema with every ``(unit name, fragment)`` merged in, in order (see the module docstring). The
    arguments are not changed. Raises UnitError naming the unit and the JSON pointer of a fragment that conflicts."""
    composed = copy.deepcopy(kernel)
    for unit, fragment in fragments:
        if not isinstance(fragment, dict):
            raise UnitError(f"ruleset unit {unit!r}: its schema fragment is not a JSON object")
        _merge(composed, fragment, unit, "")
    _check_tags(composed, "")
    return composed


def schema_fragment(manifest: RulesetUnit, kind: str) -> dict[str, Any]:
    """The ``kind`` (``scenario`` or ``trace``) schema fragment of a unit: ``{}`` when it adds no words to that
    schema. Raises UnitError for a fragment that cannot be read or is not a JSON object."""
    if manifest.schema is None:
        return {}
    path = resource(manifest, manifest.schema) / f"{kind}.json"
    if not path.exists():
        return {}
    try:
        fragment = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise UnitError(f"ruleset unit {manifest.name!r}: its schema fragment {manifest.schema}/{kind}.json "
                        f"cannot be read: {error}") from error
    if not isinstance(fragment, dict):
        raise UnitError(f"ruleset unit {manifest.name!r}: its schema fragment {manifest.schema}/{kind}.json is "
                        f"not a JSON object")
    return fragment


def kernel_schema(kind: str) -> dict[str, Any]:
    """The ruleset-neutral part of the ``kind`` schema (``reference_engine/kernel/schema/<kind>.json``)."""
    return json.loads(resources.files(__package__).joinpath("schema", f"{kind}.json").read_text("utf-8"))


@functools.lru_cache(maxsize=None)
def composed_schema(kind: str, names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The ``kind`` schema (``scenario`` or ``trace``) that documents are validated with: the kernel part composed
    with the fragment of each unit of ``names`` (None: every installed unit), in that order (None: listing order).
    Composed once per argument and cached: do not change the result. Raises KeyError for an unknown ruleset or
    kind, UnitError for a fragment that conflicts."""
    if kind not in KINDS:
        raise KeyError(f"no composed schema {kind!r} (known: {', '.join(KINDS)})")
    chosen = [unit(name) for name in names] if names is not None else list(units().values())
    return compose(kernel_schema(kind), ((m.name, schema_fragment(m, kind)) for m in chosen))


def bundled() -> tuple[str, ...]:
    """The rulesets this project ships (manifests in ``reference_engine/``), in listing order: the units that the
    published ``schemas/scenario.schema.json`` and ``schemas/trace.schema.json`` are composed of."""
    return tuple(name for name, m in units().items() if m.package.split(".")[0] == __package__.split(".")[0])


def _merge(into: dict[str, Any], fragment: dict[str, Any], unit: str, pointer: str) -> None:
    for key, value in fragment.items():
        where = f"{pointer}/{key}"
        if key not in into:
            into[key] = copy.deepcopy(value)
            continue
        present = into[key]
        if isinstance(present, dict) and isinstance(value, dict):
            _merge(present, value, unit, where)
        elif isinstance(present, list) and isinstance(value, list):
            if key == "required" and present != value:
                raise UnitError(f"ruleset unit {unit!r}: its schema fragment extends {where}, which would bind every "
                                f"ruleset's documents")
            if key == "oneOf":
                _check_new_tags(present, value, unit, where)
            present.extend(copy.deepcopy(item) for item in value if item not in present)
        elif key == "description" and isinstance(present, str) and isinstance(value, str):
            if value != present:  # two units defining one word alike say it once
                into[key] = f"{present} {value}"
        elif present != value or type(present) is not type(value):
            raise UnitError(f"ruleset unit {unit!r}: its schema fragment changes {where} "
                            f"({json.dumps(present)[:60]} -> {json.dumps(value)[:60]})")


def _tag(branch: Any) -> str | None:
    if isinstance(branch, dict):
        for field in ("do", "kind"):
            const = branch.get("properties", {}).get(field, {})
            if isinstance(const, dict) and isinstance(const.get("const"), str):
                return f"{field} {const['const']!r}"
    return None


def _check_new_tags(present: list, added: list, unit: str, pointer: str) -> None:
    """An alternative ``unit`` adds to a tagged ``oneOf`` whose tag (``do``/``kind``) an alternative already there
    has, with another definition: raises UnitError naming the unit, the tag and the pointer."""
    tags = {_tag(branch) for branch in present} - {None}
    for branch in added:
        if branch not in present and _tag(branch) in tags:
            raise UnitError(f"ruleset unit {unit!r}: its schema fragment defines {_tag(branch)} of {pointer} "
                            f"differently from the kernel or a unit listed before it")


def _check_tags(node: Any, pointer: str) -> None:
    """Two alternatives of a ``oneOf`` tagged with the same ``do``/``kind`` would make every document using it
    invalid: it means two units define one word differently."""
    if isinstance(node, dict):
        branches = node.get("oneOf")
        if isinstance(branches, list):
            seen: set[str] = set()
            for branch in branches:
                tag = _tag(branch)
                if tag is not None and tag in seen:
                    raise UnitError(f"two ruleset units define {tag} of {pointer}/oneOf differently")
                if tag is not None:
                    seen.add(tag)
        for key, value in node.items():
            _check_tags(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _check_tags(value, f"{pointer}/{index}")


def dumps(schema: Any, width: int = 118) -> str:
    """``schema`` as the project publishes it: two-space indent, an object or array written on one line when it
    fits in ``width`` columns, a trailing newline. Deterministic, so a published file can be compared as text."""
    return _dump(schema, 0, 0, width) + "\n"


def _dump(value: Any, indent: int, used: int, width: int) -> str:
    """``value`` starting at column ``indent + used`` (``used``: the key before it on its line)."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if isinstance(value, dict) and value:
        flat = "{ " + flat[1:-1] + " }"
    if not isinstance(value, (dict, list)) or not value or indent + used + len(flat) + 1 <= width:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            name = json.dumps(key, ensure_ascii=False) + ": "
            lines.append(pad + name + _dump(item, indent + 2, len(name), width))
        return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"
    lines = [pad + _dump(item, indent + 2, 0, width) for item in value]
    return "[\n" + ",\n".join(lines) + "\n" + " " * indent + "]"
