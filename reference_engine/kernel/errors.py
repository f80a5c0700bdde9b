"""The errors the harness raises. Each names where it went wrong; none is a bare traceback for the user."""

from __future__ import annotations


class ConformanceError(Exception):
    """Base class: an error the CLI reports in one clear paragraph (exit code 2)."""


class DocumentError(ConformanceError):
    """A JSON document (scenario, trace, fixture, replay file, report) does not match its schema.

    ``where`` names the document (a file path or a description such as "trace from engine X");
    ``problems`` lists ``(json_path, message)`` pairs, e.g. ``("$.objects[0].zone", "'board' is not one of ...")``.
    """

    def __init__(self, where: str, problems: list[tuple[str, str]]):
        self.where = where
        self.problems = problems
        lines = [f"{where} is not a valid document:"]
        lines += [f"  at {path}: {message}" for path, message in problems]
        super().__init__("\n".join(lines))


class ScenarioError(ConformanceError):
    """A scenario is well-formed JSON but inconsistent (an unknown object id, an active player who does not play...)."""


class EngineError(ConformanceError):
    """An engine misbehaved: it raised, returned something that is not a trace, or could not be loaded.

    ``outcome`` is one of the statuses of :class:`conformance.running.checking.EngineOutcome` (which describes them all):
    ``errored``, ``garbage``, ``unavailable``, and for process engines ``crashed``, ``out-of-memory``, ``timed-out``
    and ``wrong-protocol``. ``context`` holds anything that helps (a traceback); ``stderr`` what a process engine wrote
    on its stderr, when it has one.
    """

    def __init__(self, outcome: str, message: str, context: str = "", stderr: str = ""):
        self.outcome = outcome
        self.context = context
        self.stderr = stderr
        super().__init__(message)


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article, for messages: ``an int``, ``a str``, ``an EngineInfo``."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def signal_name(interrupt: BaseException) -> str:
    """The signal behind a KeyboardInterrupt: ``"SIGTERM"`` when the harness turned a SIGTERM into one (its argument
    is the signal's name or number), else ``"SIGINT"`` (Python's own Ctrl-C handler raises it without arguments)."""
    import signal

    arg = interrupt.args[0] if interrupt.args else None
    if isinstance(arg, int):
        try:
            return signal.Signals(arg).name
        except ValueError:
            return "SIGINT"
    return arg if arg in ("SIGINT", "SIGTERM") else "SIGINT"
