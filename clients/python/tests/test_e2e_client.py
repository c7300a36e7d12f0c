"""End to end: the Python client against the real host and Swift plugins."""

import socket
import tempfile

import pytest

from intentbus import (Answer, BusError, BusTimeout, Cancelled, ChoiceRequired, Client, ErrorCode, NoAnswer,
                       Progress, Prompt, Reply, Unanswered, UnknownIntent, UnknownPlugin)

from conftest import swift_echo_plugin, swift_test_plugin


def test_python_client_calls_a_swift_plugin(start_host):
    host = start_host([swift_test_plugin("alpha", ["AlphaIntent"]), swift_test_plugin("beta", ["BetaIntent"])])
    client = host.client()
    a = client.send("AlphaIntent", {"x": 1, "text": "Grüße / ☕"})
    b = client.send("BetaIntent", {"y": "z"}, client_id="kitchen")
    assert isinstance(a, Reply) and a.succeeded
    assert a.plugin == "alpha" and a.header["status"] == "success"
    assert a.body["params"] == {"x": 1, "text": "Grüße / ☕"}
    assert b.plugin == "beta" and b.body["params"] == {"y": "z"}
    assert b.body["client"] == "kitchen"


def test_number_classes_survive_the_round_trip(start_host):
    host = start_host([swift_echo_plugin()])
    body = {"integral": 1.0, "int": 1, "neg_zero": -0.0, "third": 1 / 3, "big": 9223372036854775807}
    reply = host.client().send("EchoIntent", body)
    assert reply.body == body
    assert type(reply.body["integral"]) is float and type(reply.body["int"]) is int


def test_value_prompt_from_a_swift_plugin(start_host):
    host = start_host([swift_test_plugin("alpha")])
    seen = []

    def on_prompt(p):
        seen.append(p)
        return "Bob"
    reply = host.client().send("TestIntent", {"ask": "name"}, on_prompt=on_prompt)
    assert [(p.kind, p.parameter, p.type, p.dialog) for p in seen] == [("value", "name", "String", "What is name?")]
    assert reply.body["answer"] == "Bob"


def test_confirmation_prompt_from_a_swift_plugin(start_host):
    host = start_host([swift_test_plugin("alpha")])
    reply = host.client().send("TestIntent", {"confirm": True}, on_prompt=lambda p: False)
    assert reply.body["confirmed"] is False


def test_progress_from_a_swift_plugin(start_host):
    host = start_host([swift_test_plugin("alpha")])
    updates = []
    reply = host.client().send("TestIntent", {"progress": 3}, on_progress=updates.append)
    assert [u.message for u in updates] == ["step 1 of 3", "step 2 of 3", "step 3 of 3"]
    assert updates[-1].fraction == 1.0
    assert reply.succeeded


def test_conversation_step_by_step(start_host):
    host = start_host([swift_test_plugin("alpha")])
    conv = host.client().start("TestIntent", {"ask": "city", "progress": 1})
    events = []
    for event in conv:
        events.append(event)
        if isinstance(event, Prompt):
            conv.answer("Köln")
    assert [type(e) for e in events] == [Progress, Prompt, Reply]
    assert events[-1].body["answer"] == "Köln"
    assert conv.done and conv.reply is events[-1]


def test_failure_status_is_a_reply_not_an_exception(start_host):
    host = start_host([swift_test_plugin("alpha")])
    reply = host.client().send("TestIntent", {"fail": True})
    assert reply.status == "failure" and not reply.succeeded


def test_unknown_intent_raises_with_the_code(start_host):
    host = start_host([swift_test_plugin("alpha", ["AlphaIntent"])])
    with pytest.raises(UnknownIntent) as e:
        host.client().send("NoSuchIntent")
    assert e.value.code is ErrorCode.UNKNOWN_INTENT
    assert "NoSuchIntent" in e.value.message
    assert e.value.details["known_intents"] == ["AlphaIntent"]
    assert isinstance(e.value, BusError)


def test_host_timeout_raises_bus_timeout(start_host):
    host = start_host([swift_test_plugin("slow", timeout="300ms")])
    client = host.client()
    with pytest.raises(BusTimeout) as e:
        client.send("TestIntent", {"sleep_ms": 5000})
    assert e.value.code is ErrorCode.TIMEOUT
    assert e.value.details["plugin"] == "slow"
    assert client.send("TestIntent", {"n": 2}).body["params"] == {"n": 2}


def test_request_timeout_overrides_the_plugins(start_host):
    host = start_host([swift_test_plugin("alpha", timeout="30s")])
    with pytest.raises(BusTimeout) as e:
        host.client().send("TestIntent", {"sleep_ms": 5000}, timeout=0.3)
    assert e.value.details["timeout_ms"] == 300


def test_no_host_raises_no_answer():
    with tempfile.TemporaryDirectory(prefix="ibpy-", dir="/tmp") as d:
        with Client(f"ipc://{d}/nobody.sock", slack=0.2) as client:
            with pytest.raises(NoAnswer) as e:
                client.send("TestIntent", timeout=0.2)
    assert isinstance(e.value, TimeoutError)
    assert "nobody.sock" in str(e.value)


