"""The table of handler styles that `Plugin.handler(intent, style=…)` wraps functions in.

Each style is defined in its own module (handlers.py: plain; legacy.py: resolve → confirm
→ handle); this module names them all, so nothing registers itself on import and no
style module needs the `Plugin` class. New-style handlers are `AppIntent` classes, not
functions: `Plugin.register` installs them (appintents/).
"""

from __future__ import annotations

from typing import Dict, Type

from .handlers import Handler, PlainHandler
from .legacy import LegacyFunctionHandler
from .types import HandlerStyle

__all__ = ["StyleRegistry", "register_style", "DEFAULT_STYLES"]


class StyleRegistry:
    """Which `Handler` subclass wraps a function for each `HandlerStyle`."""

    def __init__(self, styles: Dict[HandlerStyle, Type[Handler]]):
        self._styles = dict(styles)

    def register(self, style: HandlerStyle, cls: Type[Handler]) -> None:
        """Makes functions of `style` be wrapped in `cls` (a `Handler` subclass whose
        constructor takes the function)."""
        if not (isinstance(cls, type) and issubclass(cls, Handler)):
            raise TypeError(f"a handler style needs a Handler subclass, not {cls!r}")
        self._styles[HandlerStyle(style)] = cls

    def handler_class(self, style: HandlerStyle) -> Type[Handler]:
        """The class that wraps functions of `style`; NotImplementedError for a style
        that functions can't have (new: an `AppIntent` class is its own handler)."""
        cls = self._styles.get(HandlerStyle(style))
        if cls is None:
            raise NotImplementedError(f"functions can't be {HandlerStyle(style).value}-style handlers: declare an "
                                      f"AppIntent class and plugin.register() it (docs/python.md)")
        return cls


#: The styles every `Plugin` starts with.
DEFAULT_STYLES: Dict[HandlerStyle, Type[Handler]] = {
    HandlerStyle.PLAIN: PlainHandler,
    HandlerStyle.LEGACY: LegacyFunctionHandler,
}

#: The process-wide table `Plugin.handler` uses.
STYLES = StyleRegistry(DEFAULT_STYLES)


def register_style(style: HandlerStyle, cls: Type[Handler]) -> None:
    """Makes `Plugin.handler(intent, style=style)` wrap functions in `cls`."""
    STYLES.register(style, cls)
