"""A Python legacy (SiriKit-style) plugin for the end-to-end tests; its intents are
defined in tests/definitions/pylegacy.yaml.

  PyResolveIntent  resolves `target` with the result `kind` names (one of every kind),
                   through the generic resolve(name, value, intent) method
  PyCodeIntent     a function handler (no confirm): `progress` updates, then the
                   response code `code` names, declared or not
  PyConfirmIntent  resolve_<param> and confirm: `ready`, or the custom code notAllowed
  PyInviteIntent   (with PYLEGACY_LISTS=1) a list parameter resolved item by item
  PyOptionsIntent  (with PYLEGACY_OPTIONS=1) dynamic options: `flavour`'s from
                   options_flavour (a dict and a plain value), none for `size`

With PYLEGACY_REQUEST_LOG set, every REQUEST PyResolveIntent and PyConfirmIntent receive
is appended there as "<intent> <phase>" (the one-trip tests count round trips); with
PYLEGACY_PHASED=1 their HELLO entries name no phases, as an SDK before one-trip wrote them.
"""

import os

from intentbus import LegacyHandler, Plugin, Resolution, Response

plugin = Plugin()

ALEXES = [{"id": "a1", "title": "Alex Meyer", "subtitle": "mobile", "value": "Alex Meyer"},
          {"id": "a2", "title": "Alex Schmidt", "value": "Alex Schmidt"}]


class ResolveHandler(LegacyHandler):
    def resolve(self, name, value, intent):
        if name != "target":
            return Resolution.success()
        kind = intent.kind
        if kind == "success":
            # Settles with a value of its own: the host takes it.
            return Resolution.success(value.upper() if value else "DEFAULT")
        if kind == "needsValue":
            return Resolution.needs_value() if value is None else Resolution.success()
        if kind == "notRequired":
            return Resolution.not_required()
        if kind == "unsupported":
            if value == "evil":
                return Resolution.unsupported("forbidden")
            if value == "odd":
                return Resolution.unsupported()  # no reason: the generic sentence
            return Resolution.needs_value() if value is None else Resolution.success()
        if kind == "confirmationRequired":
            return Resolution.needs_value() if value is None else Resolution.confirmation_required()
        if kind == "disambiguation":
            return Resolution.disambiguation(ALEXES) if value == "alex" else Resolution.success()
        return Resolution.success()

    def handle(self, intent):
        return Response.success(target=intent.target if intent.target is not None else "nothing")


@plugin.handler("PyCodeIntent", style="legacy")
def code_intent(intent):
    steps = intent.get("progress", 0)
    for i in range(steps):
        intent.progress(f"step {i + 1} of {steps}", fraction=(i + 1) / steps)
    return Response(intent.code, detail=f"{len(intent.codes)} codes declared")


class ConfirmHandler(LegacyHandler):
    def resolve_allow(self, value, intent):
        return Resolution.needs_value() if value is None else Resolution.success()

    def confirm(self, intent):
        return Response.ready() if intent.allow else Response("notAllowed")

    def handle(self, intent):
        return Response.success()


class InviteHandler(LegacyHandler):
    def resolve_guests(self, value, intent):
        # One result per guest, in order (SiriKit's resolveRecipients).
        if not value:
            return [Resolution.needs_value()]
        # "maybe" is confirmed every time it is resolved: the host does not ask twice.
        return [Resolution.disambiguation(ALEXES) if guest == "alex"
                else Resolution.confirmation_required() if guest == "maybe" else Resolution.success(guest)
                for guest in value]

    def handle(self, intent):
        return Response.success(guests=intent.guests)


class OptionsHandler(LegacyHandler):
    def options_flavour(self, intent):
        # The options may depend on what is known so far: nothing here, so the full list.
        return [{"id": "v", "title": "Vanilla", "subtitle": "classic", "value": "vanilla"}, "chocolate"]

    def handle(self, intent):
        return Response.success(flavour=intent.flavour, size=intent.size)


REQUEST_LOG = os.environ.get("PYLEGACY_REQUEST_LOG")
PHASED = os.environ.get("PYLEGACY_PHASED") == "1"


def observed(handler):
    """The handler, logging each REQUEST and (PHASED) announcing no phases."""
    serve = handler.serve

    def logged(request, ctx):
        if REQUEST_LOG:
            with open(REQUEST_LOG, "a") as log:
                log.write(f"{request.intent} {request.phase}\n")
        return serve(request, ctx)
    handler.serve = logged
    if PHASED:
        handler.declaration = lambda intent: {"name": intent, "style": "legacy"}
    return handler


plugin.add("PyResolveIntent", observed(ResolveHandler()))
if os.environ.get("PYLEGACY_OPTIONS") == "1":
    plugin.add("PyOptionsIntent", OptionsHandler())
if os.environ.get("PYLEGACY_LISTS") == "1":
    plugin.add("PyInviteIntent", InviteHandler())
plugin.add("PyConfirmIntent", observed(ConfirmHandler()))
plugin.run()
