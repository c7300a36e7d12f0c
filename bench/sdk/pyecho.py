"""The echo plugin in Python, as a plugin author writes it (bench/sdk/instructions.sh,
bench/peers): `EchoIntent` answered by an ordinary plain handler, or (`--style new`) by
an `AppIntent` whose `perform` returns the text."""

import os
import sys

from intentbus import AppIntent, IntentResult, Parameter, Plugin

plugin = Plugin()
intent = os.environ.get("PYECHO_INTENT", "EchoIntent")
style = sys.argv[sys.argv.index("--style") + 1] if "--style" in sys.argv else "plain"

if style == "plain":
    @plugin.handler(intent)
    def echo(request, ctx):
        return request.params
else:
    class EchoIntent(AppIntent):
        identifier = intent
        title = "Echo"
        p = Parameter("Text", str)

        def perform(self, ctx):
            return IntentResult(value=self.p)  # the reply body: {"value": p}

    plugin.register(EchoIntent)

plugin.run()
