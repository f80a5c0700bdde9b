"""The trace reference of a ruleset (docs/trace/<ruleset>.md), generated from the code: every trace entry kind with
its fields (the ruleset's composed trace schema: names, types, descriptions), when the reference engine writes it
(the schema's descriptions), every event type, choice and removal reason, each with a small worked example, and
every option with what it changes (the ruleset's ``Option`` documents).

A worked example is found, never written by hand: among the ruleset's golden scenarios and the first
:data:`GENERATED` scenarios of its generated stream (seed 0, every option drawn), the smallest whose reference trace
shows the entry (by :func:`conformance.shrinking.reduction.passes.scenario_size`) is reduced piece by piece
(:func:`conformance.shrinking.reduction.reduce_scenario`) while the reference engine's trace still shows it; the page holds
that scenario and the trace the reference engine writes for it. The same pool of scenarios is what
tests/test_trace_reference.py checks the schema's statements against.

:func:`page` returns the Markdown; ``trigger-conformance trace-reference --ruleset R`` prints it (``--write``
rewrites docs/trace/<ruleset>.md). Raises KeyError for an unknown ruleset.
"""

from __future__ import annotations

import functools
import inspect
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.documents.fixture_files import bundled_fixtures
from conformance.shrinking.reduction import reduce_scenario, well_formed
from conformance.shrinking.reduction.passes import scenario_size
from conformance.running.runner import RunConfig, prepare_generated, scenario_builder
from conformance.generation.stream import explorable_options, stream_source
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.choices import KERNEL_CHOICES, ScenarioChooser
from reference_engine.kernel.engine import Chooser, Skipped
from reference_engine.kernel.registry import choice_kinds, composed_schema, get_ruleset, reference_engine_for, unit
from reference_engine.kernel.schemas import dumps

GENERATED = 200  # scenarios of the generated stream (seed 0) added to the golden ones as starting points
REDUCE_SECONDS = 300.0  # a reduction that needs this long fails the generation rather than cut the example short
MAX_ENTRIES = 2_000  # longer plays are no examples (see play)
EXCERPT = 24  # a trace longer than this many entries is shown around the entry it illustrates
FOLDER = "docs/trace"


def page_path(ruleset: str) -> str:
    """Where the page of ``ruleset`` lives, relative to the repository root."""
    return f"{FOLDER}/{unit(ruleset).name}.md"


# -- What a trace shows ----------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Feature:
    """Something a trace can show: an entry of schema definition ``key`` (section ``entry``), an event of type
    ``key`` (``event``), a choice of decision ``key`` (``decision``), a removal for reason ``key`` (``reason``), or
    :data:`AFTER_SCRIPT`."""

    section: str
    key: str


# A trigger resolving after the script's last step_advance (Redemption: a phase that an effect ended in the last step).
AFTER_SCRIPT = Feature("after", "last-step")


def entry_definitions(ruleset: str) -> dict[str, tuple[str, ...]]:
    """The trace entry definitions of the ruleset's composed trace schema (``$defs`` names, in ``entry/oneOf``
    order), each with the ``kind`` values it defines."""
    schema = composed_schema("trace", (ruleset,))
    found = {}
    for branch in schema["$defs"]["entry"]["oneOf"]:
        name = branch["$ref"].rsplit("/", 1)[-1]
        kind = schema["$defs"][name]["properties"]["kind"]
        found[name] = (kind["const"],) if "const" in kind else tuple(kind["enum"])
    return found


def features(ruleset: str, trace: dict[str, Any]) -> Iterator[tuple[Feature, int]]:
    """Every feature ``trace`` shows, with the index of the first entry showing it."""
    definition = {kind: name for name, kinds in entry_definitions(ruleset).items() for kind in kinds}
    seen: set[Feature] = set()
    for index, entry in enumerate(trace["entries"]):
        shown = [Feature("entry", definition.get(entry["kind"], entry["kind"]))]
        if entry["kind"] == "event":
            shown.append(Feature("event", entry["type"]))
        elif entry["kind"] == "choice":
            shown.append(Feature("decision", entry["decision"]))
        elif entry["kind"] == "removed":
            shown.append(Feature("reason", entry["reason"]))
        if entry["kind"] == "resolve_begin" and not any(e["kind"] == "step_advance" for e in trace["entries"][index:]):
            shown.append(AFTER_SCRIPT)
        for feature in shown:
            if feature not in seen:
                seen.add(feature)
                yield feature, index


