"""An open point of a rules text as the editors' tools report it: two or more legal traces of one scenario, with the
same player choices, parting at a branch point (:class:`Ambiguity`). Its own module so that the search for option
readings (:mod:`conformance.editors.readings`) and the lint (:mod:`conformance.editors.analysis`) both build it
without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.editors.plain import _scenario_lines, _side_by_side, describe_point
from reference_engine.kernel.registry import get_ruleset


@dataclass
class Ambiguity:
    """Two (or more) legal traces of ``scenario``, with the same player choices, parting at an order the rules
    settle: ``kind`` and ``label`` name that branch point; ``traces`` are the competing observable orders, the
    reference's reading first (at a ``reading:<option>`` branch point, every legal value's outcome: more than two
    for an option with three values)."""

    scenario: dict[str, Any]
    kind: str
    label: str
    traces: list[tuple[str, ...]]
    # Set when the option naming this branch point was found open: its readings ``values`` (the scenario's first)
    # each satisfy every invariant under that reading and give these different outcomes (conformance.editors.readings).
    option: str | None = None
    values: tuple = ()

    @property
    def branch_point(self) -> str:
        """The stable id of the branch point (the ruleset's ``BRANCH_POINTS``) where the readings part."""
        return self.kind

    def where(self) -> str:
        """The branch point in words: the sentences it reads, what is open, and the option naming it (with its
        default) or ``new``."""
        return describe_point(get_ruleset(self.scenario["ruleset"]), self.kind)

    def render(self) -> str:
        if self.option is not None:
            head = (f"OPEN READING named by option {self.option}: its readings {' and '.join(map(str, self.values))} "
                    f"each satisfy every invariant and give different outcomes ({self.label})")
            lines = [head, f"  {self.where()}", "minimal scenario:", _scenario_lines(self.scenario)]
            lines.append(_side_by_side([(f"{self.option}={self.values[0]}", self.traces[0]),
                                        (f"{self.option}={self.values[1]}", self.traces[1])]))
            return "\n".join(lines)
        if self.kind.startswith("reading:"):
            option = self.kind.split(":", 1)[1]
            head = (f"AMBIGUITY: the keys do not settle option {option}: more than one of its readings satisfies "
                    f"every invariant ({self.label}); the scenario's value is not enforced")
        else:
            head = (f"AMBIGUITY: the rules leave open the {self.kind} ({self.label}); {len(self.traces)} traces "
                    "satisfy every invariant with the same player choices")
        lines = [head, f"  {self.where()}", "minimal scenario:", _scenario_lines(self.scenario)]
        lines.append(_side_by_side([("trace 1", self.traces[0]), ("trace 2", self.traces[1])]))
        return "\n".join(lines)
