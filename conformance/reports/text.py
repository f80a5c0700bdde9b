"""Human-readable output: one row per rule, and for a failure the violation, the shrunk scenario in a few lines,
the expected (reference) and actual traces side by side, and the command that reproduces it."""

from __future__ import annotations

import itertools
import json
import re
import textwrap
from typing import Any

from conformance.documents.fixture_files import canonical_entries

STDERR_LINES = 20  # lines of an engine's stderr printed under its problem (the reports keep the whole tail)
MARK = {"passed": "PASS", "failed": "FAIL", "errored": "ERROR", "unexercised": "WARN", "skipped": "SKIP",
        "partial": "PARTIAL"}  # partial: an interrupted run's rule with no violation so far (conformance/running/partial.py)
XFAIL = "XFAIL"  # not a status: a failure the engine's expected failures (or the suite's quarantine) expect
# What an expectation (conformance.documents.expectations.judge) makes of a failure, said after its XFAIL row
EXPECTED = {"expected-failure": "expected failure", "quarantined": "quarantined by the suite"}


# What a terminal acts on rather than shows: C0 controls (ESC of escape sequences, carriage return, backspace...),
# DEL, C1 controls, and the marks that reorder text (bidirectional overrides and isolates).
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_ACTIVE = re.compile(f"[{_CONTROLS}]")
_ACTIVE_OR_BREAK = re.compile(f"[\t\n{_CONTROLS}]")


def shown(text: str, lines: bool = False) -> str:
    """``text`` (from a document or an engine) as it may reach a terminal: every character a terminal would act on
    rather than show (:data:`_CONTROLS`, and tabs and newlines unless ``lines``) written as its JSON escape
    (``\\u001b``, ``\\u202e``: JSON printed stays JSON), so that no text can move the cursor, erase or
    recolour what is shown, or disguise a command."""
    pattern = _ACTIVE if lines else _ACTIVE_OR_BREAK
    return pattern.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class QuietStream:
    """A text stream over ``stream`` that stops quietly when its reader goes away (``... | head``): the first write
    or flush that meets a closed pipe points the stream's file descriptor at the null device (what Python's docs
    advise for SIGPIPE: nothing buffered can fail again, at exit either), and from then on what is written is
    dropped. The command goes on (its report files are still written) and exits with its own code."""

    def __init__(self, stream):
        self.stream = stream
        self.closed_pipe = False

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def _reader_gone(self) -> None:
        self.closed_pipe = True
        import os

        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self.stream.fileno())
            os.close(null)
        except (AttributeError, OSError, ValueError):  # no file descriptor (a stream in memory): dropped all the same
            pass

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


class TerminalStream:
    """A text stream that writes through :func:`shown` (lines kept) to ``stream``: what the commands print on
    stdout and stderr, whatever text a document or an engine put in it. ``raw`` is ``stream`` itself (as a
    :class:`QuietStream`: a reader gone stops the output quietly), for the tool's own control sequences (the live
    progress line)."""

    def __init__(self, stream):
        self.raw = QuietStream(stream)

    def write(self, text: str) -> int:
        return self.raw.write(shown(text, lines=True))

    def __getattr__(self, name: str):
        return getattr(self.raw, name)


def expected_apart(summary: dict[str, int], xfailed: int) -> dict[str, int]:
    """``summary`` (a report's) with ``xfailed`` of its failed rules, those expected to fail, counted apart (as
    ``rules_xfailed``, which :func:`verdict_counts` says ``XFAIL``)."""
    if not xfailed:
        return summary
    apart = {**summary, "rules_failed": summary.get("rules_failed", 0) - xfailed, "rules_xfailed": xfailed}
    return {k: n for k, n in apart.items() if n}


def verdict_counts(summary: dict[str, int], not_checked: dict[str, int] | None = None) -> str:
    """A run's summary counts (``{"rules_passed": 17, "fixtures_failed": 1, ...}``) in the verdict words of
    :data:`MARK`: ``21 rules: 17 PASS, 4 FAIL; 24 fixtures: 23 PASS, 1 FAIL`` (``not_checked``: by "rules" and
    "fixtures", those an interrupt left unchecked)."""
    parts = []
    for what in ("rules", "fixtures"):
        counted = [(n, {**MARK, "xfailed": XFAIL}.get(status, status)) for status in (*MARK, *sorted(
            {k.split("_", 1)[1] for k in summary if k.startswith(what + "_")} - set(MARK)))
            if (n := summary.get(f"{what}_{status}", 0))]
        missing = (not_checked or {}).get(what, 0)
        if missing:
            counted.append((missing, "not checked"))
        total = sum(n for n, _ in counted)
        if total:
            parts.append(f"{total} {what if total != 1 else what[:-1]}: " + ", ".join(f"{n} {w}" for n, w in counted))
    return "; ".join(parts) or "nothing checked"


