"""End to end: a Python legacy (SiriKit-style) plugin under the real host
(tests/plugins/pylegacy.py, definitions in tests/definitions/pylegacy.yaml): every
resolution kind, confirm present and absent, response codes (custom, undeclared) with
their rendered dialogs, and progress."""

import json
import subprocess
import sys

import pytest
import zmq

from intentbus import PluginError

from conftest import PYLEGACY, PYLEGACY_DEFINITIONS, REPO, binary, coffee_plugin, plugin_entry, py_legacy_plugin


def converse(host, intent, params, answers=()):
    """Sends a request, answering the prompts from `answers` in order; returns the
    prompts, the progress updates and the reply."""
    prompts, progress = [], []
    pending = list(answers)

    def on_prompt(p):
        prompts.append(p)
        assert pending, f"unexpected prompt {p.raw}"
        return pending.pop(0)
    reply = host.client().send(intent, params, on_prompt=on_prompt, on_progress=progress.append)
    assert pending == [], f"prompts not asked: {pending}"
    return prompts, progress, reply


@pytest.fixture
def host(start_host):
    return start_host([py_legacy_plugin()], wait_ready=["pylegacy"])


def test_success_settles_with_the_plugins_value(host):
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "success", "target": "moon"})
    assert prompts == []
    assert reply.succeeded and reply.plugin == "pylegacy"
    assert reply.body["parameters"] == {"kind": "success", "target": "MOON"}
    assert reply.body["dialog"] == "Done with MOON."
    assert reply.body["code"] == "success" and reply.header["code"] == "success"


def test_needs_value_asks_with_the_primary_prompt(host):
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "needsValue"}, ["mars"])
    assert [(p.kind, p.parameter, p.dialog, p.raw["type"]) for p in prompts] == [
        ("value", "target", "What is the target?", "String")]
    assert reply.body["dialog"] == "Done with mars."


def test_not_required_leaves_the_parameter_empty(host):
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "notRequired"})
    assert prompts == []
    assert reply.body["parameters"] == {"kind": "notRequired"}
    assert reply.body["dialog"] == "Done with nothing."


def test_unsupported_with_a_reason_says_it_and_asks_again(host):
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "unsupported", "target": "evil"}, ["good"])
    assert len(prompts) == 1 and prompts[0].kind == "value"
    assert prompts[0].dialog == "Target ‘evil’ is forbidden. What is the target?"
    assert prompts[0].raw["unsupported"] == {"reason": "forbidden", "dialog": "Target ‘evil’ is forbidden."}
    assert reply.body["dialog"] == "Done with good."


def test_unsupported_without_a_reason_gets_the_generic_sentence(host):
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "unsupported", "target": "odd"}, ["even"])
    assert prompts[0].dialog == "That Target isn't supported. What is the target?"
    assert prompts[0].raw["unsupported"] == {"dialog": "That Target isn't supported."}
    assert reply.body["parameters"]["target"] == "even"


def test_confirmation_required_yes_settles_the_value(host):
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "confirmationRequired", "target": "x"}, [True])
    assert [(p.kind, p.parameter, p.dialog, p.raw["value"]) for p in prompts] == [
        ("confirmation", "target", "Use x as the target?", "x")]
    assert reply.body["dialog"] == "Done with x."


def test_confirmation_required_no_clears_and_resolves_again(host):
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "confirmationRequired", "target": "x"},
                                 [False, "y", True])
    assert [(p.kind, p.dialog) for p in prompts] == [("confirmation", "Use x as the target?"),
                                                     ("value", "What is the target?"),
                                                     ("confirmation", "Use y as the target?")]
    assert reply.body["dialog"] == "Done with y."


def test_disambiguation_puts_the_options_and_takes_the_chosen_value(host):
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "disambiguation", "target": "alex"}, ["a2"])
    assert len(prompts) == 1 and prompts[0].kind == "disambiguation"
    assert prompts[0].dialog == "There are 2 targets like ‘alex’. Which one?"
    assert prompts[0].raw["options"] == [{"id": "a1", "title": "Alex Meyer", "subtitle": "mobile"},
                                         {"id": "a2", "title": "Alex Schmidt"}]
    assert reply.body["parameters"]["target"] == "Alex Schmidt"
    assert reply.body["dialog"] == "Done with Alex Schmidt."


def test_confirm_absent_goes_straight_to_handle(host):
    _, _, reply = converse(host, "PyCodeIntent", {"code": "success"})
    assert reply.succeeded and reply.body["code"] == "success"
    host.wait_log("confirm not implemented by pylegacy")


