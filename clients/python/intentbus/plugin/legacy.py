"""Legacy (SiriKit-style) handlers in Python: resolve → confirm → handle
(docs/protocol.md §8).

The host drives the conversation from the intent's definition (a YAML file listed under
the plugin's `definitions:` in the manifest, docs/definitions.md) and sends the plugin one
phase request at a time; the plugin keeps no state between phases. A handler answers
each phase:

    from intentbus import LegacyHandler, Plugin, Resolution, Response

    class StatusHandler(LegacyHandler):
        def resolve_contract(self, value, intent):       # one method per parameter …
            return Resolution.needs_value() if value is None else Resolution.success()

        def confirm(self, intent):                        # optional
            return Response.ready()

        def handle(self, intent):
            intent.progress("asking the billing service", fraction=0.5)
            return Response("successData", balance="12,34 €")

    plugin = Plugin()
    plugin.add("StatusIntent", StatusHandler())
    plugin.run()

What goes over the wire for each phase:

- resolve: the header's `resolve` lists the parameters to resolve; the reply is
  `{"resolutions": {name: {"result": …, …}}}`;
- confirm: `{"implemented": false}` when the handler has no `confirm`, else
  `{"code": "ready"}` or `{"code": …, "response": {…}}`;
- handle: `{"code": …, "response": {…}}`;
- run (one trip, protocol.md §8.9): resolve, then confirm and handle while nothing
  needs the user; `{"resolutions": …, "confirm": …, "handle": …}` as far as it got;
- options: the header's `parameter` names a parameter whose definition says the plugin
  provides its options (`dynamicOptions`); the reply is `{"options": [{"id", "title",
  "subtitle"?, "value"?}…]}` (SiriKit's `provide<Parameter>OptionsCollection`), from
  `options_<parameter>(intent)` or `options(name, intent)`. A handler with neither
  answers `plugin_error`, and the host asks without options (docs/protocol.md §8.5).

Response codes are checked against the header's `codes` (every code the definition
declares) before anything is sent: an undeclared code is the handler's bug and answers
the request with `plugin_error` naming the declared codes.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Iterable, List, Optional

from ..errors import BusError, ErrorCode
from ..lists import resolution_json
from .context import Context
from .handlers import Handler
from .legacy_run import PHASES, run_phase
from .types import HandlerStyle, Request, Result

__all__ = ["Resolution", "Response", "LegacyIntent", "LegacyHandler", "LegacyFunctionHandler"]

_UNSET: Any = object()


class Resolution:
    """The outcome of resolving one parameter (docs/protocol.md §8.3).

    Build one with the class methods: `success`, `needs_value`, `not_required`,
    `unsupported`, `confirmation_required`, `disambiguation`.
    """

    __slots__ = ("result", "fields")

    def __init__(self, result: str, **fields: Any):
        #: The wire name: success, needsValue, notRequired, unsupported, confirmationRequired, disambiguation.
        self.result = result
        self.fields = fields

    @classmethod
    def success(cls, value: Any = _UNSET) -> "Resolution":
        """The parameter is settled: with `value` (normalized by the host like a client
        value; `None` clears it), or as it is when no value is given."""
        return cls("success") if value is _UNSET else cls("success", value=value)

    @classmethod
    def needs_value(cls) -> "Resolution":
        """Ask the user for a value (the parameter's primary prompt), then resolve again."""
        return cls("needsValue")

    @classmethod
    def not_required(cls) -> "Resolution":
        """The parameter may stay as it is, even empty."""
        return cls("notRequired")

    @classmethod
    def unsupported(cls, reason: Optional[str] = None) -> "Resolution":
        """The value won't do: the host says why (the `unsupportedReasons` entry named
        `reason`, else a generic sentence) and asks for another."""
        return cls("unsupported") if reason is None else cls("unsupported", reason=reason)

    @classmethod
    def confirmation_required(cls, value: Any = _UNSET) -> "Resolution":
        """Ask the user to confirm `value` (default: the current value): yes settles it,
        no clears it and resolves again."""
        return cls("confirmationRequired") if value is _UNSET else cls("confirmationRequired", value=value)

    @classmethod
    def disambiguation(cls, options: Iterable[Any]) -> "Resolution":
        """Ask the user to pick one of `options`: dicts `{"id", "title", "subtitle"?,
        "value"?}` or plain values (ids then default to the 1-based position, titles to
        the value's text). The chosen option's `value` (or its `id`) becomes the
        parameter's value, which is resolved again."""
        opts = list(options)
        if not opts:
            raise ValueError("a disambiguation needs at least one option")
        return cls("disambiguation", options=[o if isinstance(o, dict) else {"value": o} for o in opts])

    def to_json(self) -> Dict[str, Any]:
        """The resolution's wire form (`{"result": …, …}`)."""
        out = dict(self.fields)
        out["result"] = self.result
        return out

    def __repr__(self) -> str:
        return f"Resolution({self.result!r}, {self.fields!r})"


class Response:
    """A response code and its response parameters (docs/protocol.md §8.4–8.5):
    `Response("successData", balance="12,34 €")` or `Response("success", {"orderNumber": …})`.

    The code must be one the definition declares (the generic `unspecified`, `ready`,
    `continueInApp`, `inProgress`, `success`, `failure`, `failureRequiringAppLaunch`, and
    the file's own); the host renders its format strings with the parameters.
    """

    __slots__ = ("code", "parameters", "opens_intent")

    def __init__(self, code: str, parameters: Optional[Dict[str, Any]] = None, *, opens_intent: Any = None,
                 **more: Any):
        if not isinstance(code, str) or not code:
            raise ValueError("a response code is a non-empty string")
        self.code = code
        self.parameters: Dict[str, Any] = dict(parameters or {})
        self.parameters.update(more)
        #: With `continueInApp`: a `results.OpensIntent` the host runs next (docs/results.md).
        self.opens_intent = opens_intent

    @classmethod
    def ready(cls) -> "Response":
        """From `confirm`: go on to handle."""
        return cls("ready")

    @classmethod
    def success(cls, parameters: Optional[Dict[str, Any]] = None, **more: Any) -> "Response":
        """The generic `success` code."""
        return cls("success", parameters, **more)

    @classmethod
    def failure(cls, parameters: Optional[Dict[str, Any]] = None, **more: Any) -> "Response":
        """The generic `failure` code."""
        return cls("failure", parameters, **more)

    @classmethod
    def in_progress(cls, parameters: Optional[Dict[str, Any]] = None, **more: Any) -> "Response":
        """The generic `inProgress` code: the work goes on after the request ends."""
        return cls("inProgress", parameters, **more)

    def to_json(self) -> Dict[str, Any]:
        """The phase reply body: `{"code": …, "response": {…}}` (`{"code": "ready"}` for a
        plain ready, as §8.4 writes it)."""
        if self.code == "ready" and not self.parameters:
            return {"code": "ready"}
        out: Dict[str, Any] = {"code": self.code, "response": dict(self.parameters)}
        if self.opens_intent is not None:
            out["opens_intent"] = self.opens_intent.to_json()
        return out

    def __repr__(self) -> str:
        return f"Response({self.code!r}, {self.parameters!r})"


class LegacyIntent:
    """One phase request as a legacy handler sees it: the intent's parameter values so
    far (normalized by the host, docs/definitions.md "Values on the wire"), the phase,
    and the request's context for progress and questions.

    Parameters read as attributes (`intent.quantity`, None when absent) or through
    `intent.params`.
    """

    def __init__(self, request: Request, ctx: Context):
        self.request = request
        self.ctx = ctx
        #: The intent name (`OrderCoffeeIntent`).
        self.name = request.intent
        #: The parameter values so far; a parameter without a value is absent.
        self.params: Dict[str, Any] = dict(request.params) if isinstance(request.params, dict) else {}
        #: `resolve`, `confirm` or `handle`.
        self.phase = request.phase
        #: The client identity, when the client gave one.
        self.client = request.client
        codes = request.header.get("codes")
        #: Every response code the definition declares (confirm and handle); None in resolve.
        self.codes: Optional[List[str]] = [c for c in codes if isinstance(c, str)] if isinstance(codes, list) else None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.params.get(name)

    def get(self, name: str, default: Any = None) -> Any:
        """A parameter's value, or `default` when it has none."""
        value = self.params.get(name)
        return default if value is None else value

    def progress(self, message: Optional[str] = None, fraction: Optional[float] = None, **extra: Any) -> None:
        """Sends a PROGRESS update, relayed to the client at once (SiriKit's in-progress)."""
        self.ctx.progress(message, fraction, **extra)

    def __repr__(self) -> str:
        return f"LegacyIntent({self.name!r}, {self.phase!r}, {self.params!r})"


class LegacyHandler(Handler):
    """The base of legacy handlers: subclass it and override

    - `resolve_<parameter>(self, value, intent) -> Resolution` for the parameters that
      need resolving, or `resolve(self, name, value, intent)` for all of them (the
      default calls `resolve_<name>` when there is one, else settles the value as it is);
    - `confirm(self, intent) -> Response` (optional: without it the host goes straight
      to handle; returning None means ready);
    - `handle(self, intent) -> Response` (required);
    - `options_<parameter>(self, intent)` for a parameter with `dynamicOptions`, or
      `options(self, name, intent)` for all of them: the options the host offers when
      it asks for the value, a list of dicts `{"id", "title", "subtitle"?, "value"?}`
      or plain values (each its own id and title). None: no options.

    Returning None from a resolve method means `Resolution.success()`. Raise `BusError`
    to answer a phase with ERROR, which ends the client's request with it.
    """

    style = HandlerStyle.LEGACY

    def resolve(self, name: str, value: Any, intent: LegacyIntent) -> Optional[Resolution]:
        """Resolves one parameter; by default calls `resolve_<name>(value, intent)`."""
        method = getattr(self, f"resolve_{name}", None)
        if method is None:
            return Resolution.success()
        result: Optional[Resolution] = method(value, intent)
        return result

    def confirm(self, intent: LegacyIntent) -> Optional[Response]:
        """Checks that the intent can be handled now; not overridden = not implemented."""
        return None

    def handle(self, intent: LegacyIntent) -> Response:
        """Does the work and answers with a response code."""
        raise NotImplementedError(f"{type(self).__name__} does not implement handle()")

    def options(self, name: str, intent: LegacyIntent) -> Optional[Iterable[Any]]:
        """The options for parameter `name`; by default calls `options_<name>(intent)`,
        or None (no options) when there is none."""
        method = getattr(self, f"options_{name}", None)
        if method is None:
            return None
        result: Optional[Iterable[Any]] = method(intent)
        return result

    @property
    def implements_confirm(self) -> bool:
        """Whether a subclass overrides `confirm` (else the reply says `implemented: false`)."""
        return type(self).confirm is not LegacyHandler.confirm

    # -- the phases on the wire ----------------------------------------------------------

    def serve(self, request: Request, ctx: Context) -> Result:
        intent = LegacyIntent(request, ctx)
        phase = request.phase
        if phase == "resolve":
            return Result.success(self._resolve_phase(request, intent))
        if phase == "confirm":
            return Result.success(self._confirm_phase(intent))
        if phase == "handle":
            return Result.success(self._handle_phase(intent))
        if phase == "options":
            return Result.success(self._options_phase(request, intent))
        if phase == "run":
            return Result.success(run_phase(self, request, intent))
        raise BusError(ErrorCode.PLUGIN_ERROR,
                       f"{request.intent} is handled in the legacy style, but the request names no phase "
                       f"(resolve, confirm, handle or options); header: {request.header!r}")

    def declaration(self, intent: str) -> Dict[str, Any]:
        # The phases tell the host it may send `run` (one trip, protocol.md §8.9).
        return {"name": intent, "style": self.style.value, "phases": PHASES}

    def _confirm_phase(self, intent: LegacyIntent) -> Dict[str, Any]:
        if not self.implements_confirm:
            return {"implemented": False}
        return self._response_body(self.confirm(intent) or Response.ready(), intent, "confirm")

    def _handle_phase(self, intent: LegacyIntent) -> Dict[str, Any]:
        return self._response_body(self.handle(intent), intent, "handle")

    def _options_phase(self, request: Request, intent: LegacyIntent) -> Dict[str, Any]:
        name = request.header.get("parameter")
        if not isinstance(name, str) or not name:
            raise BusError(ErrorCode.PLUGIN_ERROR, f"the options phase of {request.intent} names no parameter")
        options = self.options(name, intent)
        if options is None:
            # The same words as the Swift SDK; the host logs them and asks without options.
            raise BusError(ErrorCode.PLUGIN_ERROR, f"the handler for {request.intent} provides no options for {name}")
        if isinstance(options, (str, bytes, dict)):
            raise TypeError(f"options for {request.intent}.{name} returned {options!r}, not a list of options")
        # A plain value is its own id and title; the host drops an option without a
        # string id and title, and repeats of an id (protocol.md §8.5).
        return {"options": [o if isinstance(o, dict) else {"id": str(o), "title": str(o), "value": o} for o in options]}

    def _resolve_phase(self, request: Request, intent: LegacyIntent) -> Dict[str, Any]:
        names = request.header.get("resolve")
        if not isinstance(names, list):
            names = sorted(intent.params)
        resolutions: Dict[str, Any] = {}
        for name in names:
            if not isinstance(name, str):
                continue
            out = self.resolve(name, intent.params.get(name), intent)
            # One Resolution, or a list of them: one per item of a list parameter.
            resolutions[name] = resolution_json(out, f"{request.intent}.{name}",
                                                functools.partial(_resolution, intent=request.intent, name=name))
        return {"resolutions": resolutions}

    def _response_body(self, response: Any, intent: LegacyIntent, phase: str) -> Dict[str, Any]:
        if isinstance(response, str):
            response = Response(response)
        if not isinstance(response, Response):
            raise TypeError(f"{phase} of {intent.name} returned {response!r}, not a Response")
        declared = intent.codes
        # `ready` ends confirm without a dialog, whatever the definition lists.
        ready_confirm = phase == "confirm" and response.code == "ready"
        if declared is not None and response.code not in declared and not ready_confirm:
            # The same words as the Swift SDK (conformance/legacy.json pins them).
            raise BusError(ErrorCode.PLUGIN_ERROR,
                           f"the handler for {intent.name} answered with response code '{response.code}', "
                           f"which {intent.name}'s definition does not declare (declared: {', '.join(declared)})",
                           {"code": response.code})
        return response.to_json()


def _resolution(out: Any, intent: str, name: str) -> Dict[str, Any]:
    if out is None:
        out = Resolution.success()
    if not isinstance(out, Resolution):
        raise TypeError(f"resolving {intent}.{name} returned {out!r}, not a Resolution")
    return out.to_json()


class LegacyFunctionHandler(LegacyHandler):
    """A legacy handler from functions: `handle(intent) -> Response`, and optionally
    `resolve(name, value, intent)`, `confirm(intent)` and `options(name, intent)`. What
    `@plugin.handler(intent, style="legacy")` makes of a decorated function (its handle)."""

    def __init__(self, handle: Callable[[LegacyIntent], Any],
                 resolve: Optional[Callable[[str, Any, LegacyIntent], Optional[Resolution]]] = None,
                 confirm: Optional[Callable[[LegacyIntent], Optional[Response]]] = None,
                 options: Optional[Callable[[str, LegacyIntent], Optional[Iterable[Any]]]] = None):
        self._handle = handle
        self._resolve = resolve
        self._confirm = confirm
        self._options = options

    def options(self, name: str, intent: LegacyIntent) -> Optional[Iterable[Any]]:
        return self._options(name, intent) if self._options else None

    def resolve(self, name: str, value: Any, intent: LegacyIntent) -> Optional[Resolution]:
        return self._resolve(name, value, intent) if self._resolve else Resolution.success()

    def confirm(self, intent: LegacyIntent) -> Optional[Response]:
        return self._confirm(intent) if self._confirm else None

    @property
    def implements_confirm(self) -> bool:
        return self._confirm is not None

    def handle(self, intent: LegacyIntent) -> Response:
        response: Response = self._handle(intent)
        return response

