"""End to end: Python plugins under the real host, called by the Swift CLI and by the
Python client."""

import json
import os
import re
import signal
import subprocess
import time

import pytest

from intentbus import (Cancelled, InvalidParameters, PluginCrashed, PluginError, PluginUnavailable, Progress, Prompt, Reply)

from conftest import binary, coffee_plugin, py_plugin


def cli_send(host, *args):
    """Runs `intentbus send … --json` against the host; returns (exit code, parsed stdout, stderr)."""
    r = subprocess.run([binary("intentbus"), "send", *args, "--json", "--endpoint", host.frontend],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    try:
        out = json.loads(r.stdout)
    except ValueError:
        out = None
    return r.returncode, out, r.stderr


# -- the Swift client (intentbus send) calls the Python plugin ------------------------------


def test_swift_cli_orders_coffee(start_host):
    """The legacy coffee plugin: the host resolves, confirms and handles it, and renders
    the success code's format string from definitions/coffee.yaml, whose `locale: en_US`
    makes the CurrencyAmount read €8.40."""
    host = start_host([coffee_plugin()])
    code, out, err = cli_send(host, "OrderCoffeeIntent", "beverage=latte", "size=large", "quantity=2")
    assert code == 0, err
    assert out["status"] == "success" and out["plugin"] == "coffee"
    body = out["body"]
    assert body["code"] == "success" and body["code_value"] == 4 and body["success"] is True
    response = body["response"]
    assert re.fullmatch(r"C-\d+", response["orderNumber"])
    assert response["price"] == {"amount": 8.4, "currency": "EUR"}
    assert body["dialog"] == f"Your order {response['orderNumber']} is on its way: 2 × large latte, €8.40."
    assert body["concise_dialog"] == f"Order {response['orderNumber']}, €8.40."
    assert body["parameters"] == {"beverage": "latte", "size": "large", "quantity": 2}


def test_swift_cli_answers_the_coffee_plugins_prompts(start_host):
    """No beverage and no size: the host asks for both (enum options), the CLI answers
    by display names (any case)."""
    host = start_host([coffee_plugin()])
    code, out, err = cli_send(host, "OrderCoffeeIntent", "quantity=3", "--answer", "beverage=flat white",
                              "--answer", "size=Small")
    assert code == 0, err
    assert out["body"]["parameters"] == {"beverage": "flatWhite", "size": "small", "quantity": 3}
    assert out["body"]["response"]["drinks"] == "3 × small flat white"
    assert out["body"]["response"]["price"] == {"amount": 10.2, "currency": "EUR"}


def test_swift_cli_gets_the_coffee_plugins_custom_code(start_host):
    """Ten cups: the custom code tenthCupFree (number 100), after the confirmation
    that more than five cups need."""
    host = start_host([coffee_plugin()])
    code, out, err = cli_send(host, "OrderCoffeeIntent", "beverage=espresso", "size=medium", "quantity=10",
                              "--answer", "quantity=yes")
    assert code == 0, err
    body = out["body"]
    assert body["code"] == "tenthCupFree" and body["code_value"] == 100 and out["header"]["code"] == "tenthCupFree"
    assert body["response"]["price"] == {"amount": 19.8, "currency": "EUR"}
    assert body["dialog"].endswith("10 × medium espresso, €19.80 — the tenth cup is on us!")


def test_swift_cli_calls_the_python_test_plugin(start_host):
    host = start_host([py_plugin("py")])
    code, out, err = cli_send(host, "PyIntent", "n=5", "--answer", "color=blue", "--params", '{"ask":"color"}')
    assert code == 0, err
    assert out["body"] == {"plugin": "py", "intent": "PyIntent", "params": {"n": 5, "ask": "color"},
                           "answer": "blue"}


# -- the Python client calls the Python plugin ----------------------------------------------


def test_coffee_every_prompt_kind(start_host):
    """value (no beverage; enum options), unsupported (mocha is sold out) asked again,
    value (no size), confirmation (more than five cups), and the progress update."""
    host = start_host([coffee_plugin()])
    prompts, progress = [], []
    answers = iter(["mocha", "iced latte", "medium", True])

    def on_prompt(p):
        prompts.append(p)
        return next(answers)
    reply = host.client().send("OrderCoffeeIntent", {"quantity": 6}, on_prompt=on_prompt,
                               on_progress=progress.append)
    assert [(p.kind, p.parameter) for p in prompts] == [("value", "beverage"), ("value", "beverage"),
                                                        ("value", "size"), ("confirmation", "quantity")]
    assert prompts[0].dialog == "What would you like to drink?"
    assert "icedLatte" in prompts[0].option_ids and prompts[0].raw["type"] == "Beverage"
    assert prompts[1].dialog == "Sorry, mocha is sold out today. What would you like to drink?"
    assert prompts[1].raw["unsupported"] == {"reason": "soldOut", "dialog": "Sorry, mocha is sold out today."}
    assert prompts[2].option_ids == ["small", "medium", "large"]
    assert prompts[3].dialog == "6 cups, is that right?" and prompts[3].raw["value"] == 6
    assert reply.succeeded and reply.body["code"] == "success"
    assert reply.body["parameters"] == {"beverage": "icedLatte", "size": "medium", "quantity": 6}
    assert reply.body["response"]["price"] == {"amount": 23.4, "currency": "EUR"}
    assert [(p.message, p.fraction) for p in progress] == [("Sending your order to the barista…", 0.5)]


def test_coffee_declined_confirmation_asks_again(start_host):
    """"No" to the confirmation clears the quantity; resolving it again asks for it."""
    host = start_host([coffee_plugin()])
    prompts = []
    answers = iter([False, 2])

    def on_prompt(p):
        prompts.append(p)
        return next(answers)
    reply = host.client().send("OrderCoffeeIntent", {"beverage": "latte", "size": "small", "quantity": 7},
                               on_prompt=on_prompt)
    assert [(p.kind, p.dialog) for p in prompts] == [("confirmation", "7 cups, is that right?"),
                                                     ("value", "How many cups?")]
    assert reply.succeeded and reply.body["parameters"]["quantity"] == 2


def test_coffee_rejects_a_bad_quantity_before_the_plugin_sees_it(start_host):
    host = start_host([coffee_plugin()])
    with pytest.raises(InvalidParameters) as e:
        host.client().send("OrderCoffeeIntent", {"beverage": "latte", "size": "small", "quantity": 11})
    assert e.value.details["parameter"] == "quantity"
    assert "must be at most 10, got 11" in e.value.message


def test_python_plugin_prompts_step_by_step(start_host):
    host = start_host([py_plugin("py")])
    conv = host.client().start("PyIntent", {"ask": "name", "choose": ["a", "b"], "confirm": True, "progress": 2})
    kinds = []
    for event in conv:
        kinds.append(event.kind if isinstance(event, Prompt) else type(event).__name__)
        if isinstance(event, Prompt):
            conv.answer({"value": "Ada", "disambiguation": "b", "confirmation": True}[event.kind])
    assert kinds == ["Progress", "Progress", "value", "disambiguation", "confirmation", "Reply"]
    assert conv.reply.body["answer"] == "Ada"
    assert conv.reply.body["chosen"] == "b"
    assert conv.reply.body["confirmed"] is True


def test_a_waiting_prompt_does_not_block_other_requests(start_host):
    host = start_host([py_plugin("py")])
    client = host.client()
    asking = client.start("PyIntent", {"ask": "x"})
    assert isinstance(asking.next(), Prompt)
    # The handler thread is blocked in ctx.prompt(); others are served meanwhile.
    for i in range(3):
        assert client.send("PyIntent", {"i": i}).body["params"] == {"i": i}
    asking.answer("late")
    assert asking.next().body["answer"] == "late"


def test_handler_errors_become_error_replies(start_host):
    host = start_host([py_plugin("py")])
    client = host.client()
    with pytest.raises(PluginError) as e:
        client.send("PyIntent", {"error": "the till is closed"})
    assert e.value.message == "the till is closed" and e.value.details == {"where": "pyplugin"}
    with pytest.raises(PluginError) as e:
        client.send("PyIntent", {"raise": "a bug"})
    assert e.value.message == "RuntimeError: a bug"
    assert client.send("PyIntent", {"fail": True}).status == "failure"
    assert client.send("PyIntent", {"ok": 1}).succeeded


def test_cancel_reaches_the_python_plugin(start_host):
    host = start_host([py_plugin("py")], wait_ready=["py"])
    conv = host.client().start("PyIntent", {"hold": True})
    assert isinstance(conv.next(), Progress)  # the handler is running
    conv.cancel()
    with pytest.raises(Cancelled):
        conv.next()
    host.wait_log(f"noticed cancellation: cancelled by the client")


def test_a_crash_fails_each_held_request_once(start_host):
    host = start_host([py_plugin("crashy")], wait_ready=["crashy"])
    before = host.plugin("crashy")
    client = host.client()
    held = [client.start("PyIntent", {"hold": True, "i": i}) for i in range(3)]
    for conv in held:
        assert isinstance(conv.next(), Progress)  # each is in the plugin's hands
    crasher = client.start("PyIntent", {"crash": 3})
    for conv in held + [crasher]:
        with pytest.raises(PluginCrashed) as e:
            conv.next()
        assert e.value.details["plugin"] == "crashy"
        assert e.value.details["exit"] == {"code": 3}
    # The plugin comes back and serves again; nothing else arrived for the failed requests.
    host.wait_plugin("crashy", not_pid=before["pid"])
    assert client.send("PyIntent", {"after": True}).body["params"] == {"after": True}
    assert client.stray_messages == []


def test_plugin_disconnect_fails_its_requests(start_host):
    host = start_host([py_plugin("py")], wait_ready=["py"])
    before = host.plugin("py")
    client = host.client()
    held = client.start("PyIntent", {"hold": True})
    assert isinstance(held.next(), Progress)
    leaving = client.start("PyIntent", {"disconnect": True})
    for conv in (held, leaving):
        with pytest.raises(PluginUnavailable):
            conv.next()
    host.wait_log("plugin py said DISCONNECT")
    host.wait_plugin("py", not_pid=before["pid"])
    assert client.send("PyIntent", {"again": 1}).succeeded


def test_a_rejected_handshake_is_logged_and_the_plugin_exits(start_host):
    host = start_host([py_plugin("liar", env={"TEST_BAD_TOKEN": "1"})])
    host.wait_log("host rejected the handshake (bad_token)")
    host.wait_log("rejected HELLO from plugin liar")


def test_python_plugins_die_with_the_host(start_host):
    host = start_host([py_plugin("py")], wait_ready=["py"])
    pid = host.plugin("py")["pid"]
    host.process.kill()  # no clean shutdown: PR_SET_PDEATHSIG must take the plugin down
    host.process.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _running(pid):
        time.sleep(0.05)
    assert not _running(pid), f"plugin pid {pid} outlived its host"


def _running(pid):
    """Whether `pid` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def test_cancel_cancels_an_async_handlers_task(start_host):
    host = start_host([py_plugin("py", intents=("PyAsyncIntent",))], wait_ready=["py"])
    client = host.client()
    assert client.send("PyAsyncIntent", {"await_s": 0.01}).body["async"] is True
    conv = client.start("PyAsyncIntent", {"await_s": 60})
    assert isinstance(conv.next(), Progress)  # the task is awaiting
    started = time.monotonic()
    conv.cancel()
    with pytest.raises(Cancelled):
        conv.next()
    host.wait_log("the async task saw CancelledError (cancelled by the client)")
    assert time.monotonic() - started < 5
    assert host.plugin("py")["in_flight"] == 0


def test_a_sync_handler_polling_ctx_cancelled_sees_it(start_host):
    host = start_host([py_plugin("py")], wait_ready=["py"])
    conv = host.client().start("PyIntent", {"poll": True})
    assert isinstance(conv.next(), Progress)  # the handler is polling
    conv.cancel()
    with pytest.raises(Cancelled):
        conv.next()
    host.wait_log("polled cancelled=True: cancelled by the client")
