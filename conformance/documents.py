"""Loading and validating every JSON document that crosses a boundary.

Schemas ship inside the installed distribution (``conformance/schemas``) and are read with
:mod:`importlib.resources`, so the tool works from a plain ``pip install``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from conformance.errors import DocumentError

SUFFIX = ".schema.json"


def schema_names() -> list[str]:
    """Names of every schema shipped in ``schemas/`` (``scenario``, ``trace``, ...)."""
    folder = resources.files("conformance").joinpath("schemas")
    return sorted(p.name[: -len(SUFFIX)] for p in folder.iterdir() if p.name.endswith(SUFFIX))


@cache
def _registry() -> Registry:
    """Every shipped schema by its ``$id``, so that schemas can refer to each other."""
    schemas = [load_schema(name) for name in schema_names()]
    return Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Return the schema ``schemas/<name>.schema.json`` as a dict. Raises FileNotFoundError for an unknown name."""
    text = resources.files("conformance").joinpath("schemas", f"{name}{SUFFIX}").read_text("utf-8")
    return json.loads(text)


@cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(load_schema(name), registry=_registry())


def _retrieve(uri: str) -> dict[str, Any]:
    for name in schema_names():
        if load_schema(name)["$id"] == uri:
            return load_schema(name)
    raise KeyError(f"no shipped schema has $id {uri}")


@cache
def _fast_validator(name: str):
    # jsonschema-rs answers "valid?" about a hundred times faster; the jsonschema package then explains a failure
    # with JSON paths. Both implement draft 2020-12.
    return jsonschema_rs.validator_for(load_schema(name), retriever=_retrieve)


def json_path(parts) -> str:
    """Render a jsonschema ``absolute_path`` deque as ``$.a[0].b``."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _discriminator_failure(error) -> bool:
    """An error saying a branch's ``kind``/``do`` tag does not match: the branch was not meant for this value."""
    return error.validator in ("const", "enum") and error.path and error.path[-1] in ("kind", "do")


def _best_messages(error) -> list[tuple[str, str]]:
    """Explain an error; for a failed ``oneOf`` over tagged objects, explain the branch whose tag matched."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[int, list] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        meant = [errs for errs in branches.values() if not any(_discriminator_failure(e) for e in errs)]
        if len(meant) == 1:
            return [item for sub in meant[0] for item in _best_messages(sub)]
        tags = sorted({str(e.validator_value) for e in error.context if _discriminator_failure(e)})
        if tags and not meant:
            field = next(e.path[-1] for e in error.context if _discriminator_failure(e))
            value = error.instance.get(field) if isinstance(error.instance, dict) else None
            return [(json_path(list(error.absolute_path) + [field]), f"{value!r} is not a known {field} (expected one of: "
                     + ", ".join(tags).replace("[", "").replace("]", "").replace("'", "") + ")")]
    return [(json_path(error.absolute_path), error.message)]


def problems(document: Any, schema_name: str, limit: int = 5) -> list[tuple[str, str]]:
    """All schema violations of ``document`` as ``(json_path, message)`` pairs, at most ``limit``, shallowest first."""
    if _fast_validator(schema_name).is_valid(document):
        return []
    errors = sorted(_validator(schema_name).iter_errors(document), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    found: list[tuple[str, str]] = []
    for error in errors:
        for item in _best_messages(error):
            if item not in found:
                found.append(item)
    return found[:limit]


def validate(document: Any, schema_name: str, where: str) -> Any:
    """Return ``document`` unchanged if it matches ``schemas/<schema_name>.schema.json``.

    Raises :class:`DocumentError` naming ``where`` and each failing JSON path otherwise.
    """
    found = problems(document, schema_name)
    if found:
        raise DocumentError(where, found)
    return document


def read_json(path: str | Path, schema_name: str) -> Any:
    """Read and validate a JSON file. Raises DocumentError for unreadable files, bad JSON or schema violations."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise DocumentError(str(path), [("$", f"cannot read the file: {exc.strerror or exc}")]) from None
    except UnicodeDecodeError:
        raise DocumentError(str(path), [("$", "not a text file (it is not UTF-8)")]) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DocumentError(str(path), [("$", f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")]) from None
    except RecursionError:
        raise DocumentError(str(path), [("$", "JSON nested too deeply to be a document of this tool")]) from None
    try:
        return validate(document, schema_name, str(path))
    except RecursionError:
        raise DocumentError(str(path), [("$", "JSON nested too deeply to be a document of this tool")]) from None


def dump_json(document: Any) -> str:
    """Stable, readable JSON (two-space indent, keys in insertion order, trailing newline)."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
