"""A Python plugin for the results, snippets, authentication-policy and schema tests
(tests/test_e2e_results.py; docs/results.md, docs/schemas.md).

  PySearchIntent     implements system.search (criteria): a view with an "Open" action per match
  PyOpenIntent       item (string): "Opened <item> (<plugin id>)."
  PyFindAndOpenIntent  name: its result opens PyOpenIntent
  PyLockedIntent     requires authentication
  PyLocalOnlyIntent  requires local device authentication
  PyHandOverIntent   legacy (tests/definitions/pyflow.yaml): continueInApp hands over to PyOpenIntent
"""

import os

from intentbus import (REQUIRES_AUTHENTICATION, REQUIRES_LOCAL_DEVICE_AUTHENTICATION, SYSTEM_SEARCH, Action,
                       AppIntent, IntentResult, LegacyHandler, OpensIntent, Parameter, Plugin, Response, Row,
                       SnippetView)

PLUGIN = os.environ.get("INTENTBUS_PLUGIN_ID", "pyflow")
ITEMS = {"garden": "Garden shed", "website": "Website relaunch", "web-shop": "Web shop"}


class PyOpen(AppIntent):
    identifier = "PyOpenIntent"
    title = "Open item"
    item = Parameter("Item", str)

    def perform(self, ctx):
        return IntentResult(dialog=f"Opened {self.item} ({PLUGIN}).")


class PySearch(AppIntent):
    identifier = "PySearchIntent"
    title = "Search items"
    schema = SYSTEM_SEARCH
    criteria = Parameter("Criteria", str)

    def perform(self, ctx):
        found = [(k, v) for k, v in ITEMS.items() if self.criteria.lower() in v.lower()]
        rows = [Row(name, subtitle=key, actions=[Action("Open", OpensIntent(PyOpen, item=key))]) for key, name in found]
        return IntentResult(dialog=f"{PLUGIN} found {len(found)}.", view=SnippetView(rows, title="Items"))


class PyFindAndOpen(AppIntent):
    identifier = "PyFindAndOpenIntent"
    title = "Find and open"
    name = Parameter("Name", str)

    def perform(self, ctx):
        return IntentResult(dialog=f"Found {self.name}.", opens_intent=OpensIntent("PyOpenIntent", item=self.name))


class PyLocked(AppIntent):
    identifier = "PyLockedIntent"
    title = "Locked"
    authentication = REQUIRES_AUTHENTICATION

    def perform(self, ctx):
        return "unlocked"


class PyLocalOnly(AppIntent):
    identifier = "PyLocalOnlyIntent"
    title = "Local only"
    authentication = REQUIRES_LOCAL_DEVICE_AUTHENTICATION

    def perform(self, ctx):
        return "local and unlocked"


class HandOver(LegacyHandler):
    def handle(self, intent):
        item = intent.item or "garden"
        return Response("continueInApp", item=item, opens_intent=OpensIntent("PyOpenIntent", item=item))


plugin = Plugin()
for intent in (PyOpen, PySearch, PyFindAndOpen, PyLocked, PyLocalOnly):
    plugin.register(intent)
plugin.add("PyHandOverIntent", HandOver())
plugin.run()
