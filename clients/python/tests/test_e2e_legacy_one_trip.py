"""End to end: legacy in one round trip (docs/protocol.md §8.9) with the Python SDK. The
real host in front of tests/plugins/pylegacy.py, once as the SDK announces it (the `run`
phase among its HELLO `phases`) and once announcing none (PYLEGACY_PHASED, an SDK before
one-trip); the plugin logs every REQUEST it receives, so the tests count round trips."""

import pytest
import zmq

from intentbus.wire import Kind, Message

from conftest import py_legacy_plugin


class Side:
    """A host in front of the plugin, and the REQUESTs the plugin logged."""

    def __init__(self, start_host, tmp_path, name, phased):
        self.log = tmp_path / f"{name}.log"
        env = {"PYLEGACY_REQUEST_LOG": str(self.log)}
        if phased:
            env["PYLEGACY_PHASED"] = "1"
        self.host = start_host([py_legacy_plugin(env=env)], wait_ready=["pylegacy"])

    def taken(self):
        """The REQUESTs since the last call, as "<intent> <phase>"."""
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        self.log.unlink(missing_ok=True)
        return lines

    def send(self, intent, params, answers=()):
        prompts, pending = [], list(answers)

        def on_prompt(p):
            prompts.append(p.raw)
            assert pending, f"unexpected prompt {p.raw}"
            return pending.pop(0)
        reply = self.host.client().send(intent, params, on_prompt=on_prompt)
        assert pending == [], f"prompts not asked: {pending}"
        return prompts, (reply.succeeded, reply.header.get("code"), reply.body)


@pytest.fixture
def sides(start_host, tmp_path):
    return Side(start_host, tmp_path, "one", False), Side(start_host, tmp_path, "phased", True)


@pytest.mark.parametrize("intent,params", [
    ("PyResolveIntent", {"kind": "success", "target": "moon"}),   # resolve's own value reaches handle
    ("PyResolveIntent", {"kind": "notRequired"}),
    ("PyConfirmIntent", {"allow": True}),
    ("PyConfirmIntent", {"allow": False}),                        # confirm's code ends it: no handle
])
def test_everything_resolves_in_one_request_with_the_phased_answer(sides, intent, params):
    one, phased = sides
    prompts, fast = one.send(intent, params)
    _, slow = phased.send(intent, params)
    assert prompts == []
    assert fast == slow
    assert one.taken() == [f"{intent} run"]
    assert phased.taken() == [f"{intent} resolve", f"{intent} confirm"] + ([] if params.get("allow") is False
                                                                           else [f"{intent} handle"])


@pytest.mark.parametrize("params,answers,kinds", [
    ({"kind": "needsValue"}, ["mars"], ["value"]),
    ({"kind": "confirmationRequired", "target": "x"}, [False, "y", True], ["confirmation", "value", "confirmation"]),
    ({"kind": "disambiguation", "target": "alex"}, ["a2"], ["disambiguation"]),
    ({"target": "z"}, ["success"], ["value"]),                    # a required parameter without a value
])
def test_a_question_still_goes_to_the_client_in_the_middle(sides, params, answers, kinds):
    one, phased = sides
    prompts, fast = one.send("PyResolveIntent", params, answers)
    slow_prompts, slow = phased.send("PyResolveIntent", params, answers)
    assert [p["kind"] for p in prompts] == kinds
    assert prompts == slow_prompts
    assert fast == slow
    # One run per question, and one that finishes; the question stopped each before confirm.
    assert one.taken() == ["PyResolveIntent run"] * (len(kinds) + 1)
    assert phased.taken()[-2:] == ["PyResolveIntent confirm", "PyResolveIntent handle"]


def test_the_host_still_checks_the_clients_parameters(sides):
    one, _ = sides
    with pytest.raises(Exception) as raised:
        one.send("PyConfirmIntent", {"allow": "perhaps"})
    assert "allow" in str(raised.value)
    assert one.taken() == [], "the plugin was asked about parameters the host refuses"


def test_a_request_with_a_run_key_keeps_the_phased_flow(sides):
    """Run-once keys only the handle delivery (§4.10): a run that stopped early must not spend it."""
    one, _ = sides
    ctx = zmq.Context()
    try:
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.RCVTIMEO, 10_000)
        s.connect(one.host.frontend)
        s.send_multipart(Message.build(Kind.REQUEST, "keyed", "PyResolveIntent", {"run_key": "k-1", "client": "c1"},
                                       {"kind": "success", "target": "moon"}).encode())
        while True:
            msg = Message.decode(s.recv_multipart())
            if msg.kind.is_final:
                break
        s.close()
    finally:
        ctx.term()
    assert msg.kind is Kind.REPLY and msg.body_json()["dialog"] == "Done with MOON."
    assert one.taken() == ["PyResolveIntent resolve", "PyResolveIntent confirm", "PyResolveIntent handle"]
