"""End to end: the Wyoming service (intentbus/wyoming_service.py) as its own process, in
front of a real host with the new-style test plugin (tests/plugins/pynew.py, its app
shortcuts), driven by the PyPI `wyoming` package's client, the one Home Assistant uses:
describe, recognize, transcript → handled, a question turned into not-handled (`--questions
end`; test_e2e_wyoming_questions.py asks it back), malformed
events and clients that leave mid-event (docs/wyoming.md)."""

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest
from wyoming.asr import Transcript
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.event import async_read_event
from wyoming.handle import Handled, NotHandled
from wyoming.info import Describe, Info
from wyoming.intent import Intent, NotRecognized, Recognize
from wyoming.ping import Pong

from conftest import PACKAGE_DIR, py_new_plugin
from test_e2e_security import free_port


class Service:
    """`python -m intentbus.wyoming_service` on a free 127.0.0.1 port, stopped by its pid."""

    def __init__(self, host, *args):
        self.port = free_port()
        self.uri = f"tcp://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(PACKAGE_DIR))
        self.log_path = os.path.join(host.dir, f"wyoming-{self.port}.log")
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "intentbus.wyoming_service", "--uri", self.uri,
                                         "--endpoint", host.frontend, "--timeout", "10", *args],
                                        stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + 20
        while f"serving {self.uri}" not in self.log:
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the wyoming service did not start:\n{self.log}")
            time.sleep(0.05)

    @property
    def log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


@pytest.fixture
def host(start_host):
    return start_host([py_new_plugin(env={"PYNEW_SHORTCUTS": "1"})], wait_ready=["pynew"])


@pytest.fixture
def service(host):
    s = Service(host, "--language", "en", "--language", "de")
    yield s
    s.stop()
    assert s.process.returncode == 0, s.log  # SIGTERM is a clean stop


def exchange(uri, *events, replies=None):
    """Sends the events on one connection; returns the events read back (one per sent
    event, or `replies`)."""
    async def run():
        async with AsyncTcpClient.from_uri(uri) as client:
            client.read_timeout = 15
            for e in events:
                await client.write_event(e.event())
            return [await client.read_event() for _ in range(len(events) if replies is None else replies)]
    return asyncio.run(run())


def raw(port, data, read=True):
    """Writes raw bytes; returns the events read until the service closes the connection
    (or 5 s pass), or nothing when `read` is false (the client just leaves)."""
    async def run():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(data)
        await writer.drain()
        got = []
        if read:
            try:
                while True:
                    event = await asyncio.wait_for(async_read_event(reader), 5)
                    if event is None:
                        break
                    got.append(event)
            except asyncio.TimeoutError:
                got.append("open")  # the service kept the connection open
        writer.close()
        return got
    return asyncio.run(run())


def test_describe_lists_an_intent_and_a_handle_program_with_the_languages(service):
    [event] = exchange(service.uri, Describe())
    info = Info.from_event(event)
    assert [p.name for p in info.intent] == ["intentbus"] and [p.name for p in info.handle] == ["intentbus"]
    assert info.intent[0].models[0].languages == ["en", "de"]
    assert info.handle[0].models[0].languages == ["en", "de"]
    assert info.intent[0].installed and info.asr == [] and info.tts == []


def test_recognize_names_the_intent_and_its_slots_without_running_it(service, host):
    context = {"conversation_id": "c-1"}
    events = exchange(service.uri, Recognize("fokus mit Wild Stimmung!", context=context),
                      Recognize("Focus on garden with plugin pynew"), Recognize("Focus with the garden"),
                      Recognize("the moon is made of cheese"))
    assert Intent.is_type(events[0].type), events[0]
    wild = Intent.from_event(events[0])
    assert wild.name == "StartFocusSessionIntent"
    assert [(e.name, e.value) for e in wild.entities] == [("mood", "wild")]
    assert wild.context == context  # Home Assistant's conversation id comes back
    garden = Intent.from_event(events[1])
    assert garden.name == "StartFocusSessionIntent" and [e.name for e in garden.entities] == ["project"]
    # A misheard sentence is answered with the closest phrases.
    misheard = NotRecognized.from_event(events[2])
    assert NotRecognized.is_type(events[2].type)
    assert misheard.text == ("Sorry, I did not understand “Focus with the garden”. "
                             "Did you mean “Focus on … with Plugin pynew”?")
    assert misheard.context["closest"][0] == "Focus on ${project} with Plugin pynew"
    unrelated = NotRecognized.from_event(events[3])
    assert unrelated.text == "Sorry, I did not understand “the moon is made of cheese”." and unrelated.context is None
    # Nothing ran: recognizing records no donation.
    assert host.client().send("ib.donations.list", {}).body["donations"] == []


