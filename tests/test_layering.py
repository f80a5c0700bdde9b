"""The layering of the project, enforced with import-linter contracts (pyproject.toml, [tool.importlinter]).

A ruleset is one folder on a small kernel: the kernel imports nothing else of ours; a ruleset's judge never imports
an engine or a generator; engines (reference, faulty, permissive, third-party adapters) depend only on the engine
interface; rulesets never import each other; the harness reaches rulesets only through the registry. Each contract is also shown to break when an import it forbids is added, so
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


# Imports each contract forbids: adding any one of them to the real graph must break that contract. Wildcard
# contracts get one per ruleset, so that no branch of a wildcard passes vacuously.
FORBIDDEN_IMPORTS = {
    "The kernel imports nothing else of ours": [
        ("reference_engine.kernel.ruleset", "conformance.running.runner"),
        ("reference_engine.kernel.engine", "reference_engine.common.reference"),
        ("reference_engine.kernel.registry", "reference_engine.mtg.judge"),
        ("reference_engine.kernel.traceview", "reference_engine.redemption.engines.reference"),
        ("reference_engine.kernel.source", "reference_engine.momon_wonder.generator"),
    ],
    "A ruleset's judge never imports an engine, a generator, the registry or the harness": [
        ("reference_engine.mtg.judge.invariants.rule_603_3b", "reference_engine.mtg.engines.reference"),
        ("reference_engine.momon_wonder.judge.observations", "reference_engine.momon_wonder.generator"),
        ("reference_engine.redemption.judge.options", "reference_engine.common.permissive"),
        ("reference_engine.mtg.judge.model", "reference_engine.kernel.registry"),
        ("reference_engine.redemption.judge", "conformance.running.checking"),
    ],
    "Engines depend only on the engine interface: never on a judge, a generator or the harness": [
        ("reference_engine.mtg.engines.reference", "reference_engine.mtg.judge.observations"),
        ("reference_engine.momon_wonder.engines.faulty", "reference_engine.momon_wonder.judge.options"),
        ("reference_engine.redemption.engines.permissive", "reference_engine.kernel.traceview"),
        ("reference_engine.common.recorder", "conformance.documents.json_io"),
        ("reference_engine.mtg.phase", "reference_engine.mtg.generator"),
    ],
    "The third-party engine adapters depend only on the engine interface, never on the rest of the harness": [
        ("reference_engine.mtg.phase", "reference_engine.common.recorder"),
        ("conformance.adapters.process", "conformance.running.checking"),
    ],
    "Rulesets never import each other": [
        ("reference_engine.redemption.judge.observations", "reference_engine.momon_wonder.judge.observations"),
        ("reference_engine.redemption.engines.reference", "reference_engine.momon_wonder.engines.reference"),
        ("reference_engine.mtg.generator", "reference_engine.redemption.generator"),
    ],
    "The harness reaches rulesets only through the registry": [
        ("conformance.running.runner", "reference_engine.mtg.judge.observations"),
        ("conformance.editors.enumeration", "reference_engine.redemption.engines.permissive"),
        ("conformance.commands.selftest", "reference_engine.momon_wonder.generator"),
        ("conformance.adapters.registry", "reference_engine.mtg.phase"),
    ],
    "The harness's rooms are layered: commands over the editors' tools over running over reports over generation and shrinking over adapters over documents": [
        ("conformance.documents.json_io", "conformance.adapters.registry"),
        ("conformance.generation.stream", "conformance.shrinking.reduction"),
        ("conformance.shrinking.shrinker", "conformance.generation.profiles"),
        ("conformance.running.session", "conformance.commands.cli"),
        ("conformance.reports.render", "conformance.running.recorder"),
    ],
    "The harness is layered: CLI over sessions over the runner over checking over adapters": [
        ("conformance.running.checking", "conformance.running.runner"),
    ],
}


def test_every_contract_has_a_breaking_import():
    assert set(FORBIDDEN_IMPORTS) == {c["name"] for c in CONFIG["contracts"]}


@pytest.mark.parametrize("contract", CONFIG["contracts"], ids=lambda c: c["name"][:40])
def test_contract_breaks_on_a_forbidden_import(contract):
    graph = _graph()
    assert _contract(contract).check(graph, verbose=False).kept
    for importer, imported in FORBIDDEN_IMPORTS[contract["name"]]:
        broken = _graph()
        broken.add_import(importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}")
        assert not _contract(contract).check(broken, verbose=False).kept, (importer, imported)
