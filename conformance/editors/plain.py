"""The editors' findings as plain text for the terminal: a scenario, a branch point and two orders side by side
(used by :mod:`conformance.editors.analysis`)."""

from __future__ import annotations

from typing import Any

from conformance.reports.text import two_columns
from conformance.editors.enumeration import Leaf
from reference_engine.kernel.ruleset import Ruleset


def describe_point(ruleset: Ruleset, point_id: str) -> str:
    """A branch point of ``ruleset`` in words: its id, the rules whose sentences it reads, what is open, and the
    option naming it with its default, or ``new`` when none does."""
    point = ruleset.branch_points.get(point_id)
    if point is None:
        return f"branch point {point_id} (not in {ruleset.name}'s BRANCH_POINTS)"
    if point.option:
        default = next((o.default for o in ruleset.options if o.name == point.option), None)
        named = f"named by option {point.option} (default {default})"
    else:
        named = "new: no option names it"
    return f"branch point {point.id}, reads {', '.join(point.sentences)}: {point.question}; {named}"


def _decisions(leaf: Leaf) -> str:
    return "; ".join(f"{d.kind}: answer {d.chosen + 1} of {d.count} ({d.label})" for d in leaf.rule_decisions
                     if d.chosen)


def _scenario_lines(scenario: dict[str, Any]) -> str:
    lines = [f"  players {', '.join(scenario['players'])} (active {scenario['active_player']}); edition "
             f"{scenario['edition']}; options {scenario.get('options', {})}"]
    for obj in scenario["objects"]:
        abilities = "; ".join(f"{ab['id']}: when {_trigger(ab['trigger'])} -> {_effect(ab['effect'])}"
                              + (" (optional)" if ab.get("optional") else "") for ab in obj.get("abilities", ()))
        lines.append(f"  {obj['id']} ({obj.get('controller', obj['owner'])}, {obj['zone']})"
                     + (f": {abilities}" if abilities else ""))
    for s, step in enumerate(scenario["script"]):
        for action in step["actions"]:
            lines.append(f"  step {s}: {action.get('by', '')} {_effect(action['effect'])}")
    if scenario.get("choices"):
        lines.append(f"  choices {scenario['choices']}")
    return "\n".join(lines)


def _trigger(trigger: dict[str, Any]) -> str:
    return " ".join(f"{v}" if k == "event" else f"{k}={v}" for k, v in trigger.items())


def _effect(effect: list[dict[str, Any]]) -> str:
    return ", ".join(" ".join(str(v) for k, v in a.items() if k not in ("snatch_check",))
                     + (f" [snatch check: {_effect(a['snatch_check'])}]" if a.get("snatch_check") else "")
                     for a in effect) or "nothing"


def _side_by_side(columns: list[tuple[str, tuple[str, ...]]], width: int = 58) -> str:
    (ha, a), (hb, b) = columns
    lines = [f"  {x} | {y}" for x, y in two_columns(ha, hb, width)]
    for n in range(max(len(a), len(b))):
        left = a[n] if n < len(a) else ""
        right = b[n] if n < len(b) else ""
        mark = " " if left == right else "*"
        lines += [f"{mark if not row else ' '} {x} | {y}" for row, (x, y) in enumerate(two_columns(left, right, width))]
    return "\n".join(lines)
