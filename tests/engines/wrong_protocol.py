"""A stand-alone engine (standard library only) that speaks protocol version 3 (one this harness does not speak)."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "started", "protocol": 3, "name": "future-engine", "version": "9.0",
                          "rulesets": {"momon-wonder": ["1.0.0"]}}), flush=True)
    elif message["type"] == "stop":
        break