def play(scenario: dict[str, Any]) -> dict[str, Any] | None:
    """The reference engine's trace of a prepared ``scenario`` (its choices answered by the scenario's ``choices``);
    None when the engine skips it or the play would write more than :data:`MAX_ENTRIES` entries (a reduction can
    make a scenario that loops forever)."""
    try:
        engine = reference_engine_for(scenario["ruleset"], max_trace_entries=MAX_ENTRIES)
        return engine.run(scenario, ScenarioChooser(scenario))
    except (Skipped, RuntimeError):
        return None


@functools.lru_cache(maxsize=None)
def pool(ruleset: str) -> tuple[tuple[str, dict[str, Any], dict[str, Any]], ...]:
    """(name, scenario document, reference trace) of every golden scenario of ``ruleset`` and of the first
    :data:`GENERATED` scenarios of its generated stream (seed 0, every option drawn), skipped ones left out."""
    out = []
    for fixture in bundled_fixtures(ruleset):
        trace = play(fixture.scenario)
        if trace is not None:
            out.append((f"fixture {fixture.id}", fixture.document["scenario"], trace))
    judge = get_ruleset(ruleset)
    config = RunConfig(judge, judge.default_edition, judge.resolve_options({}),
                       explored_options=explorable_options(judge, {}))
    build = scenario_builder(config, reference_engine_for(ruleset))
    for n in range(GENERATED):
        document = prepare_generated(config, build(stream_source(0, n), config.edition))
        trace = play(document)
        if trace is not None:
            out.append((f"generated scenario {n} (seed 0)", document, trace))
    for name, document, _ in list(out):
        for k, variant in enumerate(_into_play(document)):
            trace = play(prepare_scenario(variant, "a variant")[1]) if well_formed(variant) else None
            if trace is not None:
                out.append((f"{name}, move {k} into play", variant, trace))
    return tuple(out)


