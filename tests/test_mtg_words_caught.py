"""Issue 31: each new word's faulty engine, the one an author would plausibly write, is caught by its rule key on
every one of 20 seeds (conformance.commands.selftest.catch_rate, the stream ``run --seed SEED`` explores, 100 examples). Seed 0
runs with the quick suite, the other 19 with the slow one."""

from __future__ import annotations

import pytest

from conformance.commands.selftest import catch_rate

NEW_WORD_MUTANTS = ["mtg-spell-delayed-dropped", "mtg-dealt-read-as-deals", "mtg-damage-event-once",
                    "mtg-token-enters-silently", "mtg-cost-triggers-below", "mtg-combat-read-as-any-damage",
                    "mtg-that-player-unresolved"]
SEEDS = [0] + [pytest.param(seed, marks=(pytest.mark.slow, pytest.mark.nightly)) for seed in range(1, 20)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", NEW_WORD_MUTANTS)
def test_a_new_words_faulty_engine_is_caught_on_every_seed(name, seed):
    rate = catch_rate(name, [seed], 100)
    assert rate["caught"] == 1, rate