def test_confirm_present_ready_then_handle(host):
    _, _, reply = converse(host, "PyConfirmIntent", {"allow": True})
    assert reply.succeeded and reply.body["code"] == "success"
    assert reply.body["dialog"] == "Done."  # the generic success code's default dialog
    host.wait_log("confirmed ready by pylegacy")


def test_confirm_present_with_a_custom_failure_code_ends_the_request(host):
    prompts, _, reply = converse(host, "PyConfirmIntent", {}, ["no"])
    assert [(p.kind, p.parameter) for p in prompts] == [("value", "allow")]  # resolve_allow: needs_value
    assert reply.status == "failure"
    assert reply.body["code"] == "notAllowed" and reply.body["code_value"] == 100 and reply.body["success"] is False
    assert reply.body["dialog"] == "That is not allowed."


def test_custom_code_with_its_rendered_dialogs(host):
    _, _, reply = converse(host, "PyCodeIntent", {"code": "quotaExceeded"})
    assert reply.status == "failure" and reply.header["code"] == "quotaExceeded"
    body = reply.body
    assert body["code_value"] == 100 and body["success"] is False
    # The handler saw every declared code: the seven generic ones and quotaExceeded.
    assert body["response"] == {"detail": "8 codes declared"}
    assert body["dialog"] == "Your quota is used up (8 codes declared)."
    assert body["concise_dialog"] == "Quota used up."


def test_an_undeclared_code_is_refused_by_the_sdk_naming_the_declared_ones(host):
    with pytest.raises(PluginError) as e:
        converse(host, "PyCodeIntent", {"code": "bogus"})
    assert "response code 'bogus', which PyCodeIntent's definition does not declare" in e.value.message
    assert "quotaExceeded" in e.value.message and "success" in e.value.message
    assert e.value.details["code"] == "bogus"


def test_progress_is_relayed_while_handling(host):
    _, progress, reply = converse(host, "PyCodeIntent", {"code": "inProgress", "progress": 3})
    assert [(p.message, p.fraction) for p in progress] == [("step 1 of 3", 1 / 3), ("step 2 of 3", 2 / 3),
                                                           ("step 3 of 3", 1.0)]
    assert reply.succeeded and reply.body["code"] == "inProgress" and reply.body["dialog"] == "Working on it."


def test_the_host_and_the_coffee_plugin_write_the_client_side_of_the_conformance_vectors(start_host):
    """conformance/legacy.json's coffee conversation, against the real host and the
    real coffee plugin: a raw DEALER sends the client's frames and must receive the
    host's frames byte for byte (prompt, progress, the rendered reply)."""
    with open(REPO / "conformance" / "legacy.json", encoding="utf-8") as f:
        conv = next(c for c in json.load(f)["conversations"] if c["name"] == "coffee-resolve-confirm-handle")
    host = start_host([coffee_plugin(env={"COFFEE_FIRST_ORDER": "4711"})], wait_ready=["coffee"])
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.RCVTIMEO, 20000)
    try:
        sock.connect(host.frontend)
        for step in conv["steps"]:
            frames = [bytes.fromhex(f["hex"]) for f in step["frames"]]
            if step["direction"] == "client → host":
                sock.send_multipart(frames)
            elif step["direction"] == "host → client":
                assert sock.recv_multipart() == frames, step["name"]
    finally:
        sock.close()


def test_the_same_plugin_on_its_definition_as_an_intentdefinition(start_host, tmp_path):
    """The host reads Xcode's form for a Python plugin too: pylegacy.yaml converted with
    `intentbus definitions convert` asks and answers the same."""
    converted = tmp_path / "Base.lproj" / "Intents.intentdefinition"
    converted.parent.mkdir()
    command = [binary("intentbus"), "definitions", "convert", str(PYLEGACY_DEFINITIONS), "--output", str(converted)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert converted.read_bytes().startswith(b"<?xml")
    intents = ["PyResolveIntent", "PyCodeIntent", "PyConfirmIntent"]
    entry = plugin_entry("pylegacy", [sys.executable, str(PYLEGACY)], intents,
                         extra=[f"definitions: [{json.dumps(str(converted))}]"])
    host = start_host([entry], wait_ready=["pylegacy"])
    prompts, _, reply = converse(host, "PyResolveIntent", {"kind": "needsValue"}, ["mars"])
    assert [(p.kind, p.parameter, p.dialog) for p in prompts] == [("value", "target", "What is the target?")]
    assert reply.body["dialog"] == "Done with mars."
