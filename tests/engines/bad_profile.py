"""A process engine (the reference server) whose ``started`` message declares the generation profile given as its
first argument (JSON) for momon-wonder; with a second argument ``refuse``, it also exits (a crash, restarted by the
harness) on any scenario outside the profile of tests/profile_engines.py, and with ``log=FILE`` appends each
scenario it is handed to FILE."""

import json
import sys

from reference_engine.serve import Channel, reference_server, mutant_server


def main():
    profile = json.loads(sys.argv[1])
    flags = sys.argv[2:]
    channel = Channel(sys.stdin.buffer, sys.stdout.buffer)
    server = mutant_server("mw-lifo", channel) if "lifo" in flags else reference_server(channel)
    send = channel.send
    log = next((f[len("log="):] for f in flags if f.startswith("log=")), None)

    def announce(message):
        if message.get("type") == "started":
            message = {**message, "profiles": {"momon-wonder": profile}}
        send(message)

    channel.send = announce
    original = server.run

    def run(message):
        if log:
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps(message["scenario"]) + "\n")
        if "refuse" in flags:
            sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
            from profile_engines import outside_profile

            if outside_profile(message["scenario"]):
                sys.exit(7)
        return original(message)

    server.run = run
    sys.exit(server.serve())


if __name__ == "__main__":
    main()
