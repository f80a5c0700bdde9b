"""Loading and validating every JSON document that crosses a boundary.

Schemas ship inside the installed distribution (``conformance/schemas``) and are read with
:mod:`importlib.resources`, so the tool works from a plain ``pip install``. The scenario and trace schemas are the
exception: a document is validated with the composition of the kernel's part and every installed ruleset unit's
fragment (:func:`reference_engine.kernel.schemas.composed_schema`), composed once per process; the files
``schemas/scenario.schema.json`` and ``schemas/trace.schema.json`` publish that composition for the bundled units.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import stat
import tempfile
import threading
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from reference_engine.kernel.errors import DocumentError, a_or_an
from reference_engine.kernel.schemas import KINDS as COMPOSED, composed_schema

SUFFIX = ".schema.json"

# Bounds on every document read from a file (and on every line a process engine writes), checked before any recursive
# work (schema validation, deepcopy, the consistency checks), so that no input can exhaust the stack or the memory.
MAX_DOCUMENT_BYTES = 32 * 1024 * 1024  # a replay file or report with long traces is a few MiB
MAX_DEPTH = 48  # nesting of arrays and objects; the deepest shipped document has 11 levels
MAX_INTEGER_DIGITS = 20  # every integer of the formats fits in 64 bits (at most 20 digits)


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
    """Return the schema ``schemas/<name>.schema.json`` as a dict; for ``scenario`` and ``trace``, the one composed of
    the installed ruleset units (the same as the file when only the bundled ones are installed). Raises
    FileNotFoundError for an unknown name, UnitError for a unit whose schema fragment conflicts."""
    if name in COMPOSED:
        return composed_schema(name)
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
    """Render a jsonschema ``absolute_path`` deque as ``$.a[0].b`` (an odd key as ``$["a b"]``)."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.isidentifier():
            out += f".{part}"
        else:
            out += "[" + json.dumps(_printable(str(part)))[:80] + "]"
    return out


