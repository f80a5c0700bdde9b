"""A stand-alone engine (standard library only) that plays nothing: every scenario gets an empty trace
(``{"entries": []}``), what a fresh engine's stub answers. Its traces show nothing of the scenarios."""

import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        send({"type": "started", "protocol": 1, "name": "empty", "version": "1",
              "rulesets": {"momon-wonder": ["1.0.0"]}})
    elif message["type"] == "configure":
        send({"type": "configured"})
    elif message["type"] == "run":
        send({"type": "result", "id": message["id"], "result": "trace",
              "trace": {"format": "trigger-conformance/trace/1", "entries": []}})
    elif message["type"] == "stop":
        break
