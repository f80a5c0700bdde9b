"""The reference server speaking protocol version 2, except that the 'order' choices it answers itself (in a run with
local_choices) go against the scenario's choices: the harness must report those runs as garbage. Choices it is asked
to ask (no local_choices) go through the protocol as usual. CONTRARY_UNASKED=1: it lists its choices in every result,
even of a run that did not carry local_choices."""

import os
import sys

from reference_engine import serve


class Contrary(serve.LocalChooser):
    def order(self, player, triggers):
        answer = list(reversed(self.answers.order(player, triggers)))
        self.made.append({"decision": "order", "player": player, "triggers": triggers, "answer": answer})
        return answer


class Unasked(serve.Server):
    def run(self, message):
        answer = super().run(message)
        answer.setdefault("choices", [{"decision": "optional", "player": "P1",
                                       "trigger": {"id": "T1", "ability": "A1", "source": "X"}, "answer": True}])
        return answer


serve.LocalChooser = Contrary
if os.environ.get("CONTRARY_UNASKED"):
    serve.Server = Unasked
sys.exit(serve.main())
