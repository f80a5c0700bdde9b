"""The pytest plugin: one test item per rule key and per fixture, so pytest-xdist spreads them over workers and
pytest writes JUnit XML. Registered under the ``pytest11`` entry point; inactive unless ``--conformance-spec`` or
``--conformance-ruleset`` is given.

Engine authors can run it inside their own pytest setup::

    pytest --pyargs conformance.suite --conformance-ruleset momon-wonder --conformance-engine mypkg:Engine -n 4

The item ids are stable: ``test_rule[mw.queue-fifo]``, ``test_fixture[mw-nested-packages]``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from conformance.documents import write_json
from conformance.errors import ConformanceError
from conformance.session import RunSpec, Session, explore_stream, exploration_from_parts, parse_option


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("trigger-conformance")
    group.addoption("--conformance-spec", help="a whole RunSpec as JSON (what the trigger-conformance CLI passes)")
    group.addoption("--conformance-ruleset", help="ruleset to check, e.g. momon-wonder")
    group.addoption("--conformance-edition", help="rules edition (default: the ruleset's newest)")
    group.addoption("--conformance-engine", default="reference", help="engine spec (reference, module:attr, ...)")
    group.addoption("--conformance-option", action="append", default=[], help="ruleset option NAME=VALUE")
    group.addoption("--conformance-max-examples", type=int, default=100, help="scenarios per rule")
    group.addoption("--conformance-seed", type=int, default=0, help="run seed")
    group.addoption("--conformance-database", help="Hypothesis example database folder for shrunk failures")
    group.addoption("--conformance-failures-dir", help="folder for replay files")
    group.addoption("--conformance-fixed-options", action="store_true",
                    help="options not given keep their defaults (by default each scenario draws them)")
    group.addoption("--conformance-audit", action="store_true",
                    help="also run the divergence audit: outcomes that differ from the reference engine's with no "
                         "invariant objecting (a gap in the judge, never a rule failure)")
    group.addoption("--conformance-results-dir", help="folder where each item writes its report entry as JSON")


def spec_from(config: pytest.Config) -> RunSpec | None:
    text = config.getoption("--conformance-spec")
    if text:
        return RunSpec.from_json(text)
    ruleset = config.getoption("--conformance-ruleset")
    if not ruleset:
        return None
    return RunSpec(
        ruleset=ruleset,
        edition=config.getoption("--conformance-edition"),
        engine=config.getoption("--conformance-engine"),
        options=dict(parse_option(o) for o in config.getoption("--conformance-option")),
        max_examples=config.getoption("--conformance-max-examples"),
        seed=config.getoption("--conformance-seed"),
        database=config.getoption("--conformance-database"),
        failures_dir=config.getoption("--conformance-failures-dir"),
        audit=config.getoption("--conformance-audit"),
        explore_options=not config.getoption("--conformance-fixed-options"),
    )


def pytest_configure(config: pytest.Config) -> None:
    try:
        spec = spec_from(config)
        session = Session(spec) if spec else None
        if session is not None and not config.getoption("--conformance-spec"):
            session.check_engine()  # the CLI checks it once before starting workers
    except ConformanceError as exc:
        raise pytest.UsageError(f"trigger-conformance: {exc}") from None
    config._conformance_session = session  # type: ignore[attr-defined]
    if session is None or config.option.collectonly:
        return
    worker = getattr(config, "workerinput", None)
    if worker is not None and worker.get("conformance_exploration"):
        session.use_exploration(_read_exploration(worker["conformance_exploration"]))
    elif worker is None:
        # The stream is explored once, here, before any worker starts: shared out among as many processes as
        # pytest-xdist will run workers; each worker then concludes (shrinks, explains) the rules it is given.
        exploration = explore_stream(spec, _workers(config))
        session.use_exploration(exploration)
        if config.pluginmanager.hasplugin("xdist"):
            folder = Path(config.getoption("--conformance-results-dir") or _scratch(config))
            path = folder / "exploration.json"
            write_json(path, _exploration_document(exploration))
            config.pluginmanager.register(_ShareExploration(str(path)), "conformance-share-exploration")


class _ShareExploration:
    """Hands the explored stream to every pytest-xdist worker."""

    def __init__(self, path: str):
        self.path = path

    def pytest_configure_node(self, node) -> None:
        node.workerinput["conformance_exploration"] = self.path


def _workers(config: pytest.Config) -> int:
    count = getattr(config.option, "numprocesses", None) if config.pluginmanager.hasplugin("xdist") else None
    if count in (None, 0) or getattr(config.option, "dist", "no") == "no":
        return 1
    return int(count) if str(count).isdigit() else (os.cpu_count() or 1)


def _scratch(config: pytest.Config) -> str:
    folder = tempfile.mkdtemp(prefix="trigger-conformance-exploration-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    return folder


def _exploration_document(exploration: dict) -> dict:
    audit = exploration["audit"]
    return {"rules": {key: share.as_dict() for key, share in exploration["rules"].items()},
            "audit": audit.as_dict() if audit is not None else None}


def _read_exploration(path: str) -> dict:
    return exploration_from_parts([json.loads(Path(path).read_text("utf-8"))])


def pytest_unconfigure(config: pytest.Config) -> None:
    session = getattr(config, "_conformance_session", None)
    if session is not None:
        session.close()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    session = getattr(metafunc.config, "_conformance_session", None)
    if "conformance_rule_key" in metafunc.fixturenames:
        # Unconfigured, one item that fails (in conformance_session) rather than an empty, green-looking suite.
        keys = session.rule_keys() if session else ["not-configured"]
        metafunc.parametrize("conformance_rule_key", keys, ids=keys)
    if "conformance_audit" in metafunc.fixturenames:
        audits = ["unexplained-divergence"] if session and session.spec.audit else []
        metafunc.parametrize("conformance_audit", audits, ids=audits)
    if "conformance_fixture_id" in metafunc.fixturenames:
        ids = [f.id for f in session.fixtures()] if session else []
        metafunc.parametrize("conformance_fixture_id", ids, ids=ids)


@pytest.fixture(scope="session")
def conformance_session(request: pytest.FixtureRequest) -> Session:
    session = getattr(request.config, "_conformance_session", None)
    if session is None:  # a conformance suite that checked nothing must not look green
        pytest.fail("no conformance run configured: give --conformance-ruleset (and --conformance-engine)",
                    pytrace=False)
    return session


@pytest.fixture
def conformance_record(request: pytest.FixtureRequest):
    """Write an item's report entry where the CLI collects it (``--conformance-results-dir``)."""
    folder = request.config.getoption("--conformance-results-dir")

    def record(kind: str, entry: dict) -> None:
        if folder:
            name = f"{kind}-{entry.get('key') or entry.get('id')}.json"
            write_json(Path(folder) / name, entry)  # atomically: an interrupted run reads whole entries only

    return record