def describe_entry(entry: dict[str, Any]) -> str:
    """One trace entry in a few words, e.g. ``resolve_begin T2`` or ``event E3 summon H1 (cause resolution T1)``."""
    kind = entry["kind"]
    if kind == "event":
        what = " ".join(str(entry[k]) for k in ("type", "name", "subject") if entry.get(k))
        ((cause, value),) = entry["cause"].items()
        return f"event {entry['id']}@{entry['position']} {what} <- {cause} {value}"
    if kind == "trigger":
        origin = entry["event"] or "remedy"
        return f"trigger {entry['id']} {entry['ability']} of {entry['source']} ({entry['controller']}) <- {origin}"
    if kind == "enqueue":
        front = " FRONT" if entry.get("placement") == "front" else ""
        return f"enqueue {entry['trigger']} -> {entry['queue']}{front}"
    if kind == "choice":
        return f"choice {entry['player']} {entry['decision']}: {entry['chosen']}"
    rest = {k: v for k, v in entry.items() if k != "kind"}
    return f"{kind} " + " ".join(str(v) if not isinstance(v, (dict, list)) else json.dumps(v) for v in rest.values())


def two_columns(left: str, right: str, width: int) -> list[tuple[str, str]]:
    """``left`` and ``right`` side by side as rows of (left cell padded to ``width``, right cell): each wrapped at
    word boundaries to ``width`` characters (a word longer than that is cut), the shorter side padded with blank
    cells, so that no column is cut mid-word and nothing is lost."""
    a = textwrap.wrap(left, width) or [""]
    b = textwrap.wrap(right, width) or [""]
    return [(f"{x:<{width}}", y) for x, y in itertools.zip_longest(a, b, fillvalue="")]


def side_by_side(expected: dict[str, Any] | None, actual: dict[str, Any] | None, width: int = 58,
                 context: int = 12) -> list[str]:
    """Expected and actual traces in two columns (ids renamed alike), ``!`` on lines that differ, trimmed to the
    neighbourhood of the first difference."""
    left = [describe_entry(e) for e in canonical_entries(expected)] if expected else ["(no expected trace)"]
    right = [describe_entry(e) for e in canonical_entries(actual)] if actual else ["(no trace)"]
    rows = max(len(left), len(right))
    first = next((i for i in range(rows) if (left[i] if i < len(left) else None) != (right[i] if i < len(right) else None)), rows)
    start, stop = max(0, first - context), min(rows, first + context)
    lines = [f"      {'expected (reference engine)':<{width}} | actual (engine under test)"]
    # One line says as much as the note that would elide it: show it.
    start, stop = (0 if start == 1 else start), (rows if stop == rows - 1 else stop)
    if start:
        lines.append(f"      ... {start} identical entries ...")
    for i in range(start, stop):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        flag = " " if a == b else "!"
        for row, (x, y) in enumerate(two_columns(a, b, width)):
            lines.append(f"  {flag}{i:>3} {x} | {y}" if not row else f"       {x} | {y}")
    if stop < rows:
        lines.append(f"      ... {rows - stop} more entries ...")
    return lines


def _action(action: dict[str, Any]) -> str:
    do = action["do"]
    if do == "summon":
        text = f"summon {action['object']}" + ("" if action["succeeds"] else " (fails)")
        if action.get("snatch_check"):
            text += " [Snatch Check: " + "; ".join(_action(a) for a in action["snatch_check"]) + "]"
        if action.get("also"):
            text += f" also {_value(action['also'])}"
        return text
    if do == "signal":
        return f"signal {action['name']}" + (f" subject {action['subject']}" if action.get("subject") else "")
    # Every other field, named unless it is the object acted on (``move object X from hand to field``).
    return " ".join([do, *(_value(v) if k == "object" else f"{k} {_value(v)}" for k, v in action.items()
                           if k != "do")])


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _condition(condition: dict[str, Any]) -> str:
    """A game-state test in a few words, e.g. ``in_zone X field`` or ``life_at_least controller 10``."""
    return " ".join([condition["test"], *(_value(condition[k]) for k in ("object", "player", "value", "zone")
                                          if k in condition)])


