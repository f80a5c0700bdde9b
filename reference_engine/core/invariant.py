"""Invariants: the rules as executable predicates over (scenario, trace).

An invariant is tied to a stable rule key (never renumbered, e.g. ``mw.queue-fifo``), the rule number it encodes
in each edition it applies to, and a one-line paraphrase. Its ``check`` returns violations in plain words that
name the witnesses; its ``exercised`` counts how many occasions the trace gave the rule to apply, so that a rule
that passes only because it never fired is visible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from reference_engine.core.traceview import TraceView


@dataclass(frozen=True)
class Violation:
    """One breach of a rule: the rule key, and a plain-words explanation naming the witnesses."""

    rule_key: str
    message: str


@dataclass(frozen=True)
class Invariant:
    """A rule as a predicate.

    ``rule_numbers`` maps each edition the invariant applies to onto the rule number it encodes in that edition
    (rule numbers move between editions; the key does not). ``check(view)`` returns a list of messages, empty when
    the trace obeys the rule; ``exercised(view)`` returns how many occasions the trace gave the rule.
    """

    key: str
    ruleset: str
    rule_numbers: dict[str, str]
    summary: str
    check: Callable[["TraceView"], list[str]]
    exercised: Callable[["TraceView"], int]

    def rule_number(self, edition: str) -> str:
        return self.rule_numbers[edition]

    def applies_to(self, edition: str) -> bool:
        return edition in self.rule_numbers

    def violations(self, view: "TraceView") -> list[Violation]:
        """Run the check and wrap each message with the rule key and rule number."""
        number = self.rule_numbers.get(view.edition, "?")
        return [Violation(self.key, f"[{number}] {message}") for message in self.check(view)]


def invariant(*, key: str, ruleset: str, rules: dict[str, str], summary: str, exercised: Callable[["TraceView"], int]):
    """Decorator that turns a check function into an :class:`Invariant`."""

    def wrap(check: Callable[["TraceView"], list[str]]) -> Invariant:
        return Invariant(key=key, ruleset=ruleset, rule_numbers=dict(rules), summary=summary, check=check, exercised=exercised)

    return wrap
