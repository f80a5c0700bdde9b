"""Answers run requests with messages that are JSON but hold what no protocol message may: chosen by scenario id.

"surrogate...": a skipped result whose reason holds a lone surrogate escape (\\ud800);
"surrogate-key...": an errored result whose context has a key with a lone surrogate;
"bigint...": a trace holding an integer of 5,000 digits; "hugeint...": an integer of 25 digits;
"nan...": a trace holding NaN; "deep...": an errored result whose context is nested 100,000 levels deep;
"deep-context...": an errored result whose context is nested 3,000 levels deep;
anything else: a minimal valid trace.
"""

import json
import sys


def send_raw(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def trace_with(value):
    return ('{"format": "trigger-conformance/trace/1", "entries": [{"kind": "step_begin", "step": %s}, '
            '{"kind": "step_advance", "from": 0}]}' % value)


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "start":
        send_raw(json.dumps({"type": "started", "protocol": 1, "name": "strange-text", "version": "1",
                             "rulesets": {"momon-wonder": ["1.0.0"]}}))
    elif kind == "configure":
        send_raw('{"type": "configured"}')
    elif kind == "run":
        rid, name = json.dumps(message["id"]), message["scenario"].get("id", "")
        if name.startswith("surrogate-key"):
            send_raw('{"type": "result", "id": %s, "result": "errored", "context": {"\\udc80x": "y"}}' % rid)
        elif name.startswith("surrogate"):
            send_raw('{"type": "result", "id": %s, "result": "skipped", "reason": "bad \\ud800 text"}' % rid)
        elif name.startswith("bigint"):
            send_raw('{"type": "result", "id": %s, "result": "trace", "trace": %s}' % (rid, trace_with("9" * 5000)))
        elif name.startswith("hugeint"):
            send_raw('{"type": "result", "id": %s, "result": "trace", "trace": %s}' % (rid, trace_with("9" * 25)))
        elif name.startswith("nan"):
            send_raw('{"type": "result", "id": %s, "result": "trace", "trace": %s}' % (rid, trace_with("NaN")))
        elif name.startswith("deep-context"):
            send_raw('{"type": "result", "id": %s, "result": "errored", "context": {"message": "m", "x": %s%s}}'
                     % (rid, "[" * 3000, "]" * 3000))
        elif name.startswith("deep"):
            send_raw('{"type": "result", "id": %s, "result": "errored", "context": %s%s}'
                     % (rid, "[" * 100000, "]" * 100000))
        else:
            send_raw('{"type": "result", "id": %s, "result": "trace", "trace": %s}' % (rid, trace_with("0")))
    elif kind == "stop":
        break
