"""A partial MTG engine over the process protocol: the reference engine, declaring in its handshake that it cannot
play delayed or reflexive triggered abilities yet, and skipping any scenario that has one anyway."""

import json
import sys

from reference_engine.serve import Channel, reference_server

EXCLUDED = ["delayed", "reflexive"]


def main():
    channel = Channel(sys.stdin.buffer, sys.stdout.buffer)
    server = reference_server(channel)
    send = channel.send

    def announce(message):
        if message.get("type") == "started":
            message = {**message, "profiles": {"mtg": {"exclude": EXCLUDED}}}
        send(message)

    channel.send = announce
    original = server.run

    def run(message):
        text = json.dumps(message["scenario"])
        if '"create_delayed"' in text or '"reflexive"' in text:
            return {"type": "result", "id": message["id"], "result": "skipped",
                    "reason": "delayed and reflexive triggered abilities are not implemented yet"}
        return original(message)

    server.run = run
    sys.exit(server.serve())


if __name__ == "__main__":
    main()
