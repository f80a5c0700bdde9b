"""The trace reference pages (docs/trace/<ruleset>.md, issue 23 item 2) are what conformance.commands.trace_reference
generates, and the trace schema's statements hold for what the reference engines write.

The pages are generated from the code (the composed trace schema, the reference engine, the options); to regenerate
them after a change of the schema's descriptions, an engine or the examples' pool, run this file with
TRIGGER_CONFORMANCE_REWRITE_DOCS=1 (or ``trigger-conformance trace-reference --ruleset R --write``)::

    TRIGGER_CONFORMANCE_REWRITE_DOCS=1 .venv/bin/python -m pytest -q tests/test_trace_reference.py

and review the diff.
"""

from __future__ import annotations

import os
import re

import pytest

from conftest import ROOT
from conformance.documents.json_io import problems
from conformance.commands.trace_reference import (
    Feature, entry_definitions, examples, features, page, page_path, pool,
)
from reference_engine.kernel.registry import composed_schema, get_ruleset, loaded, units
from reference_engine.kernel.schemas import bundled

REWRITE = bool(os.environ.get("TRIGGER_CONFORMANCE_REWRITE_DOCS"))
RULESETS = sorted(units())  # every installed unit: its traces hold the schema's statements
BUNDLED = sorted(bundled())  # the rulesets this project ships: docs/trace/ holds their pages
# Trigger words that are patterns, not event types: MTG's zone_change (an enter, leave or move), state (a state
# trigger, which no event sets off) and dealt_damage (a damage event, read from the permanent dealt damage).
PATTERNS = frozenset({"zone_change", "state", "dealt_damage"})


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("ruleset", BUNDLED)
def test_each_page_is_what_the_generator_writes(ruleset):
    path = ROOT / page_path(ruleset)
    expected = page(ruleset)
    if REWRITE and (not path.exists() or path.read_text("utf-8") != expected):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(expected, "utf-8")
    assert path.exists() and path.read_text("utf-8") == expected, (
        f"{page_path(ruleset)} is stale: rerun with TRIGGER_CONFORMANCE_REWRITE_DOCS=1")


@pytest.mark.parametrize("ruleset", BUNDLED)
def test_each_page_is_in_the_nav_and_linked(ruleset):
    relative = page_path(ruleset).removeprefix("docs/")
    assert relative in (ROOT / "mkdocs.yml").read_text("utf-8")
    assert f"(trace/{ruleset}.md)" in (ROOT / "docs" / "checking.md").read_text("utf-8")
    docs = loaded(ruleset).resource(loaded(ruleset).manifest.docs).read_text("utf-8")
    assert f"docs/trace/{ruleset}.md)" in docs


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("ruleset", BUNDLED)
def test_every_entry_kind_and_triggering_event_has_an_example(ruleset):
    """The bundled rulesets' pages show an example of every entry their schema lists (another unit's traces may
    leave out a kernel entry it has no use for, such as ``removed`` or ``choice``)."""
    found = examples(ruleset)
    missing = [name for name in entry_definitions(ruleset) if Feature("entry", name) not in found]
    assert not missing, f"the schema lists entries the reference engine never writes on the pool: {missing}"
    triggering = get_ruleset(ruleset).vocabulary.trigger_events - PATTERNS
    written = {f.key for f in found if f.section == "event"}
    assert triggering <= written, f"event types abilities trigger on with no example: {sorted(triggering - written)}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_schema_names_every_event_type_written(ruleset):
    """Read on the pool itself: the worked examples show exactly the features the pool shows, and reducing one
    example per feature is what makes the page slow to build (issue 26)."""
    described = composed_schema("trace", (ruleset,))["$defs"]["event"]["properties"]["type"]["description"]
    named = set(re.findall(r"`(\w+)`", described))
    written = {f.key for _, _, trace in pool(ruleset) for f, _ in features(ruleset, trace) if f.section == "event"}
    assert written <= named, f"event types written but not described: {sorted(written - named)}"


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_trace_of_the_pool_and_the_examples_is_valid(ruleset):
    traces = [trace for _, _, trace in pool(ruleset)] + [e.trace for e in examples(ruleset).values()]
    for trace in traces:
        assert not problems(trace, "trace")


def _ids(trace, kind):
    return [e for e in trace["entries"] if e["kind"] == kind]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_kernel_statements_hold(ruleset):
    for name, document, trace in pool(ruleset):
        entries = trace["entries"]
        arose = [e["id"] for e in _ids(trace, "trigger")]
        for entry in _ids(trace, "choice"):
            if entry["decision"] == "order":  # only for two or more triggers, offered in the order they arose
                assert len(entry["among"]) >= 2, name
                assert sorted(entry["chosen"]) == sorted(entry["among"]), name
                assert entry["among"] == sorted(entry["among"], key=arose.index), name
            elif entry["decision"] == "optional":
                assert len(entry["among"]) == 1 and isinstance(entry["chosen"], bool), name
        for entry in _ids(trace, "event"):  # moving a card: enter into play, leave out of it, move elsewhere
            if entry["type"] in ("enter", "leave", "move"):
                expected = "enter" if entry["to"] == "field" else "leave" if entry["from"] == "field" else "move"
                assert entry["type"] == expected, (name, entry)
        steps = [e["step"] for e in _ids(trace, "step_begin")]
        if not _ids(trace, "game_over"):  # one step_begin and one step_advance per step, in script order
            assert steps == list(range(len(document["script"]))), name
            assert [e["from"] for e in _ids(trace, "step_advance")] == steps, name


def test_redemption_statements_hold():
    for name, document, trace in pool("redemption"):
        entries = trace["entries"]
        controller = {e["id"]: e["controller"] for e in _ids(trace, "trigger")}
        played_by: dict[str, str] = {}
        activator: dict[str, str] = {}
        for entry in entries:
            if entry["kind"] == "activation_begin":
                activator[entry["id"]] = played_by[entry["source"]]
            if entry["kind"] != "event":
                continue
            (how, ref), = entry["cause"].items()
            acting = {"action": lambda: document["script"][ref[0]]["actions"][ref[1]]["by"],
                      "resolution": lambda: controller[ref], "activation": lambda: activator[ref]}[how]()
            assert entry["player"] == acting, (name, entry)  # player: the acting player
            if entry["type"] == "play":
                assert (entry["from"], entry["to"]) == ("hand", "field"), name
                played_by[entry["subject"]] = entry["player"]
        # After the last step's step_advance: no step_begin nor action, and every trigger has resolved or been removed.
        last = max(k for k, e in enumerate(entries) if e["kind"] == "step_advance")
        assert not [e for e in entries[last:] if e["kind"] in ("step_begin", "action_begin")], name
        done = {e["trigger"] for e in entries if e["kind"] in ("resolve_begin", "removed")}
        assert set(controller) <= done, name
        expired = [k for k, e in enumerate(entries) if e["kind"] == "removed" and e["reason"] == "expired"]
        for k in expired:  # lapsing right after a step_advance
            assert entries[k - 1]["kind"] in ("step_advance", "removed"), name


def test_redemption_after_the_last_step_is_shown():
    """The pool has a scenario whose last phase an effect ends with triggers pending that activate after it."""
    def after_last_step(trace):
        entries = trace["entries"]
        last = max(k for k, e in enumerate(entries) if e["kind"] == "step_advance")
        return any(e["kind"] == "resolve_begin" for e in entries[last:])
    assert any(after_last_step(trace) for _, _, trace in pool("redemption"))
