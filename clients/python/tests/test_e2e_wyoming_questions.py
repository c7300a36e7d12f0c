"""End to end: a plugin's question asked back over Wyoming (docs/wyoming.md "Questions";
intentbus/wyoming_turns.py): the `handled` text is the question, with
`continue_conversation` in its context, and the next transcript of the same conversation
(the same connection, or the same `conversation_id` on another one, as Home Assistant
does) answers it; an answer that does not fit is asked again, "cancel" ends it, and a
connection that leaves cancels its question. Real host, real plugin (tests/plugins/pynew.py),
the PyPI `wyoming` client."""

import asyncio
import time

import pytest
from wyoming.asr import Transcript
from wyoming.client import AsyncTcpClient
from wyoming.handle import Handled, NotHandled

from intentbus import Answer
from intentbus.client import Prompt
from intentbus.wyoming_turns import answer_for

from conftest import py_new_plugin
from test_e2e_wyoming import Service, exchange


@pytest.fixture
def host(start_host):
    return start_host([py_new_plugin(env={"PYNEW_SHORTCUTS": "1"})], wait_ready=["pynew"])


@pytest.fixture
def service(host):
    client = host.client()
    client.send("ib.shortcuts.add", {"phrase": "ask me something", "intent": "QuestionsIntent",
                                     "parameters": {"ask": "value"}})
    client.send("ib.shortcuts.add", {"phrase": "pick one", "intent": "QuestionsIntent",
                                     "parameters": {"ask": "disambiguate"}})
    client.send("ib.shortcuts.add", {"phrase": "are you sure", "intent": "QuestionsIntent",
                                     "parameters": {"ask": "confirm_intent"}})
    s = Service(host)
    yield s
    s.stop()
    assert s.process.returncode == 0, s.log


def idle(host, seconds=10):
    """Whether the plugin has nothing in flight (the asked requests ended) within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = host.client().send("ib.status", {}).body
        if [p["in_flight"] for p in status["plugins"] if p["id"] == "pynew"] == [0]:
            return True
        time.sleep(0.1)
    return False


def test_the_next_transcript_answers_the_question(service, host):
    asked, wrong, answered, after = exchange(service.uri, Transcript("ask me something"), Transcript("lots"),
                                             Transcript("7"), Transcript("fokus mit Wild Stimmung"))
    question = Handled.from_event(asked)
    assert Handled.is_type(asked.type) and question.text == "How many?"
    assert question.context == {"continue_conversation": True, "intentbus_question": "value"}
    assert Handled.from_event(wrong).text == "Sorry, “lots” does not answer that. How many?"
    assert Handled.is_type(answered.type) and Handled.from_event(answered).text == "Asked value."
    assert Handled.from_event(after).text == "Focus for 25 minutes (wild)."  # a new request again
    assert idle(host)


def test_a_conversation_id_carries_the_question_to_the_next_connection(service, host):
    context = {"conversation_id": "c-9"}
    [asked] = exchange(service.uri, Transcript("pick one", context=context))
    assert Handled.from_event(asked).text.startswith("Which one of these? (")
    assert Handled.from_event(asked).context["conversation_id"] == "c-9"
    # Another conversation on another connection is a request of its own meanwhile.
    [other] = exchange(service.uri, Transcript("fokus mit Wild Stimmung", context={"conversation_id": "c-10"}))
    assert Handled.from_event(other).text == "Focus for 25 minutes (wild)."
    [answered] = exchange(service.uri, Transcript("disambiguate", context=context))
    assert Handled.from_event(answered).text == "Asked disambiguate."
    assert idle(host)


def test_cancel_and_a_connection_that_leaves_end_the_request(service, host):
    asked, cancelled = exchange(service.uri, Transcript("are you sure"), Transcript("cancel"))
    assert Handled.from_event(asked).text == "Go ahead?"
    assert NotHandled.is_type(cancelled.type)
    assert NotHandled.from_event(cancelled).text == "The question was not answered; the request is cancelled."
    assert idle(host)

    async def ask_and_leave():
        async with AsyncTcpClient.from_uri(service.uri) as client:
            client.read_timeout = 15
            await client.write_event(Transcript("ask me something").event())
            return await client.read_event()
    assert Handled.from_event(asyncio.run(ask_and_leave())).text == "How many?"
    assert idle(host)  # the connection's question was cancelled when it left


def test_answers_are_read_for_the_kind_of_question():
    def prompt(kind, type_=None, options=()):
        return Prompt(kind=kind, parameter=None, dialog="?", type=type_, options=list(options), remember=[], raw={})
    assert answer_for(prompt("confirmation"), "Yes, please") is True
    assert answer_for(prompt("confirmation"), "nein") is False
    assert answer_for(prompt("confirmation"), "maybe") is None
    options = [{"id": "a1", "title": "Living Room"}, {"id": "b2", "title": "Kitchen"}]
    assert answer_for(prompt("disambiguation", options=options), "the kitchen") is None
    assert answer_for(prompt("disambiguation", options=options), "Kitchen!") == "b2"
    assert answer_for(prompt("disambiguation", options=options), "1") == "a1"
    chosen = answer_for(prompt("plugin_choice", options=options), "living room")
    assert isinstance(chosen, Answer) and chosen.value == "a1"
    assert answer_for(prompt("value", "Integer"), "42") == 42
    assert answer_for(prompt("value", "integer"), "forty") is None
    assert answer_for(prompt("value", "decimal"), "2,5") == 2.5
    assert answer_for(prompt("value", "string"), "  Moon base ") == "Moon base"
