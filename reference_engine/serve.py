"""The reference engine serving the process protocol, version 2 (docs/protocol.md), on stdin and stdout.

    trigger-conformance-reference-server                  # every ruleset in reference_engine.kernel.registry.RULESETS
    trigger-conformance-reference-server --mutant NAME    # one bundled faulty engine (reference_engine.common.faulty)
    trigger-conformance-reference-server --protocol 1     # speak version 1 only: every choice asked through the protocol

The console script is the documented command. ``python -m reference_engine.serve`` works too, but puts the current
folder first on the import path, so a stray ``reference_engine.py`` or ``conformance.py`` there would be imported
instead of the package (``python -P -m reference_engine.serve`` does not: conformance.commands.selftest uses that).

It is the harness's own oracle behind the same wire protocol any third-party engine speaks, so that the process
adapter and its watchdog are tested on the real engine, and so that engine authors have a working peer. Player
choices are asked through the protocol (``choose`` / ``chosen``), except in a run request carrying
``local_choices`` (version 2), where the server answers them from the scenario's ``choices`` by the rules the
harness follows (:class:`reference_engine.kernel.choices.ScenarioChooser`) and lists them in its result.

A harness that breaks the protocol gets a one-line explanation on stderr and exit code 2 (there is no message in
the protocol for an engine to complain with).
"""

from __future__ import annotations

import abc
import argparse
import json
import sys
import traceback
from typing import Any, BinaryIO, Callable

from reference_engine.kernel.engine import Engine, Skipped
from conformance.adapters.process.wire import DECISIONS, ask, decode_line, encode_message
from conformance.documents.json_io import problems as schema_problems
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.registry import reference_engine_for

PROTOCOL_VERSION = 2  # the highest version the server speaks (``--protocol 1`` for the first)


class ProtocolViolation(Exception):
    """The harness sent something this server cannot follow."""


