"""A stand-alone engine (standard library only) whose answers are chosen by the scenario's id, for protocol tests.

Ids: "skip..." -> skipped with an issue URL; "error-bare..." -> errored with a message alone; "error..." -> errored
with a context; "wrong-id..." -> a result with
another id; "bad-message..." -> a result that breaks the schema; "choose..." -> asks an order choice first and
returns a trace recording the answer; "exit..." -> exits with code 0 mid-run; "close-stdout..." -> closes its stdout mid-run and lives on; "close-stdin..." ->
closes its stdin, answers, and lives on; "ghost..." -> a trace naming what the scenario lacks; "ask-undeclared..." -> asks
a choice no ruleset declares; "ask-lacking..." -> asks MTG's target choice without its fields; anything else -> a
minimal trace.
Environment: SCRIPTED_DECLINE=1 answers every configure with ok false; SCRIPTED_NAME is the name it gives.
"""

import json
import os
import sys
import time


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def trace(extra=()):
    return {"format": "trigger-conformance/trace/1",
            "entries": [{"kind": "step_begin", "step": 0}, *extra, {"kind": "step_advance", "from": 0}]}


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "start":
        send({"type": "started", "protocol": 1, "name": os.environ.get("SCRIPTED_NAME", "scripted"), "version": "1",
              "rulesets": {"momon-wonder": ["1.0.0"]}})
    elif kind == "configure":
        if os.environ.get("SCRIPTED_DECLINE"):
            send({"type": "configured", "ok": False, "reason": "options not implemented",
                  "issue_url": "https://example.org/issues/7"})
        else:
            send({"type": "configured"})
    elif kind == "run":
        rid, name = message["id"], message["scenario"].get("id", "")
        print(f"scripted: run {rid} {name}", file=sys.stderr, flush=True)
        if name.startswith("skip"):
            send({"type": "result", "id": rid, "result": "skipped", "reason": "no summons yet",
                  "issue_url": "https://example.org/issues/1"})
        elif name.startswith("error-bare"):
            send({"type": "result", "id": rid, "result": "errored", "context": {"message": "boom"}})
        elif name.startswith("error"):
            send({"type": "result", "id": rid, "result": "errored",
                  "context": {"message": "KeyError: 'zone'", "traceback": "Traceback (most recent call last): ..."}})
        elif name.startswith("wrong-id"):
            send({"type": "result", "id": f"{rid}-not", "result": "trace", "trace": trace()})
        elif name.startswith("bad-message"):
            send({"type": "result", "id": rid, "result": "trace"})
        elif name.startswith("exit"):
            sys.exit(0)
        elif name.startswith("ghost"):  # a trace naming an object, an ability and a player the scenario lacks
            send({"type": "result", "id": rid, "result": "trace", "trace": trace([
                {"kind": "event", "id": "E1", "position": 1, "type": "signal", "cause": {"action": [0, 0]},
                 "name": "go", "player": "P9"},
                {"kind": "trigger", "id": "T1", "ability": "A404", "source": "NOPE", "controller": "P1",
                 "event": "E1"}])})
        elif name.startswith("close-stdout") or name.startswith("close-stdin"):
            os.close(0 if name.startswith("close-stdin") else 1)
            if name.startswith("close-stdin"):
                send({"type": "result", "id": rid, "result": "trace", "trace": trace()})
            time.sleep(60)  # alive, until the harness kills it
        elif name.startswith("ask-undeclared") or name.startswith("ask-lacking"):
            decision = "coin_flip" if name.startswith("ask-undeclared") else "target"
            send({"type": "choose", "id": rid, "request": 1, "decision": decision, "player": "P1"})
            time.sleep(60)  # waits for an answer that does not come: the harness ends the run
        elif name.startswith("choose"):
            send({"type": "choose", "id": rid, "request": 1, "decision": "order", "player": "P1",
                  "triggers": [{"ability": "A2", "source": "X"}, {"ability": "A1", "source": "X"}]})
            answer = json.loads(sys.stdin.readline())
            print(f"scripted: answer {answer}", file=sys.stderr, flush=True)
            send({"type": "result", "id": rid, "result": "skipped", "reason": f"chosen {answer['answer']}"})
        else:
            send({"type": "result", "id": rid, "result": "trace", "trace": trace()})
    elif kind == "stop":
        break
