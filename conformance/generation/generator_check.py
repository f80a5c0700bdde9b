"""The self-check of a ruleset's generator (issue 27 item 3): ``trigger-conformance selftest`` checks the generator of
each ruleset it checks before its faulty engines, so that a generator at fault is reported as the generator's fault,
not as an engine's or a fixture's.

For the first scenarios of the run stream (seed and stream as ``run`` draws them), in every edition, the generator
must be a deterministic function of its source's answers (built twice from the same seed, the same document), leave
``options`` to the run, and build documents valid under the composed scenario schema that speak only its ruleset's
vocabulary.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from conformance.documents.json_io import problems as schema_problems
from conformance.generation.stream import stream_source
from reference_engine.kernel.registry import builder_for, get_ruleset

MAX_PROBLEMS = 5  # per ruleset: the first faults are enough to act on


@dataclass
class GeneratorVerdict:
    """What the self-check found in the generator of ``ruleset``: ``problems`` (empty: sound), over ``scenarios``
    scenarios per edition."""

    ruleset: str
    scenarios: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _dump(document: Any) -> str:
    return json.dumps(document, sort_keys=True, default=repr)


def _document_problems(ruleset, document: dict[str, Any]) -> list[str]:
    """Why a generated ``document`` is not one the run can play: ``options`` set, schema violations, foreign words."""
    if not isinstance(document, dict):
        return [f"it built a {type(document).__name__}, not a scenario document (a JSON object)"]
    if "options" in document:
        return ["it sets `options`: a generator never does (the run draws the options and sets them)"]
    prepared = {**document, "options": ruleset.resolve_options({})}
    found = [f"not valid under the composed scenario schema at {where}: {message}"
             for where, message in schema_problems(prepared, "scenario", limit=2)]
    if not found and ruleset.vocabulary is not None:
        found = ruleset.vocabulary.foreign_words(prepared)[:2]
    return found


def check_generator(name: str, scenarios: int = 50, seed: int = 0) -> GeneratorVerdict:
    """The generator of ruleset ``name`` on the first ``scenarios`` scenarios of the run stream of ``seed``, in
    each edition (at most :data:`MAX_PROBLEMS` problems kept). Raises KeyError for an unknown ruleset."""
    ruleset, build = get_ruleset(name), builder_for(name)
    verdict = GeneratorVerdict(name, scenarios)
    for edition in ruleset.editions:
        for n in range(scenarios):
            if len(verdict.problems) >= MAX_PROBLEMS:
                return verdict
            where = f"scenario {n} of seed {seed} ({edition})"
            try:
                first = build(stream_source(seed, n), edition)
                again = build(stream_source(seed, n), edition)
            except Exception as error:  # a generator's bug, whatever it is, is reported as the generator's
                verdict.problems.append(f"{where}: it raised {type(error).__name__}: {error}")
                continue
            if _dump(first) != _dump(again):
                verdict.problems.append(f"{where}: built twice from the same seed, two different documents: a "
                                        f"generator must be a deterministic function of its source's answers (no "
                                        f"random module, clock, set order or state kept between calls)")
                continue
            verdict.problems += [f"{where}: {problem}" for problem in _document_problems(ruleset, first)]
    return verdict


def verdict_lines(verdict: GeneratorVerdict) -> list[str]:
    """The verdict as ``selftest`` prints it: one line, then one per problem."""
    if verdict.ok:
        return [f"generator {verdict.ruleset}: ok ({verdict.scenarios} scenarios per edition: deterministic, "
                f"schema-valid, its own words)"]
    return ([f"generator {verdict.ruleset}: FAULT (the generator's, not an engine's):"]
            + [f"    {problem}" for problem in verdict.problems])