_TRIGGER_SHOWN = ("event", "name", "subject")


def _trigger(trigger: dict[str, Any]) -> str:
    """An event pattern: event, name and subject as words, every other field (MTG from/to, controller, player,
    type, nontoken, batch, state, change...) as ``key=value``; a state trigger's condition in words."""
    words = [str(trigger[k]) for k in _TRIGGER_SHOWN if k in trigger]
    for key, value in trigger.items():
        if key in _TRIGGER_SHOWN:
            continue
        words.append(f"while {_condition(value)}" if key == "state" and isinstance(value, dict)
                     else f"{key}={_value(value)}")
    return " ".join(words)


_ABILITY_DEFAULTS = {"optional": False, "checks_on_play": False, "ends_if_card_leaves": False,
                     "once_each_turn": False, "triggers_once_each_turn": False, "active_in": ["field"]}


def _ability(ability: dict[str, Any]) -> str:
    """One ability with every field that changes what it does (its text, for reports only, is left out)."""
    extra = []
    if ability.get("optional"):
        extra.append("may")
    if ability.get("intervening_if"):
        extra.append(f"if {_condition(ability['intervening_if'])}")
    if ability.get("checks_on_play"):
        extra.append("checks on play" + (f" if {_condition(ability['condition'])}" if ability.get("condition")
                                          else ""))
    elif ability.get("condition"):
        extra.append(f"condition {_condition(ability['condition'])}")
    for key, value in ability.items():
        if key in ("id", "text", "trigger", "effect", "optional", "intervening_if", "checks_on_play", "condition"):
            continue
        if _ABILITY_DEFAULTS.get(key, object()) == value:
            continue
        extra.append(key.replace("_", " ") if value is True else f"{key}={_value(value)}")
    effect = "; ".join(_action(a) for a in ability["effect"]) or "nothing"
    return f"{ability['id']}: when {_trigger(ability['trigger'])}{''.join(' ' + e for e in extra)} -> {effect}"


def _object(obj: dict[str, Any]) -> str:
    """An object's zone, owner, controller (when another player controls it) and every other field but its
    abilities."""
    text = f"{obj['id']}: {obj['zone']}, owner {obj['owner']}"
    if obj.get("controller", obj["owner"]) != obj["owner"]:
        text += f", controller {obj['controller']}"
    for key, value in obj.items():
        if key not in ("id", "zone", "owner", "controller", "abilities"):
            text += f", {key} {_value(value)}"
    return text


