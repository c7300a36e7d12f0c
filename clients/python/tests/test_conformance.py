"""The Python codec against the shared conformance vectors (conformance/*.json).

The Swift suite (Tests/IntentBusTests/ConformanceTests.swift) reads the same files;
both must produce and accept exactly these bytes.
"""

import datetime
import json
import math
import os
import subprocess
import sys

import pytest

from intentbus import BusError, ErrorCode, JSONValueError, Kind, Message, WireError, canonical_json, error_class
from intentbus.client import Prompt
from intentbus.plugin.backends import BackendLink
from intentbus.wire import INT64_MAX, INT64_MIN, MAX_JSON_DEPTH, parse_json

CONFORMANCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "conformance")


def load(name):
    with open(os.path.join(CONFORMANCE, name), encoding="utf-8") as f:
        return json.load(f)


def all_vectors():
    out = []
    for name in ("messages.json", "handshake.json", "errors.json", "json.json", "newstyle.json"):
        out += load(name)["vectors"]
    for name in ("conversations.json", "legacy.json", "newstyle.json"):
        for conv in load(name)["conversations"]:
            out += conv["steps"]
    return out


VECTORS = all_vectors()


def frames_of(v):
    return [bytes.fromhex(f["hex"]) for f in v["frames"]]


def same_json(a, b):
    """Equality that keeps number classes apart (Python's 1 == 1.0 == True would not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def test_there_are_vectors_for_every_kind():
    kinds = {v["message"]["kind"] for v in VECTORS}
    assert kinds == {k.value for k in Kind}


def test_there_is_an_error_vector_for_every_code():
    codes = {v["error_code"] for v in load("errors.json")["vectors"]}
    # host_lost is a client's own final answer (docs/protocol.md 4.10): never on the wire.
    assert codes == {c.value for c in ErrorCode} - {"host_lost"}


def test_there_are_conversations_for_every_prompt_kind():
    kinds = {s["message"]["body"]["kind"] for c in load("conversations.json")["conversations"]
             for s in c["steps"] if s["message"]["kind"] == "PROMPT"}
    assert kinds == {"value", "disambiguation", "confirmation", "plugin_choice"}


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_encode(v):
    m = v["message"]
    msg = Message.build(m["kind"], m["request_id"], m["intent"], m["header"], m["body"])
    assert msg.encode() == frames_of(v)


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_decode(v):
    m = v["message"]
    frames = frames_of(v)
    msg = Message.decode(frames)
    assert msg.kind is Kind(m["kind"])
    assert msg.request_id == m["request_id"]
    assert msg.intent == m["intent"]
    assert msg.header == frames[4] and msg.body == frames[5]
    header, body = msg.header_json(), msg.body_json()
    assert same_json(header, {} if m["header"] is None else m["header"])
    assert same_json(body, {} if m["body"] is None else m["body"])
    # Decoding and re-encoding gives the same bytes: number classes and key order survive.
    if m["header"] is not None:
        assert canonical_json(header) == frames[4]
    if m["body"] is not None:
        assert canonical_json(body) == frames[5]


@pytest.mark.parametrize("v", load("errors.json")["vectors"], ids=lambda v: v["name"])
def test_error_bodies_become_the_right_exception(v):
    body = Message.decode(frames_of(v)).body_json()
    err = BusError.from_body(body, request_id="r1")
    assert type(err) is error_class(v["error_code"])
    assert err.code.value == v["error_code"]
    assert err.message == body["message"]
    assert err.details == body.get("details", {})
    assert canonical_json(err.body) == frames_of(v)[5]


@pytest.mark.parametrize("v", [s for c in load("conversations.json")["conversations"] for s in c["steps"]
                               if s["message"]["kind"] == "PROMPT"], ids=lambda v: v["name"])
def test_prompt_bodies_parse(v):
    body = v["message"]["body"]
    p = Prompt.from_body(Message.decode(frames_of(v)).body_json())
    assert p.kind == body["kind"]
    assert p.dialog == body["dialog"]
    assert p.parameter == body.get("parameter")
    assert p.option_ids == [o["id"] for o in body.get("options", [])]
    assert p.remember == body.get("remember", [])


INVALID = load("malformed.json")["invalid"]


@pytest.mark.parametrize("v", INVALID, ids=[v["name"] for v in INVALID])
def test_malformed_frames_are_refused_with_their_code(v):
    with pytest.raises(WireError) as e:
        Message.decode(frames_of(v))
    assert e.value.code.value == v["error"]


BAD_JSON = load("malformed.json")["bad_json"]


@pytest.mark.parametrize("v", BAD_JSON, ids=[v["name"] for v in BAD_JSON])
def test_bad_json_decodes_as_frames_but_not_as_json(v):
    msg = Message.decode(frames_of(v))
    parse = msg.header_json if v["bad"] == "header" else msg.body_json
    with pytest.raises(WireError) as e:
        parse()
    assert e.value.code is ErrorCode.BAD_FRAME


@pytest.mark.parametrize("v", [v for v in BAD_JSON if "note" in v], ids=[v["name"] for v in BAD_JSON if "note" in v])
def test_the_canonical_writer_refuses_what_the_parser_refuses(v):
    # Python's own json reads these texts (a big int, inf, a lone surrogate, deep nesting);
    # the SDK must refuse to write the value with a bus error, never crash on it.
    frame = bytes.fromhex(v["frames"][4 if v["bad"] == "header" else 5]["hex"])
    value = json.loads(frame.decode("utf-8"))
    with pytest.raises(JSONValueError) as e:
        canonical_json(value)
    assert e.value.code is ErrorCode.BAD_FRAME
    assert isinstance(e.value, ValueError)


def test_json_bounds_are_accepted():
    assert parse_json(b"[9223372036854775807,-9223372036854775808]") == [INT64_MAX, INT64_MIN]
    assert canonical_json([INT64_MAX, INT64_MIN]) == b"[9223372036854775807,-9223372036854775808]"
    deepest = b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH
    assert canonical_json(parse_json(deepest)) == deepest
    assert parse_json('"\\ud83d\\ude00"'.encode()) == "\U0001F600"  # a pair is fine
    with pytest.raises(WireError):
        parse_json(b"[" * 100_000 + b"]" * 100_000)  # RecursionError inside json: still a WireError


def test_names_longer_than_255_bytes_are_not_encoded():
    with pytest.raises(WireError):
        Message.build("REQUEST", "r" * 256, "X", None, {}).encode()
    with pytest.raises(WireError):
        Message.build("REQUEST", "r", "ü" * 128, None, {}).encode()


def test_non_finite_numbers_are_not_json():
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})
    with pytest.raises(WireError):
        Message("REPLY", "r", "X", b"", b"NaN").body_json()


def test_vector_files_match_their_generator():
    r = subprocess.run([sys.executable, os.path.join(CONFORMANCE, "generate.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# -- the plugin SDK against the legacy and new-style vectors --------------------------------
#
# legacy.json and newstyle.json hold whole conversations. Here the SDK plays the plugin's
# part: every host → plugin message of a conversation is fed to a real `Plugin`'s
# dispatcher (no socket), and every plugin → host message the handlers write must be the
# vector's bytes, in order.

import itertools  # noqa: E402
import queue  # noqa: E402

from intentbus import (AppIntent, Entity, EntityQuery, EntityType, EnumType, IntentResult,  # noqa: E402
                       LegacyHandler, Parameter, Plugin, Resolution, Response)
from intentbus.examples import coffee  # noqa: E402


class KindsHandler(LegacyHandler):
    """KindsIntent: one parameter per resolution kind; QuotaIntent: no confirm, any code."""

    def resolve(self, name, value, intent):
        return {
            "s": lambda: Resolution.success(value.upper()),
            "nv": Resolution.needs_value,
            "nr": Resolution.not_required,
            "un": lambda: Resolution.unsupported("forbidden"),
            "cr": lambda: Resolution.confirmation_required(value),
            "di": lambda: Resolution.disambiguation([
                {"id": "a1", "title": "Alex Meyer", "subtitle": "mobile",
                 "value": {"identifier": "a1", "displayString": "Alex Meyer"}},
                {"id": "a2", "title": "Alex Schmidt"}]),
        }[name]()

    def handle(self, intent):
        return Response("quotaExceeded" if intent.detail != "bogus" else "bogus", detail=intent.detail)


class GuestsHandler(LegacyHandler):
    """InviteIntent: a list parameter resolved with one result per guest."""

    def resolve_guests(self, value, intent):
        alexes = [{"id": "a1", "title": "Alex Meyer", "value": "Alex Meyer"},
                  {"id": "a2", "title": "Alex Schmidt", "value": "Alex Schmidt"}]
        return [Resolution.disambiguation(alexes) if g == "alex" else Resolution.success(g) for g in value]

    def handle(self, intent):
        return Response.success()


PROJECTS = [Entity("p1", "Website relaunch", "due 2026-12-15"), Entity("p2", "Web shop")]


class Projects(EntityQuery):
    def entities_for(self, ids):
        return [p for p in PROJECTS if p.id in ids]

    def suggested(self):
        return PROJECTS

    def matching(self, text):
        return [p for p in PROJECTS if text.lower() in p.title.lower()]


class StartFocusSession(AppIntent):
    """The §9.1 example (newstyle.json's hello-new-style)."""
    identifier = "StartFocusSessionIntent"
    title = "Start focus session"
    description = "Starts a focus session."
    category = "Productivity"
    migrated_from = "LegacyFocusIntent"
    minutes = Parameter("Minutes", int, description="Length in minutes.", default=25, range=(5, 180),
                        request_value_dialog="How long?")
    project = Parameter("Project", EntityType("ProjectEntity", "Project", Projects()), optional=True)
    mood = Parameter("Mood", EnumType("Mood", {"calm": "Calm", "wild": "Wild"}), default="calm")

    def perform(self, ctx):
        if self.minutes > 120 and not ctx.request_confirmation(f"{self.minutes} minutes is long. Sure?",
                                                               parameter="minutes", value=self.minutes):
            raise ctx.needs_value("minutes", "How many minutes, then?")
        return IntentResult(dialog=f"Focus for {self.minutes} minutes ({self.mood}).", value=self.project,
                            snippet={"minutes": self.minutes, "mood": self.mood,
                                     "project": self.project.id if self.project else None})


def sdk_plugin(name, monkeypatch):
    plugin = Plugin(environ={}, plugin_id=name, backend="inproc://unused", token="5e6f708192a3b4c5")
    if name == "coffee":
        monkeypatch.setattr(coffee, "_orders", itertools.count(4711))
        plugin.add("OrderCoffeeIntent", coffee.OrderCoffeeHandler())
    elif name == "kinds":
        plugin.add("KindsIntent", KindsHandler())
        plugin.add("QuotaIntent", KindsHandler())
    elif name == "guests":
        plugin.add("InviteIntent", GuestsHandler())
    elif name == "focus":
        plugin.register(StartFocusSession)
    return plugin


SDK_CONVERSATIONS = load("legacy.json")["conversations"] + load("newstyle.json")["conversations"]


@pytest.mark.parametrize("conv", SDK_CONVERSATIONS, ids=[c["name"] for c in SDK_CONVERSATIONS])
def test_the_plugin_sdk_writes_the_vectors_bytes(conv, monkeypatch):
    plugin = sdk_plugin(conv["plugin"], monkeypatch)
    plugin_steps = [s for s in conv["steps"] if s["direction"] in ("host → plugin", "plugin → host")]
    assert plugin_steps, "a conversation for the SDK has plugin-side steps"
    link = BackendLink(0, "inproc://unused", None, None)
    link.state = "ready"  # past WELCOME
    for step in plugin_steps:
        if step["direction"] == "host → plugin":
            assert plugin._dispatch(frames_of(step), link, False) is None
        else:
            try:
                index, sent = plugin._outbox.get(timeout=10)
            except queue.Empty:
                pytest.fail(f"{step['name']}: the SDK sent nothing")
            assert index == 0 and sent.encode() == frames_of(step), step["name"]
    assert plugin._outbox.empty()


def test_the_sdk_writes_the_new_style_hello_of_the_vectors():
    v = next(v for v in load("newstyle.json")["vectors"] if v["name"] == "hello-new-style")
    plugin = Plugin(environ={}, plugin_id="focus", backend="inproc://unused", token="5e6f708192a3b4c5")
    plugin.register(StartFocusSession)
    body = plugin.hello_body()
    body["pid"] = v["message"]["body"]["pid"]  # the only field that depends on the process
    assert canonical_json(body) == frames_of(v)[5]


class Schedule(AppIntent):
    """Date and url parameters (newstyle.json's hello-new-style-dates; the Swift SDK's
    ScheduleIntent writes the same intent entry)."""
    identifier = "ScheduleIntent"
    title = "Schedule"
    description = "Schedules by date and link."
    due = Parameter("Due", datetime.date, request_value_dialog="When is it due?")
    start = Parameter("Start", datetime.date, default=datetime.date(2026, 12, 1))
    link = Parameter("Link", "url", optional=True)
    home = Parameter("Home", "url", default="https://example.com/home")

    def perform(self, ctx):
        return IntentResult(dialog=f"Due {self.due.isoformat()}")


def test_the_sdk_writes_the_date_and_url_hello_of_the_vectors():
    v = next(v for v in load("newstyle.json")["vectors"] if v["name"] == "hello-new-style-dates")
    plugin = Plugin(environ={}, plugin_id="schedule", backend="inproc://unused", token="5e6f708192a3b4c5")
    plugin.register(Schedule)
    body = plugin.hello_body()
    body["pid"] = v["message"]["body"]["pid"]  # the only field that depends on the process
    assert canonical_json(body) == frames_of(v)[5]
