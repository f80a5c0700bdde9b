"""Cheap snapshots of a game state whose big per-object dicts change a few keys at a time.

An engine that must judge an event on the game "just before" it (looking back in time) would copy its whole state
before every event: O(objects) per event, so a scenario with n objects and n events costs O(n^2). Instead, the big
dicts of the state are JournaledDicts: while a :class:`Snapshot` is open, each of them remembers the
value a key had when the snapshot was taken, the first time that key is written. Reading the snapshot then costs
O(1) per key; taking and closing one costs O(keys written meanwhile).

A snapshot is only valid while it is open (the engine opens one around the handling of one event); reading one after
it was closed raises RuntimeError rather than answering from a state that has moved on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterator

class JournaledDict(dict):
    """A dict that counts its writes (``writes``) and records, for every open :class:`_Before`, what it looked like
    when that snapshot was taken. Behaves as a dict in every other way; copies of it (``dict(d)``) are plain dicts."""

    __slots__ = ("writes", "_open")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.writes = 0
        self._open: list[_Before] = []

    def _note(self, key: Any, structural: bool) -> None:
        """About to write ``key`` (``structural``: to add or remove it, which changes the iteration order)."""
        self.writes += 1
        for view in self._open:
            view.note(self, key, structural)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._note(key, key not in self)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        if key in self:
            self._note(key, True)
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self:
            self._note(key, True)
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        if self:
            self._note(next(reversed(self)), True)
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self._note(key, True)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other: Any) -> "JournaledDict":
        self.update(other)
        return self

    def clear(self) -> None:
        if self:
            self._note(next(iter(self)), True)
            self.writes += len(self)
        dict.clear(self)

    def __reduce__(self):  # copies and pickles are plain dicts: the journal belongs to the live state only
        return dict, (dict(self),)


class _Before(Mapping):
    """A read-only view of a :class:`JournaledDict` as it was when the snapshot was opened."""

    __slots__ = ("_current", "_saved", "_full", "_open")

    def __init__(self, current: JournaledDict):
        self._current = current
        self._saved: dict[Any, Any] = {}  # key -> value at opening, for existing keys whose value changed since
        self._full: dict[Any, Any] | None = None  # the whole dict at opening, once a key was added or removed
        self._open = True

    def note(self, current: JournaledDict, key: Any, structural: bool) -> None:
        if self._full is not None:
            return
        if structural:
            # A key is about to be added or removed. Until now only values of existing keys changed, so the dict as
            # it was at opening is the current one with the saved values put back, in the same order.
            saved = self._saved
            self._full = {k: saved.get(k, v) for k, v in dict.items(current)}
        elif key not in self._saved:
            self._saved[key] = dict.__getitem__(current, key)

    def _check(self) -> None:
        if not self._open:
            raise RuntimeError("a snapshot of the game state was read after it was closed")

    def __getitem__(self, key: Any) -> Any:
        self._check()
        if self._full is not None:
            return self._full[key]
        if key in self._saved:
            return self._saved[key]
        return dict.__getitem__(self._current, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._check()
        if self._full is not None:
            return self._full.get(key, default)
        if key in self._saved:
            return self._saved[key]
        return dict.get(self._current, key, default)

    def __contains__(self, key: Any) -> bool:
        self._check()
        if self._full is not None:
            return key in self._full
        return dict.__contains__(self._current, key)  # keys added or removed since opening would have set _full

    def __iter__(self) -> Iterator[Any]:
        self._check()
        if self._full is not None:
            return iter(list(self._full))
        # no key was added or removed since opening: the same keys, in the same order
        return iter(list(dict.keys(self._current)))

    def __len__(self) -> int:
        self._check()
        return len(self._full) if self._full is not None else dict.__len__(self._current)

    def copy(self) -> dict[Any, Any]:
        return dict(self.items())


def copy_without(state: Any, fields: tuple[str, ...]) -> Any:
    """``state.copy()`` taken with the attributes ``fields`` (dicts) emptied for the time of the copy, so that copying
    them costs nothing; in the copy they are empty dicts. The other attributes are copied by the state's own copy."""
    kept = {name: getattr(state, name) for name in fields}
    try:
        for name in fields:
            setattr(state, name, {})
        return state.copy()
    finally:
        for name, value in kept.items():
            setattr(state, name, value)


class Snapshot:
    """The state ``state`` (an object with a ``copy()`` method whose attributes ``fields`` are dicts) as it is now,
    for as long as the snapshot is open: ``with Snapshot(state, fields) as before: ...``.

    ``before`` is :func:`copy_without` the ``fields`` that are JournaledDicts, with read-only views of
    those dicts as they were at opening in their place. A field that is not a JournaledDict is copied as usual.
    """

    def __init__(self, state: Any, fields: tuple[str, ...]):
        self.state = state
        self.fields = tuple(name for name in fields if isinstance(getattr(state, name), JournaledDict))
        self.views: list[_Before] = []

    def __enter__(self) -> Any:
        before = copy_without(self.state, self.fields)
        for name in self.fields:
            current = getattr(self.state, name)
            view = _Before(current)
            current._open.append(view)
            self.views.append(view)
            setattr(before, name, view)
        return before

    def __exit__(self, *exc: Any) -> None:
        for view in self.views:
            view._open = False
            views = view._current._open
            views[:] = [v for v in views if v is not view]  # by identity (== would compare contents)
        self.views = []
