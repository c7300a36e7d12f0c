"""A Python legacy plugin on a real app's Xcode definition: home-assistant iOS's
`CallService` (../shared/apple/home-assistant-ios/Base.lproj/Intents.intentdefinition,
with its `<lang>.lproj/Intents.strings`), for the end-to-end test of a public app's
definition in German. `service`'s options are provided dynamically (a String parameter);
`payload` is asked for when missing; the service `light.explode` fails with the
definition's `failure` code."""

from intentbus import LegacyHandler, Plugin, Resolution, Response

plugin = Plugin()


class CallServiceHandler(LegacyHandler):
    def options_service(self, intent):
        return ["light.turn_on", "light.turn_off"]

    def resolve_service(self, value, intent):
        return Resolution.needs_value() if not value else Resolution.success()

    def resolve_payload(self, value, intent):
        return Resolution.needs_value() if not value else Resolution.success()

    def handle(self, intent):
        domain, _, service = intent.service.partition(".")
        if service == "explode":
            return Response.failure(error="unbekannter Dienst")
        return Response.success(domain=domain, service=service)


plugin.add("CallService", CallServiceHandler())
plugin.run()