def _into_play(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Copies of ``document`` with one of its scripted ``move`` actions (in script order) moving its object into play
    instead: the generators move cards out of play only, and a card put into play is an event type (``enter``) of
    its own."""
    count = sum(1 for step in document["script"] for action in step["actions"] for a in action["effect"]
                if a.get("do") == "move" and a.get("to") != "field")
    for k in range(count):
        variant = json.loads(json.dumps(document))
        moves = [a for step in variant["script"] for action in step["actions"] for a in action["effect"]
                 if a.get("do") == "move" and a.get("to") != "field"]
        moves[k]["to"] = "field"
        moves[k].pop("from", None)
        yield variant


def _shows(feature: Feature):
    def fails(document: dict[str, Any]) -> bool:
        _, scenario = prepare_scenario(document, "an example")
        trace = play(scenario)
        return trace is not None and any(f == feature for f, _ in features(scenario["ruleset"], trace))
    return fails


@dataclass(frozen=True)
class Example:
    """A worked example: a scenario document, the reference engine's trace of it, and the index of the entry it
    illustrates."""

    feature: Feature
    scenario: dict[str, Any]
    trace: dict[str, Any]
    index: int


@functools.lru_cache(maxsize=None)
def examples(ruleset: str) -> dict[Feature, Example]:
    """One worked example per feature the reference engine shows on the :func:`pool`: the smallest scenario of the
    pool showing it, reduced while it still shows it. Raises RuntimeError when a reduction runs out of time (the
    page would depend on the machine's speed)."""
    first: dict[Feature, tuple[int, int, dict[str, Any]]] = {}
    for order, (_, document, trace) in enumerate(pool(ruleset)):
        for feature, _ in features(ruleset, trace):
            candidate = (scenario_size(document), order, document)
            if feature not in first or candidate[:2] < first[feature][:2]:
                first[feature] = candidate
    out = {}
    for feature in sorted(first):
        start = time.monotonic()
        small = reduce_scenario(first[feature][2], _shows(feature), well_formed, REDUCE_SECONDS)
        if time.monotonic() - start >= REDUCE_SECONDS:
            raise RuntimeError(f"{ruleset}: reducing the example of {feature} took over {REDUCE_SECONDS} s")
        _, scenario = prepare_scenario(small, "an example")
        trace = play(scenario)
        index = next(i for f, i in features(ruleset, trace) if f == feature)
        out[feature] = Example(feature, _shown_document(ruleset, small), trace, index)
    return out


def _shown_document(ruleset: str, document: dict[str, Any]) -> dict[str, Any]:
    """The document as the page shows it: options at their default left out (they are what an absent option means),
    and the name and description of the scenario it was reduced from, which no longer fit it."""
    defaults = get_ruleset(ruleset).resolve_options({})
    options = {k: v for k, v in (document.get("options") or {}).items() if defaults.get(k) != v}
    shown = {k: v for k, v in document.items() if k not in ("options", "id", "description")}
    if options:
        shown["options"] = options
    # In the schema's order, whatever order a reduction left the keys in (the page stays stable across reductions).
    order = list(composed_schema("scenario", (ruleset,)).get("properties", ()))
    return dict(sorted(shown.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))


# -- The page ---------------------------------------------------------------------------------------------------


def _type(schema: dict[str, Any], spec: dict[str, Any]) -> str:
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        return {"id": "id (string)", "action_ref": "[step, action]"}.get(name, name)
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    if "enum" in spec:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    kind = spec.get("type", "any")
    kinds = kind if isinstance(kind, list) else [kind]
    if "items" in spec:
        kinds = [f"array of {_type(schema, spec['items'])}" if k == "array" else k for k in kinds]
    return " or ".join(kinds)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fields(schema: dict[str, Any], definition: dict[str, Any]) -> list[str]:
    required = set(definition.get("required", ()))
    lines = ["| field | type | required | meaning |", "| --- | --- | --- | --- |"]
    for name, spec in definition["properties"].items():
        meaning = spec.get("description", "")
        if not meaning and "$ref" in spec:
            meaning = schema["$defs"][spec["$ref"].rsplit("/", 1)[-1]].get("description", "")
        if "default" in spec:
            meaning = f"{meaning} Default: `{json.dumps(spec['default'])}`.".strip()
        lines.append(f"| `{name}` | {_cell(_type(schema, spec))} | {'yes' if name in required else 'no'} | "
                     f"{_cell(meaning)} |")
    return lines


def _entry_line(index: int, entry: dict[str, Any], marked: bool) -> str:
    return f"{'>' if marked else ' '}{index:3d}  {json.dumps(entry, ensure_ascii=False, separators=(', ', ': '))}"


def _example(example: Example, what: str, seen: dict[str, str]) -> list[str]:
    """The example as Markdown; one whose scenario an earlier example of the page (``seen``: scenario -> what that
    example showed) already showed is named, not repeated."""
    entries = example.trace["entries"]
    marked = {i for i, entry in enumerate(entries) if _illustrates(example.feature, entry, example)}
    key = json.dumps(example.scenario, sort_keys=True)
    if key in seen:
        at = ", ".join(str(i) for i in sorted(marked))
        return [f"Example ({what}): the scenario of the example of {seen[key]} above; its trace shows it at entry "
                f"{at}.", ""]
    seen[key] = what
    lo, hi = 0, len(entries)
    if len(entries) > EXCERPT:
        lo, hi = max(0, example.index - EXCERPT // 2), min(len(entries), example.index + EXCERPT // 2)
    lines = [f"Example ({what}): the scenario", "", "```json", dumps(example.scenario, 100).rstrip("\n"), "```", "",
             "and the reference engine's trace of it (entry index first; `>` marks the entries this example shows):",
             "", "```text"]
    if lo > 0:
        lines.append(f"     ... {lo} entries before")
    lines += [_entry_line(i, entries[i], i in marked) for i in range(lo, hi)]
    if hi < len(entries):
        lines.append(f"     ... {len(entries) - hi} entries after")
    return lines + ["```", ""]


def _illustrates(feature: Feature, entry: dict[str, Any], example: Example) -> bool:
    if feature.section == "entry":
        return entry["kind"] in entry_definitions(example.scenario["ruleset"]).get(feature.key, (feature.key,))
    if feature == AFTER_SCRIPT:
        return entry["kind"] == "resolve_begin" and entry["trigger"] in _after_script(example.trace)
    field = {"event": ("event", "type"), "decision": ("choice", "decision"), "reason": ("removed", "reason")}
    kind, name = field[feature.section]
    return entry["kind"] == kind and entry.get(name) == feature.key


def _after_script(trace: dict[str, Any]) -> set[str]:
    entries = trace["entries"]
    last = max((k for k, e in enumerate(entries) if e["kind"] == "step_advance"), default=len(entries))
    return {e["trigger"] for e in entries[last:] if e["kind"] == "resolve_begin"}


def page(ruleset: str) -> str:
    """The Markdown trace reference of ``ruleset`` (see the module docstring). Raises KeyError for an unknown
    ruleset."""
    name = unit(ruleset).name
    judge = get_ruleset(name)
    schema = composed_schema("trace", (name,))
    defs = schema["$defs"]
    found = examples(name)
    written = set(found)
    seen: dict[str, str] = {}
    out = [f"# Trace reference: {judge.title}", "",
           f"<!-- Generated by `trigger-conformance trace-reference --ruleset {name} --write` from the code; do not "
           f"edit (tests/test_trace_reference.py). -->", "",
           f"What the `{name}` reference engine writes into a trace, entry by entry, and what it asks the chooser. "
           "Generated from the code: the fields and their meaning come from the ruleset's trace schema (the kernel's "
           f"[reference_engine/kernel/schema/trace.json](../../reference_engine/kernel/schema/trace.json) composed "
           f"with the ruleset's fragment, published in [schemas/trace.schema.json](../../schemas/trace.schema.json)); "
           "every example is a scenario found by reducing a golden or generated scenario while the reference "
           "engine's trace still shows the entry, followed by the trace the reference engine writes for it. "
           "tests/test_trace_reference.py regenerates this page and checks the schema's statements against the "
           "reference engine's traces.", "",
           schema["description"], "",
           f"A trace is `{{\"format\": \"trigger-conformance/trace/1\", \"entries\": [...]}}`; each entry has a `kind`. "
           "The ids of events, trigger instances and the like are the engine's own: they only need to be unique "
           "within the trace (the reference engine numbers them E1, T1, ...).", "",
           "## Entry kinds", "", "| kind | schema definition | example |", "| --- | --- | --- |"]
    definitions = entry_definitions(name)
    for definition, kinds in definitions.items():
        shown = "below" if Feature("entry", definition) in written else "never written by the reference engine"
        out.append(f"| {', '.join(f'`{k}`' for k in kinds)} | `{definition}` | {shown} |")
    out.append("")
    for definition, kinds in definitions.items():
        spec = defs[definition]
        out += [f"### {' / '.join(f'`{k}`' for k in kinds)}", ""]
        if spec.get("description"):
            out += [spec["description"], ""]
        out += _fields(schema, spec) + [""]
        if definition == "event":
            out += _causes(schema, written, found)
        feature = Feature("entry", definition)
        if feature in found and definition not in ("event", "choice", "removed"):
            out += _example(found[feature], f"`{kinds[0]}`", seen)
        if definition == "step_advance" and AFTER_SCRIPT in found:
            out += _example(found[AFTER_SCRIPT], "a trigger resolving after the last step's `step_advance`", seen)
        elif feature not in found:
            out += ["The reference engine of this ruleset never writes this entry.", ""]
    out += _events(schema, found, seen) + _choices(ruleset, schema, found, seen) + _reasons(schema, found, seen)
    out += _options(judge)
    return "\n".join(out).rstrip("\n") + "\n"


def _causes(schema: dict[str, Any], written: set[Feature], found: dict[Feature, Example]) -> list[str]:
    cause = schema["$defs"]["cause"]
    used = {next(iter(e.get("cause", {})), None) for example in found.values() for e in example.trace["entries"]
            if e["kind"] == "event"}
    lines = ["An event's `cause` holds exactly one of these keys:", "", "| key | meaning | in the examples |",
             "| --- | --- | --- |"]
    for key, spec in cause["properties"].items():
        meaning = spec.get("description") or {"action": "a scripted action: [step index, action index]",
                                              "resolution": "the resolution of trigger instance T"}.get(key, "")
        lines.append(f"| `{key}` | {_cell(meaning)} | {'yes' if key in used else 'no'} |")
    return lines + [""]


def _events(schema: dict[str, Any], found: dict[Feature, Example], seen: dict[str, str]) -> list[str]:
    types = sorted(f.key for f in found if f.section == "event")
    event = schema["$defs"]["event"]["properties"]
    lines = ["## Event types", "", event["type"].get("description", ""), "",
             f"`player`: {event['player'].get('description', '')}", "",
             "The reference engine writes these event types: " + ", ".join(f"`{t}`" for t in types) + ".", ""]
    for kind in types:
        lines += [f"### Event `{kind}`", ""] + _example(found[Feature("event", kind)], f"an event of type `{kind}`", seen)
    return lines


def _choices(ruleset: str, schema: dict[str, Any], found: dict[Feature, Example], seen: dict[str, str]) -> list[str]:
    choice = schema["$defs"]["choice"]
    asked = [f.key for f in sorted(found) if f.section == "decision"]
    lines = ["## Choices", "", choice.get("description", ""), "",
             choice["properties"]["decision"].get("description", ""), "",
             "The reference engine asks: " + (", ".join(f"`{d}`" for d in asked) or "nothing") + ". Every other "
             "decision of the schema is another ruleset's.", ""]
    for decision in asked:
        method = getattr(Chooser, decision, None) if decision in KERNEL_CHOICES else None
        own = choice_kinds(ruleset).get(decision)
        lines += [f"### Choice `{decision}`", ""]
        if own is not None:
            lines += [f"Asked through `Chooser.choose({decision!r}, player, {own.context}, {own.candidates})`, a "
                      f"choice kind of the ruleset's own (its unit's `choice_kinds`), answered from the scenario's "
                      f"`choices.{own.key}`; the answer is an index into `{own.candidates}`: {own.description}", ""]
        elif method is not None:
            signature = str(inspect.signature(method)).replace("self, ", "")
            lines += [f"Asked through `Chooser.{decision}{signature}` "
                      "([reference_engine/kernel/engine.py](../../reference_engine/kernel/engine.py)): "
                      + " ".join(inspect.getdoc(method).split()), ""]
        lines += _example(found[Feature("decision", decision)], f"a `{decision}` choice", seen)
    return lines


def _reasons(schema: dict[str, Any], found: dict[Feature, Example], seen: dict[str, str]) -> list[str]:
    if "removed" not in schema["$defs"]:
        return []  # a ruleset whose trace has no removed entry (its unit's trace schema fragment defines it)
    reason = schema["$defs"]["removed"]["properties"]["reason"]
    written = [f.key for f in sorted(found) if f.section == "reason"]
    lines = ["## Removal reasons", "", reason.get("description", ""), "",
             "The reference engine writes: " + ", ".join(f"`{r}`" for r in written) + "; the schema's other reasons ("
             + (", ".join(f"`{r}`" for r in reason["enum"] if r not in written) or "none") + ") are other rulesets'.",
             ""]
    for key in written:
        lines += [f"### Removed: `{key}`", ""] + _example(found[Feature("reason", key)], f"reason `{key}`", seen)
    return lines


def _options(judge) -> list[str]:
    lines = ["## Options", "", "Each option is an assumption where the rule text is silent; a scenario's `options` "
             "select a reading (absent: the default), and the trace follows it. See also "
             "[docs/options.md](../options.md).", ""]
    for option in judge.options:
        lines += [f"### `{option.name}`", "", f"{option.doc} Stands for: {option.stands_for}.", "",
                  "| value | what the reference engine does |", "| --- | --- |"]
        for value, meaning in option.values.items():
            default = " (default)" if value == option.default else ""
            lines.append(f"| `{json.dumps(value)}`{default} | {_cell(meaning)} |")
        lines.append("")
    return lines


def write(root: Path, ruleset: str) -> Path:
    """Write the page of ``ruleset`` under ``root`` (the repository); returns its path."""
    path = root / page_path(ruleset)
    path.parent.mkdir(parents=True, exist_ok=True)
    from conformance.documents.json_io import write_atomically

    write_atomically(path, page(ruleset))  # a full disk leaves the page as it was, never half of it
    return path


def profile_features_markdown(names: Iterable[str] | None = None) -> str:
    """The features a partial engine's generation profile may exclude, per ruleset of ``names`` (None: every
    installed one, in listing order), each with what a scenario has with it (the unit's ``feature_docs``):
    docs/checking.md embeds the bundled rulesets' block between ``<!-- profile-features -->`` and
    ``<!-- /profile-features -->`` (tests/test_project.py keeps it current). Raises KeyError for an unknown name."""
    from reference_engine.kernel.registry import loaded, units

    lines = []
    for name in units() if names is None else names:
        part = loaded(name)
        lines += [f"**{name}**", "", "| feature | what a scenario may have with it (excluding it leaves it out) |",
                  "| --- | --- |"]
        docs = part.feature_docs or {feature: "" for feature in part.profile_features}
        for feature in sorted(docs):
            narrower = "" if feature in part.profile_features else " *(never drawn off by exploration: only a profile " \
                                                                    "excludes it, for a narrower shape)*"
            lines.append(f"| `{feature}` | {docs[feature].replace('|', '/')}{narrower} |")
        lines.append("")
    return "\n".join(lines)