def describe_scenario(scenario: dict[str, Any]) -> list[str]:
    """A scenario in a few lines: players (and life totals), the options it was played under, objects with every
    field that changes their meaning (a controller other than the owner, types, spells...) and their abilities with
    their conditions (intervening if, checks on play, trigger filters, batch, once each turn...), the script and the
    choices."""
    lines = [f"players {', '.join(scenario['players'])} (active {scenario['active_player']})"]
    if scenario.get("life"):
        lines.append("life: " + ", ".join(f"{k}={v}" for k, v in scenario["life"].items()))
    if scenario.get("options"):
        lines.append("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(scenario["options"].items())))
    for obj in scenario["objects"]:
        lines.append(_object(obj))
        for ability in obj.get("abilities", ()):
            lines.append("  " + _ability(ability))
    for step in scenario["script"]:
        turn = f" (turn {step['turn']})" if "turn" in step else ""
        for action in step["actions"]:
            lines.append(f"{step['step']}{turn}: {action['by']} does "
                         + "; ".join(_action(a) for a in action["effect"]))
    choices = scenario.get("choices", {})
    if choices.get("trigger_order"):
        lines.append(f"trigger order preference: {', '.join(choices['trigger_order'])}")
    if choices.get("optional"):
        lines.append("optional answers: " + ", ".join(f"{k}={v}" for k, v in choices["optional"].items()))
    for key, value in choices.items():
        if key not in ("trigger_order", "optional") and value:
            lines.append(f"{key.replace('_', ' ')} choices: {_value(value)}")
    return lines


def rule_row(rule: dict[str, Any], expectation: str | None = None) -> str:
    """``PASS mw.queue-fifo [11.2.4]  500 scenarios, 391 exercised`` and the like; a failure that ``expectation``
    (what :func:`conformance.documents.expectations.judge` made of it) expects is ``XFAIL``, saying why."""
    expected = rule["status"] == "failed" and expectation in EXPECTED
    mark = XFAIL if expected else MARK.get(rule["status"], rule["status"].upper())
    run = rule["scenarios_run"]
    counts = f"{run} scenario{'' if run == 1 else 's'}, {rule['scenarios_exercised']} exercised"
    extra = ""
    if rule["status"] == "unexercised":
        extra = " (never applied: the pass is vacuous)"
    elif rule["status"] == "partial":
        extra = " (no violation so far; interrupted before it was concluded: not a pass)"
    if rule.get("engine_problems"):
        lost = rule.get("scenarios_lost", 0)
        extra += " (engine: " + ", ".join(f"{n} {k}" for k, n in sorted(rule["engine_problems"].items())) + (
            f"; {lost} scenario{'' if lost == 1 else 's'} lost, none that this rule needed" if lost else "") + ")"
    # Only a rule that passed says something by the readings it was never tried under (a failing rule stopped
    # counting at its first failure).
    never = [f"{name}={value}" for name, counts in sorted(rule.get("exercised_under", {}).items())
             for value, n in sorted(counts.items()) if n == 0] if rule["status"] == "passed" else []
    if never:
        extra += " (never exercised under " + ", ".join(never) + ")"
    if expected:
        extra += f" ({EXPECTED[expectation]})"
    return f"{mark:5} {rule['key']:<34} [{rule['rule_number']}] {counts}{extra}"


def partial_sentence(rule: dict[str, Any]) -> str:
    """What a partial verdict (conformance/running/partial.py) says: ``no violation in 582 scenarios (391 exercised it)
    before the run was interrupted: not a pass``."""
    run = rule["scenarios_run"]
    return (f"no violation in {run} scenario{'' if run == 1 else 's'} ({rule['scenarios_exercised']} exercised "
            f"it) before the run was interrupted: not a pass")


def failure_block(rule: dict[str, Any]) -> list[str]:
    """The explanation printed under a failed or errored rule."""
    lines = []
    failure = rule.get("failure")
    if rule["status"] == "errored":
        if rule.get("first_problem"):
            lines.append(f"      engine: {rule['first_problem']}")
        lines += traceback_lines(rule.get("engine_traceback", ""), rule.get("first_problem", ""))
        lines += stderr_lines(rule.get("engine_stderr", ""))
        if rule.get("check_error"):
            lines.append(f"      the check of {rule.get('key', 'this rule')} itself raised, not the engine: a bug in the "
                         f"file the traceback ends in (its ruleset's judge: fix the check there; the suite's "
                         f"conformance/: please report it):")
            lines += ["        " + line for line in rule["check_error"].strip().splitlines()[-3:]]
    if not failure:
        return lines
    lines.append(f"      {rule['summary']}")
    for message in failure["messages"][:6]:
        lines.append(f"      -> {message}")
    lines.append(f"      shrunk from size {failure['original_size']} to {failure['shrunk_size']}"
                 + (f"; also violates {', '.join(failure['also_violates'])}" if failure.get("also_violates") else "")
                 + ("; NONDETERMINISTIC: the engine answered it differently on replay"
                    if failure["determinism"] == "nondeterministic" else ""))
    lines.append("      scenario:")
    lines += ["        " + line for line in describe_scenario(failure["scenario"])]
    lines += side_by_side(failure.get("expected_trace"), failure.get("actual_trace"))
    if failure.get("replay_file"):
        command = failure.get("replay_command") or f"trigger-conformance replay {failure['replay_file']}"
        lines.append(f"      Reproduce with: {command}")
    elif failure.get("replay_error"):  # the counterexample above is all there is of it: say why
        lines.append(f"      error: {failure['replay_error']}; the scenario above is the counterexample")
    return lines


def traceback_lines(text: str, said: str = "", indent: str = "      ") -> list[str]:
    """An engine's traceback (``engine_traceback`` of a report entry, an errored outcome's context) under a heading,
    or nothing when there is none; its first line is left out when ``said`` (the one-line problem already shown)
    begins with it."""
    lines = text.rstrip().splitlines()
    if lines and said.startswith(lines[0]):
        lines = lines[1:]
    if not lines:
        return []
    return [f"{indent}{traceback_heading(text)}:", *(indent + line for line in lines)]


_FRAME = re.compile(r"^\s+\S.*:\d+ in \S")


def traceback_heading(text: str) -> str:
    """The heading of an engine's ``engine_traceback``: where it raised, when it holds frames (``file:line in
    function``, as conformance.running.checking.engine_traceback writes them); else what the engine said of its error (a
    process engine's details), with nothing said of frames."""
    if any(_FRAME.match(line) for line in text.splitlines()[1:]):
        return "where the engine raised (its own frames, outermost first)"
    return "what the engine said of its error"


def stderr_lines(stderr: str, indent: str = "      ") -> list[str]:
    """The last :data:`STDERR_LINES` lines of what a process engine wrote on stderr, under a heading."""
    if not stderr.strip():
        return []
    return [f"{indent}the engine's stderr (last lines):",
            *(f"{indent}  {line}" for line in stderr.rstrip().splitlines()[-STDERR_LINES:])]


def outcome_lines(outcome, indent: str = "") -> list[str]:
    """What ``check`` and ``replay`` say of an engine that gave no trace (a :class:`conformance.running.checking.
    EngineOutcome`): its status and message, where it raised (its own frames) and its stderr's tail."""
    lines = [f"{indent}the engine gave no trace: {outcome.status}: {outcome.message}"]
    if outcome.status == "errored":
        lines += traceback_lines(outcome.context, outcome.message, indent + "  ")
    return lines + stderr_lines(outcome.stderr, indent + "  ")


def not_passed(rules: list[dict[str, Any]], interrupted: bool = False,
               expectations: dict[str, str] | None = None) -> list[str]:
    """The console's account of the rules that did not pass: each failed rule with its shrunk counterexample (as
    found, unshrunk, when the run was ``interrupted`` first), and each engine problem once (the rules it left with
    no verdict named together), not once per rule. ``expectations``: rule key -> what an expectation made of its
    verdict; an expected failure is counted apart, as ``XFAIL``."""
    expectations = expectations or {}
    failed = [r for r in rules if r["status"] == "failed"]
    errored = [r for r in rules if r["status"] == "errored"]
    if not failed and not errored:
        return []
    shown = "its counterexample (not shrunk if the run stopped first)" if interrupted else "its shrunk counterexample"
    xfailed = sum(1 for r in failed if expectations.get(r["key"]) in EXPECTED)
    counted = " and ".join(f"{n} {text}" for n, text in ((len(failed) - xfailed, MARK["failed"]),
                                                         (xfailed, f"{XFAIL} (expected)")) if n)
    parts = [f"{counted}, each with {shown}"] if failed else []
    if errored:
        parts.append(f"{len(errored)} {MARK['errored']} (no verdict), each problem once")
    lines = ["", f"{len(failed) + len(errored)} rule(s) did not pass: {'; '.join(parts)}:"]
    for rule in failed:
        lines += ["", rule_row(rule, expectations.get(rule["key"])), *failure_block(rule)]
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for rule in errored:
        groups.setdefault(tuple(failure_block(rule)), []).append(rule)
    for block, group in groups.items():
        if len(group) == 1:
            lines += ["", rule_row(group[0])]
        else:
            lines += ["", f"{MARK['errored']:5} {len(group)} rules, the same problem: "
                      + ", ".join(r["key"] for r in group)]
        lines += block
        commands = sorted({r["problem_command"] for r in group if r.get("problem_command")})
        lines += [f"      Play the scenario it happened on again with: {command}" for command in commands]
        lines += _problem_scenarios_lost(group)
    return lines


def _problem_scenarios_lost(group: list[dict[str, Any]]) -> list[str]:
    """For errored rules whose problem scenario could not be written (or rebuilt): why, once, and the scenario
    itself when it was built (one line of JSON: save it to a file to play it again with ``check``)."""
    lines: list[str] = []
    for error in dict.fromkeys(r["problem_scenario_error"] for r in group if r.get("problem_scenario_error")):
        lines.append(f"      error: {error}")
        kept = next((r["problem_scenario_kept"] for r in group if r.get("problem_scenario_error") == error
                     and r.get("problem_scenario_kept")), None)
        if kept is not None:
            lines.append(f"      the scenario it happened on: {json.dumps(kept, ensure_ascii=False)}")
    return lines


def audit_summary(audit: dict[str, Any]) -> str:
    """What ``--audit`` audited, found something or not: ``audit: 100 of 100 scenarios' observable outcomes compared
    with the reference engine's; 7 divergences, each explained by an invariant; none unexplained``."""
    compared, scenarios = audit.get("compared", 0), audit.get("scenarios", audit.get("compared", 0))
    explained, unexplained = audit.get("explained", 0), audit.get("divergences", 0)
    text = (f"audit: the observable outcomes of {compared} of {scenarios} scenarios compared with the reference "
            f"engine's; {explained} divergence{'' if explained == 1 else 's'} explained by an invariant, ")
    text += f"{unexplained} unexplained (a gap in the judge or the reference engine)" if unexplained else \
        "none unexplained"
    if scenarios > compared:
        text += f"; {scenarios - compared} not compared (the engine or the reference engine gave no trace)"
    return text


def audit_row(audit: dict[str, Any]) -> str:
    """``AUDIT unexplained-divergence  100 scenarios compared, 7 divergences explained by invariants, 0 unexplained``."""
    mark = {"passed": "PASS", "unexplained-divergence": "GAP"}.get(audit["status"], audit["status"].upper())
    return (f"{mark:5} {'audit (unexplained-divergence)':<34} {audit['compared']} scenarios compared, "
            f"{audit['explained']} divergences explained by an invariant, {audit['divergences']} unexplained")


def audit_block(audit: dict[str, Any]) -> list[str]:
    """The shrunk scenario and both observable outcomes of an unexplained divergence (empty when there is none)."""
    found = audit.get("divergence")
    if not found:
        return []
    lines = ["      The engine's observable outcome differs from the reference engine's and no invariant objects:",
             "      the judge misses a requirement here, or the reference engine is wrong (not the engine's failure",
             "      of a rule).",
             f"      -> first difference at {found['where']}",
             f"      shrunk from size {found['original_size']} to {found['shrunk_size']}",
             "      scenario:"]
    lines += ["        " + line for line in describe_scenario(found["scenario"])]
    lines += side_by_side(found.get("expected_trace"), found.get("actual_trace"))
    return lines


def rule_keys_markdown(ruleset) -> list[str]:
    """The rule keys of ``ruleset`` as a Markdown table (rule number per edition, key, paraphrase): what the docs of
    each ruleset embed between ``<!-- rule-keys:NAME -->`` and ``<!-- /rule-keys -->``, generated from the code by
    ``trigger-conformance rules --ruleset NAME --format markdown`` (tests/test_docs.py keeps them equal)."""
    lines = ["| rule | key | what it checks |", "| --- | --- | --- |"]
    for inv in ruleset.invariants:
        numbers = sorted(set(inv.rule_numbers.values()))
        rule = ", ".join(numbers) if len(numbers) == 1 else "; ".join(f"{n} ({e})" for e, n in inv.rule_numbers.items())
        lines.append(f"| {rule} | `{inv.key}` | {inv.summary.replace('|', '/')} |")
    return lines


def skip_summary(rules: list[dict[str, Any]]) -> list[str]:
    """The console lines saying why the engine skipped scenarios: every reason it gave, with how many scenarios it
    gave it for, most frequent first (empty when it skipped none). Every rule sees the same stream, so the rule that
    played the most scenarios tells (a failing rule stops counting at its first failure)."""
    widest = max(rules, key=lambda r: r.get("scenarios_run", 0), default=None)
    skipped = ((widest or {}).get("engine_problems") or {}).get("skipped", 0)
    if not skipped:
        return []
    reasons = dict(widest.get("skip_reasons") or {})
    unexplained = skipped - sum(reasons.values())
    if unexplained > 0:  # a report written before reasons were counted: its first reason stands for the rest
        reasons[widest.get("first_problem") or "no reason given"] = unexplained
    lines = [f"the engine skipped {skipped} of the {widest['scenarios_run']} scenarios played, by reason:"]
    lines += [f"  {n:>6}  {reason}" for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))]
    return lines
