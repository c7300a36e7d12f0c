"""The client's conversation core without a socket (intentbus/client/core.py): the rules
both the blocking and the asyncio client follow, checked message by message."""

import pytest

from intentbus import Cancelled, Kind, Message, ProtocolViolation, Prompt, Reply
from intentbus.client import ClientCore
from intentbus.results import IntermediateResult


def frames(kind, rid, intent="", header=None, body=None):
    return Message.build(kind, rid, intent, header, body).encode()


def test_a_request_reads_prompt_refusal_result_and_reply_in_order():
    core = ClientCore(client_id="alice")
    conv = core.start("OrderCoffeeIntent", {"size": "small"}, timeout=2.5, plugin="coffee", remember=True)
    assert conv.request.kind is Kind.REQUEST and conv.request.intent == "OrderCoffeeIntent"
    assert conv.request.header_json() == {"timeout_ms": 2500, "plugin": "coffee", "remember": True, "client": "alice"}
    assert conv.request.body_json() == {"size": "small"}

    msg, routed = core.route(frames(Kind.PROMPT, conv.request_id, body={"kind": "value", "parameter": "beverage"}))
    prompt = routed.receive(msg)
    assert routed is conv and isinstance(prompt, Prompt) and conv.pending_prompt is prompt
    answer = conv.answer_message("latte", remember="always")
    assert (answer.kind, answer.request_id, answer.body_json()) == (
        Kind.ANSWER, conv.request_id, {"value": "latte", "remember": "always"})
    assert conv.pending_prompt is None

    # A REFUSED is not final: it is kept, and the request goes on.
    msg, _ = core.route(frames(Kind.REFUSED, conv.request_id, body={"code": "conversation_expired", "message": "late"}))
    assert conv.receive(msg) is None and not conv.done and len(conv.refusals) == 1

    msg, _ = core.route(frames(Kind.RESULT, conv.request_id, "FirstIntent", {"plugin": "a"}, {"x": 1}))
    assert isinstance(conv.receive(msg), IntermediateResult)
    msg, _ = core.route(frames(Kind.REPLY, conv.request_id, header={"plugin": "coffee", "status": "success"},
                               body={"dialog": "ok"}))
    reply = conv.receive(msg)
    assert isinstance(reply, Reply) and conv.done and reply.body == {"dialog": "ok"}
    assert [r.body for r in reply.earlier] == [{"x": 1}]
    assert conv.cancel_message() is None  # nothing to cancel once it is over
    with pytest.raises(ProtocolViolation):
        conv.receive(msg)  # a second final answer is the host's fault, never a second reply


def test_a_final_error_is_raised_and_kept():
    core = ClientCore()
    conv = core.start("Slow")
    cancel = conv.cancel_message()
    assert cancel is not None and cancel.kind is Kind.CANCEL
    msg, _ = core.route(frames(Kind.ERROR, conv.request_id, body={"code": "cancelled", "message": "by the client"}))
    with pytest.raises(Cancelled):
        conv.receive(msg)
    assert conv.done and isinstance(conv.error, Cancelled)


def test_messages_are_routed_by_id_and_strays_are_kept():
    core = ClientCore()
    a, b = core.start("A"), core.start("B")
    assert a.request_id != b.request_id
    _, routed = core.route(frames(Kind.PROGRESS, b.request_id, body={"message": "half"}))
    assert routed is b
    core.close(b.request_id)
    msg, routed = core.route(frames(Kind.REPLY, b.request_id, header={}, body={}))
    assert routed is None and core.stray_messages == [msg]
    # An ERROR with no id answers something the host could not parse: with one request
    # open it is that one's; with two it is nobody's.
    _, routed = core.route(frames(Kind.ERROR, "", body={"code": "bad_frame", "message": "x"}))
    assert routed is a
    core.start("C")
    _, routed = core.route(frames(Kind.ERROR, "", body={"code": "bad_frame", "message": "x"}))
    assert routed is None