class Channel:
    """Newline-delimited JSON over a pair of binary streams, every incoming message checked against the protocol."""

    def __init__(self, reader: BinaryIO, writer: BinaryIO, validate: bool = True):
        self.reader = reader
        self.writer = writer
        self.validate = validate
        self.line_number = 0

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(encode_message(message))
        self.writer.flush()

    def receive(self) -> dict[str, Any] | None:
        """The next message, or None at the end of input."""
        while True:
            line = self.reader.readline()
            if not line:
                return None
            self.line_number += 1
            if line.strip():
                break
        try:
            message = decode_line(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ProtocolViolation(f"line {self.line_number} of stdin is not JSON: {exc}") from None
        except (ValueError, RecursionError) as exc:  # a lone surrogate, a huge integer, NaN...
            raise ProtocolViolation(f"line {self.line_number} of stdin is not a message the protocol can carry: "
                                    f"{exc}") from None
        if self.validate:
            found = schema_problems(message, "protocol-harness")
        elif not isinstance(message, dict) or not isinstance(message.get("type"), str):
            found = [("$", "a message is an object with a 'type'")]
        else:
            found = []
        if found:
            details = "; ".join(f"at {path}: {msg}" for path, msg in found)
            raise ProtocolViolation(f"line {self.line_number} of stdin is not a valid protocol message: {details}")
        return message


class _Decisions(abc.ABC):
    """The :class:`reference_engine.kernel.engine.Chooser` methods (``order``, ``optional``, ``choose``), each one ``self._decide(decision, player, *the
    question's fields)`` with the decision's name as in :data:`conformance.adapters.process.wire.DECISIONS`."""

    @abc.abstractmethod
    def _decide(self, decision: str, player: str, *arguments: Any) -> Any:
        """The answer to ``decision`` for ``player``; ``arguments`` are the question's fields, in DECISIONS' order."""

    def order(self, player: str, triggers: list[dict[str, Any]]) -> list[int]:
        return self._decide("order", player, triggers)

    def optional(self, player: str, trigger: dict[str, Any]) -> bool:
        return self._decide("optional", player, trigger)

    def choose(self, kind: str, player: str, context: dict[str, Any], candidates: list[Any]) -> int:
        return self._decide(kind, player, context, candidates)


class ProtocolChooser(_Decisions):
    """A :class:`reference_engine.kernel.engine.Chooser` that asks the harness, through the protocol, during one run."""

    def __init__(self, channel: Channel, run_id: Any):
        self.channel = channel
        self.run_id = run_id
        self.requests = 0

    def _ask(self, question: dict[str, Any]) -> Any:
        self.requests += 1
        self.channel.send({"type": "choose", "id": self.run_id, "request": self.requests, **question})
        answer = self.channel.receive()
        if answer is None:
            raise ProtocolViolation(f"stdin ended while choice {self.requests} of run {self.run_id!r} was pending")
        if answer["type"] != "chosen" or answer.get("id") != self.run_id or answer.get("request") != self.requests:
            raise ProtocolViolation(
                f"expected the answer to choice {self.requests} of run {self.run_id!r}, got {json.dumps(answer)[:200]}")
        return answer["answer"]

    def _decide(self, decision: str, player: str, *arguments: Any) -> Any:
        _, fields, valid = DECISIONS[decision]
        question = {"decision": decision, "player": player, **dict(zip(fields, arguments))}
        answer = self._ask(question)
        if not valid(answer, question):
            raise ProtocolViolation(f"the answer {answer!r} to choice {self.requests} ({decision}) of run "
                                    f"{self.run_id!r} does not fit the question")
        return answer


class LocalChooser(_Decisions):
    """Version 2's ``local_choices``: answers from the scenario's own ``choices`` as the harness would, and records
    every choice (the question's fields and the answer) for the result's ``choices``."""

    def __init__(self, scenario: dict[str, Any]):
        self.answers = ScenarioChooser(scenario)
        self.made: list[dict[str, Any]] = []

    def _decide(self, decision: str, player: str, *arguments: Any) -> Any:
        _, fields, _ = DECISIONS[decision]
        answer = ask(self.answers, decision, player, *arguments)
        self.made.append({"decision": decision, "player": player, **dict(zip(fields, arguments)), "answer": answer})
        return answer


class Server:
    """Serves engines built by ``factories`` (ruleset -> engine factory) for the editions in ``rulesets``."""

    def __init__(self, name: str, version: str, rulesets: dict[str, list[str]],
                 factories: dict[str, Callable[[], Engine]], channel: Channel, protocol: int = PROTOCOL_VERSION):
        self.protocol = protocol  # the version it answers the handshake with, 1 or 2
        self.name = name
        self.version = version
        self.rulesets = rulesets
        self.factories = factories
        self.channel = channel
        self.engines: dict[str, Engine] = {}
        self.configuration: dict[str, Any] | None = None

    def serve(self) -> int:
        started = False
        try:
            while True:
                message = self.channel.receive()
                if message is None:
                    return 0  # the harness went away: nothing left to do
                kind = message["type"]
                if kind == "stop":
                    return 0
                if kind == "start":
                    started = True
                    self.channel.send({"type": "started", "protocol": self.protocol, "name": self.name,
                                       "version": self.version, "rulesets": self.rulesets, "language": "python"})
                elif not started:
                    raise ProtocolViolation(f"the first message must be 'start', not {kind!r}")
                elif kind == "configure":
                    self.channel.send(self.configure(message))
                elif kind == "run":
                    self.channel.send(self.run(message))
                else:
                    raise ProtocolViolation(f"unexpected {kind!r} message outside a run")
        finally:
            for engine in self.engines.values():
                engine.close()

    def configure(self, message: dict[str, Any]) -> dict[str, Any]:
        ruleset, edition = message["ruleset"], message["edition"]
        if edition not in self.rulesets.get(ruleset, ()):
            self.configuration = None
            return {"type": "configured", "ok": False, "reason": f"{self.name} does not implement {ruleset} {edition}"}
        from reference_engine.kernel.registry import RULESETS

        if ruleset in RULESETS:
            try:
                RULESETS[ruleset].resolve_options(message["options"])
            except ValueError as exc:
                self.configuration = None
                return {"type": "configured", "ok": False, "reason": str(exc)}
        self.configuration = message
        return {"type": "configured", "ok": True}

    def run(self, message: dict[str, Any]) -> dict[str, Any]:
        run_id, scenario = message["id"], message["scenario"]
        if self.configuration is None:
            raise ProtocolViolation(f"run {run_id!r} arrived before a successful 'configure'")
        ruleset = self.configuration["ruleset"]
        if scenario["ruleset"] != ruleset or scenario["edition"] != self.configuration["edition"]:
            return {"type": "result", "id": run_id, "result": "errored", "context": {
                "message": f"the scenario is {scenario['ruleset']} {scenario['edition']} but the server is configured "
                           f"for {ruleset} {self.configuration['edition']}"}}
        if "options" not in scenario:
            scenario = {**scenario, "options": _default_options(ruleset, self.configuration["options"])}
        engine = self.engines.get(ruleset)
        if engine is None:
            engine = self.engines[ruleset] = self.factories[ruleset]()
        if message.get("local_choices") and self.protocol < 2:
            raise ProtocolViolation(f"run {run_id!r} carries local_choices, which protocol version 1 does not have")
        chooser = LocalChooser(scenario) if message.get("local_choices") else ProtocolChooser(self.channel, run_id)
        try:
            trace = engine.run(scenario, chooser)
        except ProtocolViolation:
            raise
        except Skipped as exc:
            answer = {"type": "result", "id": run_id, "result": "skipped", "reason": exc.reason}
            if exc.issue_url:
                answer["issue_url"] = exc.issue_url
            return answer
        except Exception as exc:
            return {"type": "result", "id": run_id, "result": "errored",
                    "context": {"message": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}}
        answer = {"type": "result", "id": run_id, "result": "trace", "trace": trace}
        if isinstance(chooser, LocalChooser) and chooser.made:
            answer["choices"] = chooser.made
        return answer


def _default_options(ruleset: str, configured: dict[str, Any]) -> dict[str, Any]:
    """The configured options, every default filled in (for a scenario sent without its options)."""
    from reference_engine.kernel.registry import RULESETS

    return RULESETS[ruleset].resolve_options(configured) if ruleset in RULESETS else dict(configured)


def reference_server(channel: Channel, protocol: int = PROTOCOL_VERSION) -> Server:
    """Every ruleset of :data:`reference_engine.kernel.registry.RULESETS`, each with its own reference engine."""
    from reference_engine import __version__
    from reference_engine.kernel.registry import RULESETS

    return Server(name="reference", version=__version__,
                  rulesets={name: list(r.editions) for name, r in RULESETS.items()},
                  factories={name: (lambda name=name: reference_engine_for(name)) for name in RULESETS}, channel=channel,
                  protocol=protocol)


def mutant_server(name: str, channel: Channel, protocol: int = PROTOCOL_VERSION) -> Server:
    """One bundled faulty engine (``reference_engine.common.faulty.MUTANTS[name]``), for the mutation self-check."""
    from reference_engine import __version__
    from reference_engine.kernel.registry import MUTANTS

    try:
        mutant = MUTANTS[name]
    except KeyError:
        raise SystemExit(f"reference server: no mutant {name!r} (known: {', '.join(sorted(MUTANTS))})") from None
    return Server(name=f"mutant:{name}", version=__version__, rulesets={mutant.ruleset: [mutant.edition]},
                  factories={mutant.ruleset: mutant.factory}, channel=channel, protocol=protocol)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="trigger-conformance-reference-server",
        description="Serve the reference engine (or one bundled mutant) over the trigger-conformance process "
                    "protocol, version 2 (or 1), on stdin and stdout.")
    parser.add_argument("--mutant", metavar="NAME", help="serve the bundled faulty engine NAME instead")
    parser.add_argument("--protocol", type=int, choices=(1, 2), default=PROTOCOL_VERSION,
                        help="the protocol version to answer the handshake with (default: %(default)s; 1 asks every "
                             "player choice through the protocol)")
    parser.add_argument("--no-validate", action="store_true",
                        help="do not check incoming messages against the protocol schema (faster)")
    args = parser.parse_args(argv)
    channel = Channel(sys.stdin.buffer, sys.stdout.buffer, validate=not args.no_validate)
    server = mutant_server(args.mutant, channel, args.protocol) if args.mutant else reference_server(channel, args.protocol)
    try:
        return server.serve()
    except ProtocolViolation as exc:
        print(f"reference server: the harness broke protocol version {server.protocol}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0  # the harness went away mid-answer
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