def test_transcript_runs_the_intent_and_answers_its_dialog(service, host):
    events = exchange(service.uri, Transcript("fokus mit Wild Stimmung!", context={"conversation_id": "c-2"}),
                      Transcript("Focus on garden with plugin pynew"), Transcript("the moon is made of cheese"))
    assert Handled.is_type(events[0].type), events[0]
    assert Handled.from_event(events[0]).text == "Focus for 25 minutes (wild)."
    assert Handled.from_event(events[0]).context == {"conversation_id": "c-2"}
    assert Handled.from_event(events[1]).text == "Focus for 25 minutes (calm)."
    assert NotHandled.is_type(events[2].type) and "did not understand" in NotHandled.from_event(events[2]).text
    # It really ran in the plugin: the result's donation was recorded.
    donations = host.client().send("ib.donations.list", {}).body["donations"]
    assert {d["identifier"] for d in donations} == {"focus-wild", "focus-calm"}


def test_a_question_becomes_not_handled_with_the_question_and_the_request_ends(host):
    """With `--questions end` (test_e2e_wyoming_questions.py has the default, asking back)."""
    service = Service(host, "--questions", "end")
    try:
        _a_question_ends_the_request(service, host)
    finally:
        service.stop()


def _a_question_ends_the_request(service, host):
    client = host.client()
    client.send("ib.shortcuts.add", {"phrase": "ask me something", "intent": "QuestionsIntent",
                                     "parameters": {"ask": "value"}})
    client.send("ib.shortcuts.add", {"phrase": "pick one", "intent": "QuestionsIntent",
                                     "parameters": {"ask": "disambiguate"}})
    asked, picked, after = exchange(service.uri, Transcript("ask me something"), Transcript("pick one"),
                                    Transcript("fokus mit Wild Stimmung"))
    assert NotHandled.from_event(asked).text == "How many?"
    assert NotHandled.from_event(picked).text.startswith("Which one of these? (")
    assert Handled.is_type(after.type)
    # Both questions' requests were cancelled and ended: nothing is open in the plugin.
    status = client.send("ib.status", {}).body
    assert [p["in_flight"] for p in status["plugins"] if p["id"] == "pynew"] == [0]
    assert status["host"]["open_exchanges"] <= 1  # this ib.status itself, at most


def test_transcripts_can_be_recognized_for_a_host_of_home_assistant_intents(host):
    s = Service(host, "--transcript", "recognize")
    try:
        [event] = exchange(s.uri, Transcript("fokus mit Wild Stimmung"))
        assert Intent.from_event(event).name == "StartFocusSessionIntent"
        [event] = exchange(s.uri, Describe())
        assert Info.from_event(event).intent[0].models[0].languages == ["en"]  # the default
    finally:
        s.stop()


