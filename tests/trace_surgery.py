"""Tools to break a trace on purpose: find entries, cut them out, move them elsewhere."""

from __future__ import annotations

from typing import Any, Callable

Entry = dict[str, Any]


def find(entries: list[Entry], **match: Any) -> int:
    """Index of the first entry whose fields equal ``match`` (``kind="enqueue", trigger="T2"``)."""
    for i, entry in enumerate(entries):
        if all(entry.get(k) == v for k, v in match.items()):
            return i
    raise LookupError(f"no entry matching {match}")


def resolution_block(entries: list[Entry], trigger: str) -> tuple[int, int]:
    """[start, stop) of a trigger's resolution: resolve_begin up to and including the sbc_check that follows."""
    start = find(entries, kind="resolve_begin", trigger=trigger)
    stop = find(entries, kind="resolve_end", trigger=trigger) + 1
    if stop < len(entries) and entries[stop]["kind"] == "sbc_check":
        stop += 1
    return start, stop


def package_block(entries: list[Entry], package: str) -> tuple[int, int]:
    return find(entries, kind="package_open", package=package), find(entries, kind="package_close", package=package) + 1


def move(entries: list[Entry], span: tuple[int, int], before: int) -> list[Entry]:
    """Move entries[span] so that they stand just before the entry now at index ``before``."""
    start, stop = span
    block = entries[start:stop]
    rest = entries[:start] + entries[stop:]
    target = entries[before] if before < len(entries) else None
    at = rest.index(target) if target is not None else len(rest)
    return rest[:at] + block + rest[at:]


def drop(entries: list[Entry], keep: Callable[[Entry], bool]) -> list[Entry]:
    return [e for e in entries if keep(e)]


def mentions(entry: Entry, ident: str) -> bool:
    return ident in (entry.get("id"), entry.get("trigger"))
