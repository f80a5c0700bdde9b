"""The layering of the project, enforced with import-linter contracts (pyproject.toml, [tool.importlinter]).

Engines (the reference engines and the faulty ones) depend only on the engine interface; the judge
(``reference_engine.core`` and ``reference_engine.rulesets``) never imports an engine, an adapter or the harness;
the rulesets are independent units. Each contract is also shown to break when an import it forbids is added, so
none of them can pass vacuously.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest
from importlinter.configuration import configure
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
TYPES = {"forbidden": ForbiddenContract, "independence": IndependenceContract, "layers": LayersContract}
SESSION = {"root_packages": CONFIG["root_packages"]}
configure()  # import-linter's own settings (its timer), as its command sets them up


def _contract(options: dict):
    options = dict(options)
    return TYPES[options.pop("type")](options.pop("name"), SESSION, options)


def _graph():
    return grimp.build_graph(*CONFIG["root_packages"])


def test_every_contract_is_kept():
    """What CI and a developer run: import-linter's own command over pyproject.toml."""
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"Contracts: {len(CONFIG['contracts'])} kept, 0 broken" in done.stdout


# One import each contract forbids: adding it to the real graph must break that contract.
FORBIDDEN_IMPORTS = {
    "The judge never imports an engine, an adapter or the harness": (
        "reference_engine.rulesets.mtg.invariants.rule_603_3b", "reference_engine.engines.mtg.engine"),
    "Engines depend only on the engine interface (conformance.adapters.base)": (
        "reference_engine.engines.mtg.engine", "reference_engine.rulesets.mtg.observations"),
    "The third-party engine adapters depend only on the engine interface, never on the judge": (
        "conformance.adapters.phase_engine", "reference_engine.rulesets.mtg"),
    "Each ruleset is one unit, independent of the others": (
        "reference_engine.rulesets.redemption.observations", "reference_engine.rulesets.momon_wonder.observations"),
    "Each reference engine is independent of the others": (
        "reference_engine.engines.redemption.engine", "reference_engine.engines.momon_wonder.engine"),
    "The harness is layered: CLI over sessions over the runner over checking over adapters": (
        "conformance.checking", "conformance.runner"),
}


def test_every_contract_has_a_breaking_import():
    assert set(FORBIDDEN_IMPORTS) == {c["name"] for c in CONFIG["contracts"]}


@pytest.mark.parametrize("contract", CONFIG["contracts"], ids=lambda c: c["name"][:40])
def test_contract_breaks_on_a_forbidden_import(contract):
    importer, imported = FORBIDDEN_IMPORTS[contract["name"]]
    assert _contract(contract).check(_graph(), verbose=False).kept
    broken = _graph()
    broken.add_import(importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}")
    assert not _contract(contract).check(broken, verbose=False).kept
