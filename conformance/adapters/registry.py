"""Turning what the user typed (``--engine``, ``--engine-cmd``) into an :class:`~reference_engine.kernel.engine.Engine`.

``--engine`` takes ``reference`` (the bundled reference engine of the ruleset being checked), ``mutant:NAME`` (a
bundled faulty engine, see ``reference_engine/<ruleset>/engines/faulty.py``), a name registered under the entry-point group
``trigger_conformance.engines``, or ``module:attribute`` for an in-process Python engine (a class or factory
returning an Engine, or an Engine instance). ``--engine-cmd 'PROGRAM ARGS'`` starts a process engine speaking the
JSON-lines protocol (split with shlex, never run through a shell); it is recorded as the spec ``cmd:PROGRAM ARGS``.

Where ``module:attribute`` is imported from: the installed packages and ``PYTHONPATH`` first, as Python does; a module
found nowhere there is then looked for in the current directory (a ``MODULE.py`` file or a ``MODULE/`` package), and
imported from there with a note on stderr saying so. The current directory is added at the end of ``sys.path``, so a
file there never shadows an installed module. Nothing is imported because a file names it: ``replay`` builds the
engine a replay file names only with ``--trust-file-engine``.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Iterable

from reference_engine.kernel.engine import Engine
from reference_engine.kernel.errors import EngineError, a_or_an

ENTRY_POINT_GROUP = "trigger_conformance.engines"


def _instantiate(target, spec: str) -> Engine:
    if callable(target) and not isinstance(target, Engine):
        try:
            engine = target()
        except Exception as exc:  # a factory that needs arguments, or that fails
            raise EngineError("unavailable", f"engine {spec!r}: calling it to make an Engine raised "
                              f"{type(exc).__name__}: {exc}") from None
    else:
        engine = target
    if not isinstance(engine, Engine):
        raise EngineError("unavailable", f"engine {spec!r} is {a_or_an(type(engine).__name__)}, not an Engine "
                          f"(see reference_engine.kernel.engine.Engine)")
    return engine


def import_engine_module(module_name: str):
    """Import ``module_name`` as Python would; if it is found nowhere, from the current directory (said on stderr).

    Raises whatever the import raises (ModuleNotFoundError when the current directory does not have it either).
    """
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        top = module_name.split(".")[0]
        here = os.getcwd()
        if exc.name not in (top, module_name) or here in sys.path or "" in sys.path:
            raise
        if not ((Path(here) / f"{top}.py").is_file() or (Path(here) / top / "__init__.py").is_file()):
            raise
        sys.path.append(here)  # last: what is installed keeps precedence
        print(f"trigger-conformance: {top} is not installed; importing it from the current directory {here}",
              file=sys.stderr)
        return importlib.import_module(module_name)


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'mw.queue-fifo'?)`` for a misspelt name, the closest of ``known`` (difflib's
    get_close_matches, at most three), or "" when nothing is close: appended to the message that rejects ``word``."""
    close = difflib.get_close_matches(word, list(known), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def _spec_hint(spec: str, exc: BaseException) -> str:
    """What a ``module:attribute`` spec that could not be loaded probably meant: the module's name for a file name
    (``myengine.py:MyEngine`` -> ``myengine:MyEngine``), a close module of the current directory, or a close name
    the module defines; "" when nothing is close."""
    module_name, _, attribute = spec.partition(":")
    if module_name.endswith(".py"):
        name = module_name[:-3].replace("/", ".").replace(os.sep, ".").lstrip(".")
        return f" (did you mean {name + ':' + attribute!r}? --engine takes a module's name, not its file)"
    if isinstance(exc, ModuleNotFoundError) and exc.name == module_name.split(".")[0]:
        here = [p.stem for p in Path.cwd().glob("*.py")] + [p.parent.name for p in Path.cwd().glob("*/__init__.py")]
        return did_you_mean(exc.name, here)
    if isinstance(exc, AttributeError):
        module = sys.modules.get(module_name)
        return did_you_mean(attribute, [n for n in dir(module) if not n.startswith("_")]) if module else ""
    return ""


def load_engine(spec: str, ruleset: str, timeout: float | None = None, restarts: int | None = None,
                max_trace_entries: int | None = None, memory: int | None = None, option_prefix: str = "--") -> Engine:
    """Build the engine named by ``spec`` for checking ``ruleset``. Raises EngineError("unavailable", ...).

    ``max_trace_entries`` (None: the default, 20,000) is the loop guard of the bundled engines (``reference`` and
    ``mutant:NAME``): a play writing more trace entries than that is reported as erroring. For a process engine it
    raises the harness's cap on the length of its traces (100,000) when larger; other engines ignore it.

    ``timeout`` (seconds per scenario), ``restarts`` (the restart budget) and ``memory`` (the cap on a process's data,
    MB; None: 2,048; 0: none) apply to process engines; in-process engines run in the harness's own
    process and cannot be interrupted, so only engines you trust to terminate should run in-process.
    ``option_prefix``: how the command that asked spells its options (``--trigger-`` under pytest), for the
    messages that name one.
    """
    if spec == "reference":
        from reference_engine.kernel.registry import reference_engine_for

        try:
            return reference_engine_for(ruleset, max_trace_entries)
        except KeyError as exc:
            raise EngineError("unavailable", str(exc.args[0])) from None
    if spec.startswith("cmd:"):
        from conformance.adapters.process import ProcessEngine

        command = spec[len("cmd:"):]
        if not command.strip():
            raise EngineError("unavailable", "the engine command is empty")
        settings = {k: v for k, v in (("timeout", timeout), ("restarts", restarts), ("memory_mb", memory))
                    if v is not None}
        engine = ProcessEngine(command, **settings)
        engine.timeout_option = f"{option_prefix}engine-timeout"
        if max_trace_entries is not None:  # the harness's cap on its traces (conformance.running.checking) rises with it
            engine.max_trace_entries = max_trace_entries
        return engine
    if spec.startswith("mutant:"):
        from reference_engine.kernel.registry import MUTANTS

        name = spec[len("mutant:"):]
        if name not in MUTANTS:
            raise EngineError("unavailable", f"no bundled mutant {name!r}{did_you_mean(name, MUTANTS)} (known: "
                              f"{', '.join(sorted(MUTANTS))})")
        engine = MUTANTS[name].factory()
        if max_trace_entries is not None:
            engine.max_trace_entries = max_trace_entries
        return engine
    if ":" in spec:
        module_name, _, attribute = spec.partition(":")
        try:
            module = import_engine_module(module_name)
            target = getattr(module, attribute)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # importing someone's module may raise anything, even SystemExit
            raise EngineError("unavailable", f"cannot load engine {spec!r}: {type(exc).__name__}: {exc}"
                              + _spec_hint(spec, exc)) from None
        return _instantiate(target, spec)
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == spec]
    if not found:
        known = sorted({ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)} | {"reference"})
        from reference_engine.kernel.registry import MUTANTS

        close = did_you_mean(spec, known + [f"mutant:{name}" for name in MUTANTS])
        raise EngineError("unavailable", f"no engine named {spec!r}{close} (known: {', '.join(known)}; or use "
                          f"module:attribute, mutant:NAME, or --engine-cmd)")
    try:
        target = found[0].load()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise EngineError("unavailable", f"cannot load engine {spec!r}: {type(exc).__name__}: {exc}") from None
    return _instantiate(target, spec)
