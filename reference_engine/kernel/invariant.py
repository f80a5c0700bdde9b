"""Invariants: the rules as executable predicates over (scenario, trace).

An invariant is tied to a stable rule key (never renumbered, e.g. ``mw.queue-fifo``), the rule number it encodes
in each edition it applies to, and a one-line paraphrase. Its ``check`` returns violations in plain words that
name the witnesses; its ``exercised`` counts how many occasions the trace gave the rule to apply, so that a rule
that passes only because it never fired is visible.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:
    from reference_engine.kernel.traceview import TraceView


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
    # The streamed observations (reference_engine.kernel.traceview.streamed) that check and exercised read, directly or
    # through other observations: the judge computes those of every rule in one shared pass over the trace. An
    # invariant that lists none still works; whatever it walks on its own is walked when it runs.
    passes: tuple = ()
    # The vocabulary categories the rule reads (reference_engine.kernel.derived.CATEGORIES); None: every one. Each
    # word of each category observed makes a derived situation with the rule key.
    observes: frozenset[str] | None = None

    def rule_number(self, edition: str) -> str:
        return self.rule_numbers[edition]

    def applies_to(self, edition: str) -> bool:
        return edition in self.rule_numbers

    def violations(self, view: "TraceView") -> list[Violation]:
        """Run the check and wrap each message with the rule key and rule number."""
        number = self.rule_numbers.get(view.edition, "?")
        return [Violation(self.key, f"[{number}] {message}") for message in self.check(view)]


def invariant(*, key: str, ruleset: str, rules: dict[str, str], summary: str, exercised: Callable[["TraceView"], int],
              passes: tuple = ()):
    """Decorator that turns a check function into an :class:`Invariant` (``passes``: see :attr:`Invariant.passes`)."""

    def wrap(check: Callable[["TraceView"], list[str]]) -> Invariant:
        return Invariant(key=key, ruleset=ruleset, rule_numbers=dict(rules), summary=summary, check=check,
                         exercised=exercised, passes=tuple(passes))

    return wrap


@dataclass
class Judgement:
    """Every invariant's verdict on one trace: ``violations`` (rule key -> messages, failed rules only, each message
    prefixed with the rule number of the view's edition), ``exercised`` (rule key -> occasions) and ``errors`` (rule
    key -> traceback of a check that raised; such a rule has no other verdict)."""

    violations: dict[str, list[str]] = field(default_factory=dict)
    exercised: dict[str, int] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def judge(view: "TraceView", invariants: Iterable[Invariant]) -> Judgement:
    """Judge one trace with ``invariants``: one shared pass over the entries computes the streamed observations every
    rule declared (each entry goes only to the observations that care about its kind), then each rule's check and
    exercised count read them. Never raises for a check that raises: its traceback goes to ``errors`` for that rule
    alone (an observation that raises in the shared pass is recomputed by each rule that needs it, so that only those
    rules get the error)."""
    invariants = tuple(invariants)
    try:
        view.walk(p for inv in invariants for p in inv.passes)
    except Exception:
        pass  # charged below, to each rule whose check computes the failing observation again
    result = Judgement()
    edition = view.edition
    for inv in invariants:
        try:
            messages = inv.check(view)
            result.exercised[inv.key] = inv.exercised(view)
        except Exception:
            result.errors[inv.key] = traceback.format_exc()
            continue
        if messages:
            number = inv.rule_numbers.get(edition, "?")
            result.violations[inv.key] = [f"[{number}] {m}" for m in messages]
    return result


def listed(items: Iterable[Any], nothing: str = "nothing") -> str:
    """``items`` as prose for a violation message: ``"E1"``, ``"E1 and E2"``, ``"E1, E2 and E3"`` (each item's
    ``str``), or ``nothing`` when there are none (never Python's list text, ``[]`` or ``['E1']``)."""
    words = [str(item) for item in items]
    if not words:
        return nothing
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