def test_malformed_events_get_an_error_and_a_broken_stream_is_closed(service):
    not_json = raw(service.port, b"this is not json\n")
    assert len(not_json) == 1 and Error.from_event(not_json[0]).code == "malformed-event"
    huge = raw(service.port, b'{"type": "recognize", "data_length": 1000000000}\n')
    assert Error.from_event(huge[0]).code == "too-large" and len(huge) == 1  # closed, nothing buffered
    negative = raw(service.port, b'{"type": "recognize", "data_length": -5}\n')
    assert Error.from_event(negative[0]).code == "malformed-event"
    long_line = raw(service.port, b'{"type": "' + b"x" * 200_000 + b'"}\n')
    assert Error.from_event(long_line[0]).code == "too-large"
    bad_data = raw(service.port, b'{"type": "recognize", "data_length": 4}\n[1]\n')
    assert Error.from_event(bad_data[0]).code == "malformed-event"
    # Events whose framing is fine keep the connection: the error, then the next answer.
    kept = raw(service.port, b'{"type": "recognize", "data": {"text": 42}}\n'
                             b'{"type": "audio-chunk", "data": {"rate": 16000}}\n'
                             b'{"data": {}}\n'
                             b'{"type": "recognize", "data": {"text": "x"}, "data_length": 14}\n{"text": "hi"}'
                             b'{"type": "ping", "data": {"text": "still here"}}\n')
    assert [e.type for e in kept[:5]] == ["error", "error", "error", "not-recognized", "pong"], kept
    assert [Error.from_event(e).code for e in kept[:3]] == ["invalid-event", "unsupported-event", "malformed-event"]
    assert Pong.from_event(kept[4]).text == "still here" and kept[5] == "open"


def test_a_client_that_leaves_mid_event_does_not_disturb_the_next(service):
    raw(service.port, b'{"type": "transcr', read=False)                           # half a header line
    raw(service.port, b'{"type": "recognize", "data_length": 100}\n{"te', read=False)  # half the data
    raw(service.port, Transcript("fokus mit Wild Stimmung").event().type.encode(), read=False)
    [event] = exchange(service.uri, Transcript("fokus mit Wild Stimmung"))
    assert Handled.from_event(event).text == "Focus for 25 minutes (wild)."
    assert service.process.poll() is None
    assert "left mid-event" in service.log


def test_the_events_and_the_services_context_become_the_requests(start_host):
    host = start_host([py_new_plugin(env={"PYNEW_SHORTCUTS": "1", "PYNEW_CONTEXT": "1"})], wait_ready=["pynew"])
    s = Service(host, "--context", "area=Kitchen")  # a service for the kitchen's satellite
    try:
        handled, recognized = exchange(
            s.uri, Transcript("Fokus hier mit Plugin pynew", context={"conversation_id": "c-3", "mood": "wild"}),
            # An entry the host would refuse (an object) is left out, not sent.
            Recognize("Fokus hier mit Plugin pynew", context={"mood": "calm", "device": {"id": 7}}))
        assert Handled.from_event(handled).text == "Focus for 25 minutes (wild)."
        assert Handled.from_event(handled).context == {"conversation_id": "c-3", "mood": "wild"}
        intent = Intent.from_event(recognized)
        assert intent.name == "StartFocusSessionIntent" and [(e.name, e.value) for e in intent.entities] == [
            ("mood", "calm")]
    finally:
        s.stop()
    # A service without the kitchen's context: the phrase is not there.
    elsewhere = Service(host)
    try:
        [missed] = exchange(elsewhere.uri, Transcript("Fokus hier mit Plugin pynew", context={"mood": "wild"}))
        assert NotHandled.is_type(missed.type) and "did not understand" in NotHandled.from_event(missed).text
    finally:
        elsewhere.stop()


def test_connections_are_bounded_and_idle_ones_closed(host):
    s = Service(host, "--max-connections", "2", "--idle-timeout", "1")
    try:
        async def run():
            idle = [await asyncio.open_connection("127.0.0.1", s.port) for _ in range(2)]
            await asyncio.sleep(0.2)  # both are accepted and counted
            third_reader, third_writer = await asyncio.open_connection("127.0.0.1", s.port)
            busy = await asyncio.wait_for(async_read_event(third_reader), 5)
            third_writer.close()
            # The idle two are closed after a second without an event: EOF, no answer.
            ends = [await asyncio.wait_for(reader.read(), 5) for reader, _ in idle]
            for _, writer in idle:
                writer.close()
            return busy, ends
        busy, ends = asyncio.run(run())
        assert Error.from_event(busy).code == "busy" and "2 connections are open" in Error.from_event(busy).text
        assert ends == [b"", b""]
        [event] = exchange(s.uri, Describe())  # a slot is free again
        assert Info.is_type(event.type)
        assert "no complete event in 1 s" in s.log
    finally:
        s.stop()