def _printable(text: str) -> str:
    """``text`` with lone surrogates replaced, so that it can always be printed and written as UTF-8."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


class _Duplicated(dict):
    """An object of a parsed document in which ``key`` appeared more than once (reported with its path)."""

    key: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document = dict(pairs)
    if len(document) != len(pairs):
        seen: set[str] = set()
        duplicated = _Duplicated(document)
        duplicated.key = next(k for k, _ in pairs if k in seen or seen.add(k))
        return duplicated
    return document


class _TooLong(int):
    """An integer literal with more than MAX_INTEGER_DIGITS digits, kept as its length only."""

    digits: int = 0


def _integer(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
        marker = _TooLong(0)
        marker.digits = len(literal.lstrip("-"))
        return marker
    return int(literal)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (JSON has no NaN or infinite numbers)")


def bound_problems(document: Any, limit: int = 5) -> list[tuple[str, str]]:
    """What makes ``document`` unsafe to process, as ``(json_path, message)`` pairs (at most ``limit``).

    Walks the document without recursion and checks: nesting depth (``MAX_DEPTH``), integers of more than
    ``MAX_INTEGER_DIGITS`` digits, non-finite numbers, strings and keys holding a lone surrogate (not text: they
    cannot be written as UTF-8), duplicate keys (found by :func:`loads`), and values that are not JSON data.
    """
    found: list[tuple[str, str]] = []
    stack: list[tuple[Any, tuple, int]] = [(document, (), 1)]
    while stack and len(found) < limit:
        value, path, depth = stack.pop()
        if isinstance(value, (dict, list)) and depth > MAX_DEPTH:
            found.append((json_path(path), f"nested more than {MAX_DEPTH} levels deep: too deep to be a document "
                                           f"of this tool"))
            continue
        if isinstance(value, _Duplicated):
            found.append((json_path(path + (value.key,)), f"the key {json.dumps(_printable(value.key))} appears "
                                                          f"more than once in this object"))
        if isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                if not isinstance(key, str):
                    found.append((json_path(path), f"a key that is not a string: {type(key).__name__}"))
                elif _lone_surrogate(key):
                    found.append((json_path(path + (key,)), "the key holds a lone surrogate (an escape such as "
                                                            "\\ud800 that is not text); it cannot be written as UTF-8"))
                stack.append((item, path + (key,), depth + 1))
        elif isinstance(value, list):
            for index in range(len(value) - 1, -1, -1):
                stack.append((value[index], path + (index,), depth + 1))
        elif isinstance(value, str):
            if _lone_surrogate(value):
                found.append((json_path(path), "the string holds a lone surrogate (an escape such as \\ud800 that "
                                               "is not text); it cannot be written as UTF-8"))
        elif isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, _TooLong):
            found.append((json_path(path), f"an integer of {value.digits} digits; integers here have at most "
                                           f"{MAX_INTEGER_DIGITS} digits"))
        elif isinstance(value, int):
            if abs(value) >= 10 ** MAX_INTEGER_DIGITS:  # compared without converting it to text
                found.append((json_path(path), f"an integer of about {int(value.bit_length() * 0.30103)} digits; "
                                               f"integers here have at most {MAX_INTEGER_DIGITS} digits"))
        elif isinstance(value, float):
            if not math.isfinite(value):
                found.append((json_path(path), f"the number {value} is not finite"))
        else:
            found.append((json_path(path), f"{a_or_an(type(value).__name__)} is not JSON data"))
    return found


def loads(text: str | bytes, where: str) -> Any:
    """Parse a JSON document within the bounds of :func:`bound_problems`; duplicate keys are an error.

    Raises :class:`DocumentError` naming ``where`` and the JSON path at fault (``$`` for text that is not JSON).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DocumentError(where, [("$", f"not a text file (it is not UTF-8: byte {exc.start})")]) from None
    if text.startswith("\ufeff"):
        raise DocumentError(where, [("$", "the text starts with a byte-order mark; JSON text has none")])
    try:
        document = json.loads(text, object_pairs_hook=_pairs, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        what = exc.msg.removesuffix(" at")  # "Unterminated string starting at": the position follows
        raise DocumentError(where, [("$", f"not JSON: {what} at line {exc.lineno}, column {exc.colno}")]) from None
    except RecursionError:
        raise DocumentError(where, [("$", f"nested more than {MAX_DEPTH} levels deep: too deep to be a document of "
                                          f"this tool")]) from None
    except ValueError as exc:
        raise DocumentError(where, [("$", f"not JSON: {exc}")]) from None
    found = bound_problems(document)
    if found:
        raise DocumentError(where, found)
    return document


def read_bytes(path: str | Path, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The content of a regular file of at most ``limit`` bytes. Raises DocumentError for anything else.

    The file is opened without blocking, so that a FIFO (or a device) is refused at once instead of waiting for a
    writer (or reading forever, as from /dev/zero).
    """
    where = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise DocumentError(where, [("$", f"cannot read the file: {exc.strerror or exc}")]) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = ("a folder" if stat.S_ISDIR(info.st_mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode)
                    else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                    else "a socket" if stat.S_ISSOCK(info.st_mode) else "not a regular file")
            raise DocumentError(where, [("$", f"cannot read the file: it is {kind}; give a regular file")])
        if info.st_size > limit:
            raise DocumentError(where, [("$", f"the file has {info.st_size} bytes, more than the {limit} any "
                                              f"document of this tool needs")])
        os.set_blocking(fd, True)
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise DocumentError(where, [("$", f"the file has more than the {limit} bytes any document of this "
                                                  f"tool needs")])
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise DocumentError(where, [("$", f"cannot read the file: {exc.strerror or exc}")]) from None
    finally:
        os.close(fd)


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
    """All schema violations of ``document`` as ``(json_path, message)`` pairs, at most ``limit``, shallowest first.

    A document that is not JSON data, or beyond the bounds of :func:`bound_problems` (too deep, a huge integer, a
    lone surrogate), gets those problems instead; this never raises for any value.
    """
    try:
        if _fast_validator(schema_name).is_valid(document):
            return []
    except (ValueError, TypeError, OverflowError, RecursionError):
        found = bound_problems(document, limit)
        return found or [("$", "not JSON data this tool can validate")]
    found = bound_problems(document, limit)
    if found:
        return found
    other = _other_kind(document, schema_name)
    if other:
        return [("$.format", other)]  # the rest would be noise: every field of the other kind is "unexpected"
    try:
        errors = sorted(_validator(schema_name).iter_errors(document),
                        key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        return [("$", f"cannot be validated: {type(exc).__name__}")]
    found: list[tuple[str, str]] = []
    for error in errors:
        for item in _best_messages(error):
            if item not in found:
                found.append(item)
    return found[:limit]


@cache
def _formats() -> dict[str, str]:
    """Schema name -> the ``format`` its documents carry (the kinds that have one)."""
    found = {}
    for name in schema_names():
        const = load_schema(name).get("properties", {}).get("format", {}).get("const")
        if isinstance(const, str):
            found[name] = const
    return found


def _other_kind(document: Any, schema_name: str) -> str | None:
    """When ``document`` says (its ``format``) it is another kind of document than ``schema_name``, or a format
    this tool does not know, that in words; else None."""
    formats = _formats()
    given = document.get("format") if isinstance(document, dict) else None
    if not isinstance(given, str) or schema_name not in formats or given == formats[schema_name]:
        return None
    kind = next((name for name, fmt in formats.items() if fmt == given), None)
    if kind is not None:
        return f"this is a {kind} document ({given}), not a {schema_name} document ({formats[schema_name]})"
    return (f"{_printable(given[:80])!r} is no format this tool knows: a {schema_name} document has format "
            f"{formats[schema_name]}")


def validate(document: Any, schema_name: str, where: str) -> Any:
    """Return ``document`` unchanged if it matches ``schemas/<schema_name>.schema.json``.

    Raises :class:`DocumentError` naming ``where`` and each failing JSON path otherwise.
    """
    found = problems(document, schema_name)
    if found:
        raise DocumentError(where, found)
    return document


def read_json(path: str | Path, schema_name: str) -> Any:
    """Read and validate a JSON file. Raises DocumentError for anything but a regular file of at most
    ``MAX_DOCUMENT_BYTES`` bytes holding UTF-8 JSON within the bounds of :func:`bound_problems` (no duplicate keys)
    that matches ``schemas/<schema_name>.schema.json``; every error names the JSON path at fault."""
    document = loads(read_bytes(path), str(path))
    return validate(document, schema_name, str(path))


def _sanitized(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings and keys replaced by U+FFFD (iteratively, any depth)."""
    if isinstance(value, str):
        return _printable(value)
    if not isinstance(value, (dict, list)):
        return value
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        item, parent, slot = stack.pop()
        if isinstance(item, dict):
            copy: Any = {}
            for key, sub in item.items():
                stack.append((sub, copy, _printable(key) if isinstance(key, str) else key))
        elif isinstance(item, list):
            copy = [None] * len(item)
            for index, sub in enumerate(item):
                stack.append((sub, copy, index))
        else:
            copy = _printable(item) if isinstance(item, str) else item
        parent[slot] = copy
    return root[0]


def dump_json(document: Any) -> str:
    """Stable, readable JSON (two-space indent, keys in insertion order, trailing newline).

    The text can always be encoded as UTF-8: a lone surrogate (which an engine may put in its messages) is written
    as U+FFFD.
    """
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return json.dumps(_sanitized(document), indent=2, ensure_ascii=False) + "\n"


def write_atomically(path: str | Path, text: str | bytes) -> None:
    """Write a file all at once: a temporary file in the same folder, flushed, then renamed over ``path``.

    A reader (or an interrupted run) sees the old file or the whole new one, never a part; the temporary file is
    removed if anything goes wrong, even an interrupt (KeyboardInterrupt, SystemExit).
    """
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    with _signals_held():  # SIGINT and SIGTERM wait until the file is whole (a report is written at the very end)
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temporary, 0o666 & ~_UMASK)
            os.replace(temporary, path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise


@contextlib.contextmanager
def _signals_held():
    """Hold SIGINT and SIGTERM for the moment a file is written (main thread only: elsewhere signals cannot be
    handled anyway): a signal that comes meanwhile is handed to the handler it would have reached once the write is
    done, so the write finishes (issue 23 item 6: a signal during the final report's write left no report)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[signum] = signal.signal(signum, lambda number, frame: held.append(number))
        except (ValueError, OSError, TypeError):
            pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in held[:1]:  # the first one decides (a KeyboardInterrupt, usually)
            handler = previous.get(signum)
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)


def _read_umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


_UMASK = _read_umask()  # read once, at import: os.umask cannot be read without setting it


def write_json(path: str | Path, document: Any) -> None:
    """:func:`dump_json`, written with :func:`write_atomically`."""
    write_atomically(path, dump_json(document))