def test_unanswered_prompt_cancels_the_request(start_host):
    host = start_host([swift_test_plugin("alpha")])
    client = host.client()
    with pytest.raises(Unanswered) as e:
        client.send("TestIntent", {"ask": "name"})
    assert e.value.prompt.parameter == "name"
    # The client read the final `cancelled` itself; the next request is unaffected.
    assert client.send("TestIntent", {"n": 1}).body["params"] == {"n": 1}
    client.ping()
    assert client.stray_messages == []


def test_cancel_ends_the_request_with_cancelled(start_host):
    host = start_host([swift_test_plugin("alpha")])
    conv = host.client().start("TestIntent", {"sleep_ms": 20000})
    conv.cancel()
    with pytest.raises(Cancelled):
        conv.next()
    with pytest.raises(Cancelled):  # the final answer stays the final answer
        conv.next()


def test_several_claimants(start_host):
    host = start_host([swift_test_plugin("zulu", ["SharedIntent"]), swift_test_plugin("alpha", ["SharedIntent"])],
                      wait_ready=["zulu", "alpha"])
    client = host.client()
    with pytest.raises(ChoiceRequired) as e:
        client.send("SharedIntent", choice="fail")
    assert [c["id"] for c in e.value.candidates] == ["alpha", "zulu"]
    assert client.send("SharedIntent", plugin="zulu").plugin == "zulu"
    with pytest.raises(UnknownPlugin):
        client.send("SharedIntent", plugin="nobody")


def test_plugin_choice_prompt_once_and_always(start_host):
    """docs/protocol.md §4.7: with the default `choice: ask`, the host asks which plugin;
    "always" is remembered for the client."""
    host = start_host([swift_test_plugin("zulu", ["SharedIntent"]), swift_test_plugin("alpha", ["SharedIntent"])],
                      wait_ready=["zulu", "alpha"])
    client = host.client()
    prompts = []

    def choose(remember):
        def answer(p):
            prompts.append(p)
            return Answer("zulu", remember=remember)
        return answer
    once = client.send("SharedIntent", {"n": 1}, client_id="tablet", on_prompt=choose("once"))
    assert once.plugin == "zulu"
    assert [p.kind for p in prompts] == ["plugin_choice"]
    assert prompts[0].option_ids == ["alpha", "zulu"]
    assert prompts[0].remember == ["once", "always"]
    assert client.send("SharedIntent", client_id="tablet", on_prompt=choose("always")).plugin == "zulu"
    assert len(prompts) == 2
    # Remembered: no prompt any more for this client (on_prompt=None would raise Unanswered).
    assert client.send("SharedIntent", {"n": 3}, client_id="tablet").plugin == "zulu"
    assert len(prompts) == 2


def test_many_conversations_on_one_client(start_host):
    host = start_host([swift_test_plugin("alpha")])
    client = host.client()
    slow = client.start("TestIntent", {"sleep_ms": 300, "i": 0})
    asking = client.start("TestIntent", {"ask": "x", "i": 1})
    fast = client.start("TestIntent", {"i": 2})
    assert fast.next().body["params"]["i"] == 2
    prompt = asking.next()
    assert isinstance(prompt, Prompt)
    assert slow.next().body["params"]["i"] == 0
    asking.answer(42)
    assert asking.next().body["answer"] == 42
    assert client.stray_messages == []


def test_async_client(start_host):
    import asyncio

    from intentbus import AsyncClient
    host = start_host([swift_test_plugin("alpha")])

    async def main():
        async with AsyncClient(host.frontend) as client:
            async def answer(p):
                await asyncio.sleep(0)
                return "Ada"
            progress = []
            asking = client.send("TestIntent", {"ask": "name", "progress": 2}, on_prompt=answer,
                                 on_progress=progress.append)
            plain = [client.send("TestIntent", {"i": i}) for i in range(3)]
            replies = await asyncio.gather(asking, *plain)
            with pytest.raises(UnknownIntent):
                await client.send("NoSuchIntent")
            assert (await client.ping())["protocol"] == 1
            return replies, progress, client.stray_messages

    replies, progress, stray = asyncio.run(main())
    assert replies[0].body["answer"] == "Ada"
    assert [r.body["params"]["i"] for r in replies[1:]] == [0, 1, 2]
    assert [p.fraction for p in progress] == [0.5, 1.0]
    assert stray == []


def test_endpoint_from_the_environment(start_host, monkeypatch):
    """INTENTBUS_ENDPOINT alone is enough for both clients (they once connected with the
    raw argument, None, and raised TypeError)."""
    import asyncio

    from intentbus import AsyncClient
    host = start_host([swift_test_plugin("alpha")])
    monkeypatch.setenv("INTENTBUS_ENDPOINT", host.frontend)
    client = Client()
    try:
        assert client.endpoint == host.frontend
        assert client.send("TestIntent", {"via": "env"}).body["params"] == {"via": "env"}
    finally:
        client.close()

    async def main():
        async with AsyncClient() as aclient:
            assert aclient.endpoint == host.frontend
            return await aclient.send("TestIntent", {"via": "aio"})

    assert asyncio.run(main()).body["params"] == {"via": "aio"}


def test_no_endpoint_anywhere_is_a_clear_error(monkeypatch):
    from intentbus import AsyncClient
    monkeypatch.delenv("INTENTBUS_ENDPOINT", raising=False)
    with pytest.raises(ValueError, match="INTENTBUS_ENDPOINT"):
        Client()
    with pytest.raises(ValueError, match="INTENTBUS_ENDPOINT"):
        AsyncClient()
