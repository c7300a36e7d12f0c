"""A Python new-style (App Intents-style) plugin for the end-to-end tests.

  StartFocusSessionIntent  minutes (integer, default 25, 5…180), mood (enum Mood, default
                           calm), project (entity ProjectEntity, optional), note (optional);
                           more than 120 minutes asks to confirm the parameter, and a "no"
                           raises a needs-value error, which restarts perform()
  QuestionsIntent          ask (enum, required, no default: the host asks first) picks the
                           mid-perform question: value, confirm_intent, confirm_param,
                           disambiguate, needs_value (count must be ≥ 5; restarts)
  ListNotesIntent          migrated from LegacyNotesIntent; filter (string, optional)
  SecretNoteIntent         requires authentication
  ScheduleIntent           (with PYNEW_DATES=1) due (date, required), start (date, default 2026-12-01), link (url,
                           optional): the snippet shows the Python types perform() got
BasketIntent             (with PYNEW_LISTS=1) projects (a list of ProjectEntity), tags (a list
                           of strings, optional)
With PYNEW_INVALID=1 it also declares BrokenIntent, whose metadata the host refuses.
With PYNEW_SHORTCUTS=1 it declares app shortcuts (German and English phrases, an enum and
an entity slot) and StartFocusSessionIntent donates an activity; PYNEW_SHORTCUTS=bad
declares a phrase with neither the application name nor a slot. With PYNEW_CONTEXT=1 as
well, "Fokus hier mit …" runs StartFocusSessionIntent in a kitchen (its mood copied from the
request's context) and ListNotesIntent in an office unless the mood is wild, and the
focus snippet shows the context perform() saw; "Fokus für 30 Minuten mit …" and "leise
fokussieren mit …" fill an integer and a string parameter from the shortcut's lists.
With PYNEW_ENTITIES=1 as well, Garden has the synonym "Garten", the mood wild the synonym
"stürmisch", and AddProjectIntent (title) adds a project and says in its REPLY that the
ProjectEntity entities changed, so that "Focus on <the new title> with …" matches.
Every result's snippet reports what perform() saw and how often it ran.
"""

import datetime
import os
import threading

from intentbus import (APPLICATION_NAME, REQUIRES_AUTHENTICATION, AppIntent, AppShortcut, Entity, EntityQuery,
                       EntityType, EnumType, IntentDonation, IntentResult, Parameter, Plugin, slot)

SHORTCUTS = os.environ.get("PYNEW_SHORTCUTS")
CONTEXT = os.environ.get("PYNEW_CONTEXT") == "1"
ENTITIES = os.environ.get("PYNEW_ENTITIES") == "1"

PROJECTS = [Entity("p1", "Website relaunch", "due 2026-12-15"), Entity("p2", "Web shop"),
            Entity("p3", "Garden", "spring", synonyms=["Garten"] if ENTITIES else None)]


class ProjectQuery(EntityQuery):
    def entities_for(self, ids):
        return [p for p in PROJECTS if p.id in ids]

    def suggested(self):
        return PROJECTS[:2]

    def matching(self, text):
        return [p for p in PROJECTS if text.lower() in p.title.lower()]

    def all(self):
        return list(PROJECTS)


Project = EntityType("ProjectEntity", "Project", ProjectQuery())
Mood = EnumType("Mood", {"calm": "Calm", "wild": "Wild"}, synonyms={"wild": ["stürmisch"]} if ENTITIES else None)
Question = EnumType("Question", ["value", "confirm_intent", "confirm_param", "disambiguate", "needs_value"],
                    type_display_name="Question")

_performs = {}
_lock = threading.Lock()


def performed(ctx):
    """Counts perform() runs per request (a needs-value restart runs it again)."""
    with _lock:
        _performs[ctx.request.id] = _performs.get(ctx.request.id, 0) + 1
        return _performs[ctx.request.id]


class StartFocusSession(AppIntent):
    identifier = "StartFocusSessionIntent"
    title = "Start focus session"
    description = "Starts a focus session."
    category = "Productivity"
    minutes = Parameter("Minutes", int, description="Length in minutes.", default=25, range=(5, 180),
                        request_value_dialog="How long?")
    mood = Parameter("Mood", Mood, default="calm")
    project = Parameter("Project", Project, optional=True)
    note = Parameter("Note", str, optional=True)

    def perform(self, ctx):
        runs = performed(ctx)
        if self.minutes > 120 and not ctx.request_confirmation(f"{self.minutes} minutes is long. Sure?",
                                                               parameter="minutes", value=self.minutes):
            raise ctx.needs_value("minutes", "How many minutes, then?")
        ctx.progress("starting", fraction=0.5)
        snippet = {"minutes": self.minutes, "mood": self.mood, "note": self.note,
                   "project": self.project.id if self.project else None, "performs": runs}
        if CONTEXT:
            snippet["context"] = ctx.request.context
        return IntentResult(dialog=f"Focus for {self.minutes} minutes ({self.mood}).",
                            value=self.project, snippet=snippet,
                            donation=IntentDonation(identifier=f"focus-{self.mood}", group="focus", title="Focus",
                                                    suggested_phrase="Fokus bitte") if SHORTCUTS else None)


