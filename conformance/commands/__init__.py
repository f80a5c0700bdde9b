"""The commands: what a user types. ``trigger-conformance`` (:mod:`.cli`, which parses and dispatches), ``run``
(:mod:`.run_command`), ``replay`` and ``check`` (:mod:`.play_commands`), ``selftest`` (:mod:`.selftest`) and the
generated trace reference pages (:mod:`.trace_reference`). The rules editors' commands live in
:mod:`conformance.editors`.

A command parses its input, builds what the other rooms need and prints; the work itself is done below it
(:mod:`conformance.running`, :mod:`conformance.generation`, :mod:`conformance.shrinking`, :mod:`conformance.documents`).
"""
