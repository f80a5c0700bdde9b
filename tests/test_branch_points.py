"""Issue 28 item 1: every decision a permissive engine leaves to its oracle is a named branch point of its ruleset.

Each ruleset's ``judge/sentences.py`` lists its branch points (``BRANCH_POINTS``, exposed as ``Ruleset.branch_points``)
with the sentences each reads and the option naming it; the permissive engine asks every one through
``reference_engine.kernel.branching.choose``. The table and the engine must name the same ids, read from the
engine's source and seen on plays of every bundled fixture.
"""

from __future__ import annotations

import inspect
import re

import pytest

from conformance.editors.enumeration import enumerate_traces
from conformance.documents.fixture_files import bundled_fixtures
from reference_engine.common import permissive as common
from reference_engine.kernel.branching import BranchPoint, choose, player_points, table
from reference_engine.kernel.registry import choice_kinds, game_factory, get_ruleset

RULESETS = ["momon-wonder", "mtg", "redemption"]
# A branch point asked in source: choose(oracle, "id", ...) or permuted(oracle, "id", ...), the id a literal.
ASKED = re.compile(r"""(?:choose|permuted)\(\s*[\w.]+,\s*"([a-z][a-z-]*)\"""")


def engine_module(name: str):
    return inspect.getmodule(game_factory(name))


def asked_in_source(name: str) -> set[str]:
    module = engine_module(name)
    source = inspect.getsource(module)
    return set(ASKED.findall(source)) | {f"reading:{option}" for option in getattr(module, "READINGS", {})}


@pytest.mark.parametrize("name", RULESETS)
def test_the_table_names_exactly_the_branch_points_the_permissive_engine_asks(name):
    ruleset = get_ruleset(name)
    asked = asked_in_source(name)
    assert asked == set(ruleset.branch_points), (
        f"asked but not in {name}'s BRANCH_POINTS: {sorted(asked - set(ruleset.branch_points))}; listed but never "
        f"asked: {sorted(set(ruleset.branch_points) - asked)}")
    # The common chooser asks the kernel's two player points by name, and a unit's own as player-<kind>.
    assert set(ASKED.findall(inspect.getsource(common))) <= {"player-order", "player-optional"} | {"kind"}


@pytest.mark.parametrize("name", RULESETS)
def test_each_branch_point_reads_recorded_sentences_and_names_a_real_option(name):
    ruleset = get_ruleset(name)
    options = {o.name: o for o in ruleset.options}
    for point in ruleset.branch_points.values():
        assert isinstance(point, BranchPoint) and not point.player, point.id
        assert point.sentences and set(point.sentences) <= set(ruleset.sentences), point
        assert point.question, point.id
        if point.id.startswith("reading:"):
            assert point.option == point.id.split(":", 1)[1], point
        if point.option is not None:
            assert point.option in options, point
    named = {point.option for point in ruleset.branch_points.values() if point.option}
    assert named == set(options), f"every option is one branch point: unnamed {sorted(set(options) - named)}"
    module = engine_module(name)
    for option, values in getattr(module, "READINGS", {}).items():
        assert set(values) == set(options[option].values), option
    for option, kinds in getattr(game_factory(name), "option_branches", {}).items():
        assert all(ruleset.branch_points[kind].option == option for kind in kinds), option


@pytest.mark.parametrize("name", RULESETS)
def test_every_branch_point_met_on_the_fixtures_is_in_the_table(name):
    ruleset = get_ruleset(name)
    players = player_points(choice_kinds(name))  # the kernel's and the unit's own choice kinds'
    known = set(ruleset.branch_points) | set(players)
    met: set[str] = set()
    for fixture in bundled_fixtures(name):
        walk = enumerate_traces(fixture.scenario, (), player_choices="branch", prune=False, max_runs=60)
        met |= {d.kind for leaf in walk.leaves for d in leaf.decisions}
        player = {d.kind for leaf in walk.leaves for d in leaf.decisions if d.player is not None}
        assert player <= set(players), fixture.id
    assert met <= known, sorted(met - known)
    assert met & set(ruleset.branch_points), "the fixtures meet some branch point"


def test_choose_returns_the_oracle_s_alternative_and_refuses_a_bad_answer():
    class Fixed:
        def __init__(self, answer):
            self.answer, self.asked = answer, []

        def pick(self, kind, label, count, player=None):
            self.asked.append((kind, label, count, player))
            return self.answer

    oracle = Fixed(1)
    assert choose(oracle, "queue-next", ["a", "b", "c"], "which next") == "b"
    assert oracle.asked == [("queue-next", "which next", 3, None)]
    with pytest.raises(IndexError, match="queue-next"):
        choose(Fixed(3), "queue-next", ["a", "b", "c"], "which next")
    with pytest.raises(ValueError, match="no alternative"):
        choose(Fixed(0), "queue-next", [], "which next")
    with pytest.raises(ValueError, match="twice"):
        table(BranchPoint("x", ("1",), "q"), BranchPoint("x", ("1",), "q"))