class Questions(AppIntent):
    identifier = "QuestionsIntent"
    title = "Ask a question"
    ask = Parameter("Question", Question, request_value_dialog="Which question?")
    count = Parameter("Count", int, optional=True, range=(1, 9))
    ratio = Parameter("Ratio", float, optional=True)
    flag = Parameter("Flag", bool, optional=True)

    def perform(self, ctx):
        runs = performed(ctx)
        snippet = {"performs": runs, "count": self.count}
        if self.ask == "value":
            snippet["answer"] = ctx.request_value("count", "How many?")
        elif self.ask == "confirm_intent":
            snippet["answer"] = ctx.request_confirmation("Go ahead?")
        elif self.ask == "confirm_param":
            snippet["answer"] = ctx.request_confirmation("Use 3 for count?", parameter="count", value=3)
        elif self.ask == "disambiguate":
            snippet["answer"] = ctx.request_disambiguation("ask", ["value", "disambiguate"], "Which one of these?")
        elif self.ask == "needs_value":
            if self.count is None or self.count < 5:
                raise ctx.needs_value("count", "A count of at least 5, please.")
            snippet["answer"] = self.count
        return IntentResult(dialog=f"Asked {self.ask}.", snippet=snippet)


class ListNotes(AppIntent):
    identifier = "ListNotesIntent"
    title = "List notes"
    migrated_from = "LegacyNotesIntent"
    filter = Parameter("Filter", str, optional=True)

    def perform(self, ctx):
        return IntentResult(dialog="Here are your notes.",
                            snippet={"filter": self.filter, "migrated_from": ctx.migrated_from})


class SecretNote(AppIntent):
    identifier = "SecretNoteIntent"
    title = "Read the secret note"
    authentication = REQUIRES_AUTHENTICATION

    def perform(self, ctx):
        return "The secret is safe."


class Schedule(AppIntent):
    identifier = "ScheduleIntent"
    title = "Schedule"
    due = Parameter("Due", datetime.date, request_value_dialog="When is it due?")
    start = Parameter("Start", datetime.date, default=datetime.date(2026, 12, 1))
    link = Parameter("Link", "url", optional=True)

    def perform(self, ctx):
        return IntentResult(dialog=f"Due {self.due.isoformat()}", value=self.due,
                            snippet={"due_type": type(self.due).__name__, "start_type": type(self.start).__name__,
                                     "start": self.start.isoformat(), "link": self.link})


class Broken(AppIntent):
    identifier = "BrokenIntent"
    title = "Broken"
    minutes = Parameter("Minutes", int, default=500, range=(5, 180))
    nameless = Parameter("", str, optional=True)


class AddProject(AppIntent):
    identifier = "AddProjectIntent"
    title = "Add a project"
    name = Parameter("Name", str)

    def perform(self, ctx):
        with _lock:
            PROJECTS.append(Entity(f"p{len(PROJECTS) + 1}", self.name))
        return IntentResult(dialog=f"Added {self.name}.", entities_changed=[Project])


class Basket(AppIntent):
    identifier = "BasketIntent"
    title = "Collect projects"
    projects = Parameter("Projects", [Project], request_value_dialog="Which projects?")
    tags = Parameter("Tags", [str], optional=True)

    def perform(self, ctx):
        return IntentResult(dialog="Basket: " + ", ".join(p.title for p in self.projects) + ".",
                            value=self.projects, snippet={"tags": self.tags})


plugin = Plugin()
if os.environ.get("PYNEW_LISTS") == "1":
    plugin.register(Basket)
for intent in (StartFocusSession, Questions, ListNotes, SecretNote):
    plugin.register(intent)
if ENTITIES:
    plugin.register(AddProject)
if os.environ.get("PYNEW_DATES") == "1":  # opt-in: other tests count the intents
    plugin.register(Schedule)
if os.environ.get("PYNEW_INVALID") == "1":
    plugin.register(Broken)
if SHORTCUTS == "1":
    plugin.register(AppShortcut(StartFocusSession, [f"Starte {APPLICATION_NAME}",
                                                    f"Fokus mit {slot(StartFocusSession.mood)} Stimmung",
                                                    f"Focus on {slot('project')} with {APPLICATION_NAME}"],
                                short_title="Fokus starten", system_image_name="timer"))
    if CONTEXT:
        plugin.register(AppShortcut(StartFocusSession, [f"Fokus hier mit {APPLICATION_NAME}"], short_title="Fokus in der Küche",
                                    requires_context={"area": ["Kitchen", "Küche"], "mood": {"slot": True}}))
        plugin.register(AppShortcut(ListNotes, [f"Fokus hier mit {APPLICATION_NAME}"], short_title="Notizen im Büro",
                                    requires_context={"area": "Office"}, excludes_context={"mood": "wild"}))
        # Lists for slots of other types: a range for the integer, values for the string.
        plugin.register(AppShortcut(StartFocusSession, [f"Fokus für {slot('minutes')} Minuten mit {APPLICATION_NAME}",
                                                        f"{slot('note')} fokussieren mit {APPLICATION_NAME}"],
                                    short_title="Fokus mit Liste",
                                    lists={"minutes": {"range": {"from": 5, "to": 180, "step": 5}},
                                           "note": {"values": ["laut", {"in": "(ruhig|leise)", "out": "quiet"}]}}))
elif SHORTCUTS == "bad":
    plugin.register(AppShortcut(StartFocusSession, ["Fokus jetzt"], short_title="Fokus"))
plugin.run()