def test_bad_options_and_reused_ids_are_refused_before_anything_is_sent():
    core = ClientCore()
    with pytest.raises(ValueError):
        core.start("A", timeout=0)
    with pytest.raises(ValueError):
        core.start("A", remember=True)
    core.start("A", request_id="r1")
    with pytest.raises(ValueError):
        core.start("A", request_id="r1")
    with pytest.raises(ProtocolViolation):
        core.route([b"not", b"IB1"])


def test_the_asyncio_client_gives_up_on_an_endpoint_nobody_serves(tmp_path):
    # Nothing is bound there, so the DEALER has no peer and takes no message: NoAnswer
    # after the slack (the blocking client's rule), not a wait without end.
    import asyncio
    import time

    from intentbus import AsyncClient, NoAnswer

    async def attempt():
        async with AsyncClient(f"ipc://{tmp_path}/nobody.sock", slack=0.3) as client:
            started = time.monotonic()
            with pytest.raises(NoAnswer):
                await client.send("EchoIntent", {}, timeout=1)
            return time.monotonic() - started

    assert asyncio.run(attempt()) < 3.0


def test_the_asyncio_client_sorts_answers_and_keeps_malformed_messages(tmp_path):
    # A fake host on a ROUTER: answers two requests out of order, with garbage between.
    import asyncio

    import zmq

    from intentbus import AsyncClient

    endpoint = f"ipc://{tmp_path}/fake.sock"
    ctx = zmq.Context()
    router = ctx.socket(zmq.ROUTER)
    router.linger = 0
    router.bind(endpoint)

    async def run():
        async with AsyncClient(endpoint) as client:
            first = asyncio.ensure_future(client.send("A", {"n": 1}, timeout=5))
            second = asyncio.ensure_future(client.send("B", {"n": 2}, timeout=5))
            got = []
            while len(got) < 2:
                await asyncio.sleep(0.01)
                try:
                    got.append(router.recv_multipart(zmq.NOBLOCK))
                except zmq.Again:
                    pass
            # Which of the two requests arrives first is the event loop's business: answer
            # B's first whichever it was, then A's, each by its intent.
            peer = got[0][0]
            by_intent = {frames[4]: frames[1:] for frames in got}
            a, b = by_intent[b"A"], by_intent[b"B"]
            router.send_multipart([peer, b"garbage"])
            for frames, body in ((b, b'{"n":"two"}'), (a, b'{"n":"one"}')):
                router.send_multipart([peer, b"IB1", b"REPLY", frames[2], frames[3], b'{"status":"success"}', body])
            replies = await asyncio.gather(first, second)
            return [r.body for r in replies], len(client.malformed), client.stray_messages

    try:
        bodies, malformed, strays = asyncio.run(run())
    finally:
        router.close()
        ctx.term()
    assert bodies == [{"n": "one"}, {"n": "two"}] and malformed == 1 and strays == []


def test_the_manifests_idempotent_intents_are_learned_from_ib_plugins():
    from intentbus.client import ClientCore

    core = ClientCore()
    assert not core.needs_manifest("X", None), "one host: nothing to resend"
    core.several_hosts = True
    assert core.needs_manifest("X", None) and not core.needs_manifest("X", False)
    assert not core.needs_manifest("ib.status", None)
    core.learn_idempotent({"plugins": [
        {"id": "a", "intents": ["X", "Y", "Z"], "idempotent": ["X", "Y"]},
        {"id": "b", "intents": ["Y"], "idempotent": []},  # Y: not every claimant marks it
        {"id": "c", "intents": "bad", "idempotent": [7]},  # hostile entries are skipped
        "nonsense",
    ]})
    assert core.manifest_idempotent == frozenset({"X"}) and not core.needs_manifest("X", None)
    assert core.start("X").idempotent and not core.start("Y").idempotent
    assert not core.start("X", idempotent=False).idempotent
    assert "run_key" in core.start("X").request.header_json()
    assert "run_key" not in (core.start("X", idempotent=False).request.header_json() or {})
    core.learn_idempotent(None)
    assert core.manifest_idempotent == frozenset()
