"""The plugin SDK: write an IntentBus plugin in Python (docs/python.md).

    from intentbus import Plugin

    plugin = Plugin()

    @plugin.handler("EchoIntent")
    def echo(request, ctx):
        return {"echo": request.params}

    plugin.run()

Layers, each importing only from the ones above it (tests/test_packaging.py checks that
the package has no import circle):

- types.py: `Request`, `Result`, `HandlerStyle`, `RequestCancelled`, `PluginStartError`;
- context.py: `Context`, a request's side of the conversation (prompts, progress);
- handlers.py: the `Handler` base and the plain style; _awaitable.py: async handlers;
- legacy.py and appintents/: the legacy (resolve → confirm → handle) and new (`AppIntent`,
  `perform()`) styles, subclasses of `Handler`;
- styles.py: the table of styles `Plugin.handler` wraps functions in;
- runtime.py (the socket loop), process.py, log_format.py;
- api.py: `Plugin`, which puts them together.
"""

from .api import HANDSHAKE_TIMEOUT, Plugin
from .context import Context
from .handlers import Handler, PlainHandler
from .log_format import JSONLogFormatter, _logger_for
from .styles import StyleRegistry, register_style
from .types import HandlerStyle, PluginStartError, Request, RequestCancelled, Result

__all__ = ["Plugin", "Context", "Request", "Result", "Handler", "PlainHandler", "HandlerStyle",
           "RequestCancelled", "PluginStartError", "register_style", "StyleRegistry", "HANDSHAKE_TIMEOUT",
           "JSONLogFormatter", "_logger_for"]
