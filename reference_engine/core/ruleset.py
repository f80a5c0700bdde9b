"""What a ruleset is, as the harness and the judge see it: editions, documented options and invariants."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from reference_engine.core.invariant import Invariant


class OptionError(ValueError):
    """An option name or value the ruleset does not know."""


@dataclass(frozen=True)
class Option:
    """A named assumption where the rule text is silent, ambiguous or missing.

    ``stands_for`` names the unavailable or ambiguous text (e.g. "Section 11.3"); ``values`` maps each allowed value
    to a one-line description; ``default`` is one of them.
    """

    name: str
    default: Any
    values: dict[Any, str]
    stands_for: str
    doc: str


@dataclass(frozen=True)
class Ruleset:
    """A rule system as the judge knows it: its name (``momon-wonder``), editions, options and invariants.

    The reference engine that plays it lives in :mod:`reference_engine.engines` and is never imported here."""

    name: str
    title: str
    editions: tuple[str, ...]
    options: tuple[Option, ...]
    invariants: tuple[Invariant, ...]

    @property
    def default_edition(self) -> str:
        return self.editions[0]

    def invariants_for(self, edition: str) -> tuple[Invariant, ...]:
        return tuple(inv for inv in self.invariants if inv.applies_to(edition))

    def invariant(self, key: str) -> Invariant:
        for inv in self.invariants:
            if inv.key == key:
                return inv
        raise KeyError(key)

    def resolve_options(self, overrides: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``overrides``. Raises OptionError naming an unknown option or an invalid value."""
        resolved = {option.name: option.default for option in self.options}
        for name, value in (overrides or {}).items():
            option = next((o for o in self.options if o.name == name), None)
            if option is None:
                known = ", ".join(o.name for o in self.options)
                raise OptionError(f"ruleset {self.name} has no option {name!r} (known: {known})")
            # Compare types too: 1 == True in Python, but "1" is not a value of a yes/no option.
            if not any(value == v and type(value) is type(v) for v in option.values):
                allowed = ", ".join(json.dumps(v) for v in option.values)
                raise OptionError(f"option {name} of ruleset {self.name} cannot be {json.dumps(value)} "
                                  f"(allowed: {allowed})")
            resolved[name] = value
        return resolved
