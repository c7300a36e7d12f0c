"""Majordomo (MDP/0.1, RFC 7; MMI, RFC 8) against a real host (docs/mdp.md), with the
client and worker of mdp_rfc7.py, which are written from the RFCs and know nothing of
IntentBus. Every socket, context, client and worker process opened here is closed or
reaped by the test."""

import json
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import zmq

from conftest import REPO, binary, py_plugin, swift_echo_plugin
from intentbus import Answer
from mdp_rfc7 import MDPC01, MDPClient, MDPWorker, json_worker, mmi_service

WORKER_SCRIPT = Path(__file__).resolve().parent / "mdp_rfc7.py"
BEAT = 0.2  # the host's mdp_heartbeat below, and the workers'


def mdp_host(start_host, plugins, wait_ready=(), extra=""):
    """A host whose MDP replies are the envelope (`mdp_reply: envelope`), which these tests
    read; test_e2e_mdp_opaque.py has the default, the handler's bytes."""
    host = start_host(plugins, wait_ready=wait_ready,
                      host_extra=f"  mdp: ipc://mdp.sock\n  mdp_heartbeat: {int(BEAT * 1000)}ms\n  mdp_liveness: 3\n"
                                 "  mdp_reply: envelope\n" + extra)
    host.mdp = f"ipc://{host.dir}/mdp.sock"
    return host


def mdp_entry(id, intents, timeout="3s"):
    return "\n".join([f"  - id: {id}", f"    name: {json.dumps('MDP ' + id)}", "    mdp_worker: true",
                      f"    IntentsSupported: {json.dumps(list(intents))}", f"    timeout: {timeout}"])


@pytest.fixture
def closing():
    """Collects MDP clients and workers; closes them all when the test ends."""
    opened = []

    def add(thing):
        opened.append(thing)
        return thing

    yield add
    for thing in reversed(opened):
        if isinstance(thing, MDPWorker):
            thing.stop()
        elif isinstance(thing, subprocess.Popen):
            if thing.poll() is None:
                thing.kill()
            thing.wait(timeout=10)
        else:
            thing.close()


def wait_until(predicate, seconds=10, what="condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    pytest.fail(f"{what} did not hold within {seconds} s")


def worker_process(host, service, name, hold=False):
    args = [sys.executable, str(WORKER_SCRIPT), host.mdp, service, name, str(BEAT)] + (["hold"] if hold else [])
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout.readline().strip() == b"ready"
    return process


def test_a_request_and_its_reply_from_a_python_plugin(start_host, closing):
    host = mdp_host(start_host, [py_plugin("py", intents=["PyIntent"])], wait_ready=["py"])
    client = closing(MDPClient(host.mdp))
    reply = client.call("PyIntent", {"city": "Berlin"})
    assert reply["status"] == "success"
    assert reply["plugin"] == "py"
    assert reply["result"]["params"] == {"city": "Berlin"}
    # No body at all: the parameters are {}.
    assert client.call("PyIntent")["result"]["params"] == {}
    # A failure the plugin reports is a reply with status failure, not an error.
    assert client.call("PyIntent", {"fail": True})["status"] == "failure"
    error = client.call("PyIntent", {"error": "no way"})
    assert error["status"] == "error" and error["error"]["code"] == "plugin_error"
    assert client.call("NoSuchIntent")["error"]["code"] == "unknown_intent"
    # A plugin that crashes mid-request: still one reply, the error; the plugin comes back.
    crashed = client.call("PyIntent", {"crash": 3})
    assert crashed["status"] == "error" and crashed["error"]["code"] == "plugin_crashed"
    host.wait_plugin("py", "ready")
    assert client.call("PyIntent", {"after": "crash"})["result"]["params"] == {"after": "crash"}


def test_a_context_in_the_service_name_reaches_the_plugin(start_host, closing):
    """MDP has no request header: `Service?key=value&…` carries the request's context
    (docs/mdp.md "Context"), checked like a native header's."""
    host = mdp_host(start_host, [py_plugin("py", intents=["PyIntent"])], wait_ready=["py"])
    client = closing(MDPClient(host.mdp))
    reply = client.call("PyIntent?area=Living%20Room&satellite=s1", {"x": 1})
    assert reply["status"] == "success"
    assert reply["result"]["context"] == {"area": "Living Room", "satellite": "s1"}
    assert reply["result"]["params"] == {"x": 1}
    assert "context" not in client.call("PyIntent", {"x": 1})["result"]
    for bad, says in [("PyIntent?area", "key=value"), ("PyIntent?a=1&a=2", "twice"), ("?area=x", "no intent"),
                      ("PyIntent?a=%zz", "key=value"),
                      ("PyIntent?" + "&".join(f"k{i}=1" for i in range(17)), "at most 16")]:
        error = client.call(bad, {})
        assert error["status"] == "error" and error["error"]["code"] == "bad_frame", (bad, error)
        assert says in error["error"]["message"], (bad, error)
    # The next request on the same connection is unaffected.
    assert client.call("PyIntent?area=Kitchen")["result"]["context"] == {"area": "Kitchen"}


def test_an_intent_handled_by_a_swift_plugin(start_host, closing):
    host = mdp_host(start_host, [swift_echo_plugin()], wait_ready=["echo"])
    client = closing(MDPClient(host.mdp))
    reply = client.call("EchoIntent", {"n": 7, "text": "grüß dich"})
    assert reply["status"] == "success"
    assert reply["result"] == {"n": 7, "text": "grüß dich"}


def test_an_mdp_worker_serves_an_intent_called_with_intentbus_send(start_host, closing):
    host = mdp_host(start_host, [mdp_entry("weather", ["WeatherIntent"])])
    assert host.plugin("weather")["state"] == "waiting"
    closing(MDPWorker(host.mdp, "WeatherIntent", json_worker("w1"), heartbeat=BEAT).start())
    host.wait_plugin("weather", "ready")
    out = subprocess.run([binary("intentbus"), "send", "WeatherIntent", "city=Berlin", "--json", "--config", host.manifest],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    reply = json.loads(out.stdout)
    assert reply["plugin"] == "weather" and reply["status"] == "success"
    assert reply["body"] == {"worker": "w1", "params": {"city": "Berlin"}}


def test_two_workers_share_the_load(start_host, closing):
    host = mdp_host(start_host, [mdp_entry("weather", ["WeatherIntent"])])
    workers = [closing(MDPWorker(host.mdp, "WeatherIntent", json_worker(n), heartbeat=BEAT).start()) for n in ("a", "b")]
    client = closing(MDPClient(host.mdp))
    wait_until(lambda: mmi_service(client, "WeatherIntent") == "200", what="a worker is ready")
    wait_until(lambda: host.log.count("MDP worker ready for WeatherIntent") == 2, what="both workers are ready")
    served = {"a": 0, "b": 0}
    for i in range(20):
        reply = client.call("WeatherIntent", {"i": i})
        assert reply["status"] == "success", reply
        assert reply["result"]["params"] == {"i": i}
        served[reply["result"]["worker"]] += 1
    assert served["a"] >= 5 and served["b"] >= 5, served
    assert workers[0].requests + workers[1].requests == 20


def test_a_request_waits_for_a_worker_and_a_killed_worker_expires(start_host, closing):
    host = mdp_host(start_host, [mdp_entry("weather", ["WeatherIntent"], timeout="20s")])
    client = closing(MDPClient(host.mdp))
    assert mmi_service(client, "WeatherIntent") == "404"
    # Queued while no worker is ready: the reply comes once one is.
    client.socket.send_multipart([MDPC01, b"WeatherIntent", b'{"early": true}'])
    time.sleep(0.5)
    assert not client.socket.poll(0)
    process = closing(worker_process(host, "WeatherIntent", "p1"))
    assert client.socket.poll(10_000)
    frames = client.socket.recv_multipart()
    assert json.loads(frames[2])["result"] == {"worker": "p1", "params": {"early": True}}
    assert mmi_service(client, "WeatherIntent") == "200"
    # Killed without a DISCONNECT: silent for 3 heartbeats, it is taken for dead.
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    started = time.monotonic()
    wait_until(lambda: mmi_service(client, "WeatherIntent") == "404", what="the killed worker expires")
    assert time.monotonic() - started < 3 * BEAT + 3.0
    host.wait_log("silent for")
    host.wait_plugin("weather", "waiting")


def test_a_worker_dying_mid_request_still_gives_one_final_answer(start_host, closing):
    host = mdp_host(start_host, [mdp_entry("weather", ["WeatherIntent"], timeout="1s")])
    process = closing(worker_process(host, "WeatherIntent", "stuck", hold=True))
    client = closing(MDPClient(host.mdp))
    wait_until(lambda: mmi_service(client, "WeatherIntent") == "200", what="the worker is ready")
    client.socket.send_multipart([MDPC01, b"WeatherIntent", b"{}"])
    time.sleep(0.3)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    assert client.socket.poll(5_000)
    reply = json.loads(client.socket.recv_multipart()[2])
    assert reply["status"] == "error" and reply["error"]["code"] == "timeout", reply
    assert "no Majordomo worker of weather answered WeatherIntent within 1 s" in reply["error"]["message"], reply
    # Exactly one: nothing else arrives for it, and the dead worker goes.
    assert not client.socket.poll(int(4 * BEAT * 1000) + 500)
    wait_until(lambda: mmi_service(client, "WeatherIntent") == "404", what="the dead worker expires")


def test_a_worker_disconnected_by_the_host_reconnects_and_serves(start_host, closing):
    host = mdp_host(start_host, [mdp_entry("weather", ["WeatherIntent"])])
    # A second READY is a valid but unexpected command: the host answers DISCONNECT,
    # and an RFC 7 worker opens a new socket and says READY again.
    worker = closing(MDPWorker(host.mdp, "WeatherIntent", json_worker("again"), heartbeat=BEAT, extra_ready=True).start())
    wait_until(lambda: worker.disconnects == 1 and worker.connections == 2, what="the worker reconnects")
    client = closing(MDPClient(host.mdp))
    wait_until(lambda: mmi_service(client, "WeatherIntent") == "200", what="the worker is ready again")
    assert client.call("WeatherIntent", {"x": 1})["result"] == {"worker": "again", "params": {"x": 1}}
    assert worker.disconnects == 1
    wait_until(lambda: worker.heartbeats_seen >= 2, what="heartbeats from the host")


def test_a_service_no_entry_lists_is_refused(start_host, closing):
    host = mdp_host(start_host, [mdp_entry("weather", ["WeatherIntent"]), py_plugin("py", intents=["PyIntent"])],
                    wait_ready=["py"])
    # Neither an unlisted service nor an intent a plugin claims may be served by a worker.
    rogue = closing(MDPWorker(host.mdp, "PyIntent", json_worker("rogue"), heartbeat=BEAT).start())
    stranger = closing(MDPWorker(host.mdp, "OtherService", json_worker("x"), heartbeat=BEAT).start())
    wait_until(lambda: rogue.disconnects >= 1 and stranger.disconnects >= 1, what="DISCONNECT for both")
    client = closing(MDPClient(host.mdp))
    assert client.call("PyIntent", {"k": 1})["plugin"] == "py"
    assert rogue.requests == 0 and stranger.requests == 0
    assert "no mdp_worker entry lists" in host.log


def test_mmi_service(start_host, closing):
    host = mdp_host(start_host, [py_plugin("py", intents=["PyIntent"]), mdp_entry("weather", ["WeatherIntent"])],
                    wait_ready=["py"])
    client = closing(MDPClient(host.mdp))
    assert mmi_service(client, "PyIntent") == "200"
    assert mmi_service(client, "ib.ping") == "200"
    assert mmi_service(client, "NoSuchIntent") == "404"
    assert mmi_service(client, "WeatherIntent") == "404"  # listed, but no worker yet
    closing(MDPWorker(host.mdp, "WeatherIntent", json_worker("w"), heartbeat=BEAT).start())
    wait_until(lambda: mmi_service(client, "WeatherIntent") == "200", what="the worker is known")
    assert client.request("mmi.nothing")[0] == b"501"


def test_a_question_is_the_prompt_required_error(start_host, closing):
    host = mdp_host(start_host, [py_plugin("one", intents=["PyIntent"]), py_plugin("two", intents=["PyIntent", "AskIntent"])],
                    wait_ready=["one", "two"])
    client = closing(MDPClient(host.mdp, timeout=10))
    reply = client.call("PyIntent", {"x": 1})
    assert reply["status"] == "error"
    assert reply["error"]["code"] == "prompt_required"
    assert reply["error"]["details"]["kind"] == "plugin_choice"
    assert {o["id"] for o in reply["error"]["details"]["prompt"]["options"]} == {"one", "two"}
    # A question mid-request (a value the plugin asks for) too; the plugin is told to stop.
    asked = client.call("AskIntent", {"ask": "colour"})
    assert asked["error"]["code"] == "prompt_required"
    assert asked["error"]["details"]["kind"] == "value" and asked["error"]["details"]["parameter"] == "colour"
    # Remembered choices apply, as for any client.
    host.client().control("ib.choices.set", {"intent": "PyIntent", "plugin": "two"})
    assert client.call("PyIntent", {"x": 2})["plugin"] == "two"


def test_the_choice_prompt_offers_mdp_workers_like_plugins(start_host, closing):
    host = mdp_host(start_host, [py_plugin("py", intents=["WeatherIntent"]), mdp_entry("weather", ["WeatherIntent"])],
                    wait_ready=["py"])
    closing(MDPWorker(host.mdp, "WeatherIntent", json_worker("w"), heartbeat=BEAT).start())
    host.wait_plugin("weather", "ready")
    # For a native client, the worker entry is one more claimant, named by its manifest
    # id and name, with the plain style and its state.
    prompts = []

    def choose(prompt):
        prompts.append(prompt)
        return Answer("weather", remember="always")
    reply = host.client().send("WeatherIntent", {"q": 1}, on_prompt=choose)
    assert reply.plugin == "weather"
    assert reply.body == {"worker": "w", "params": {"q": 1}}
    options = {o["id"]: o for o in prompts[0].options}
    assert options["weather"]["name"] == "MDP weather" and options["weather"]["state"] == "ready"
    assert options["weather"]["style"] == "plain" and "py" in options
    # Remembered ("always"): no prompt any more, for native and MDP clients alike.
    assert host.client().send("WeatherIntent", {"q": 2}).plugin == "weather"
    client = closing(MDPClient(host.mdp))
    assert client.call("WeatherIntent", {"q": 3})["result"]["worker"] == "w"
    out = subprocess.run([binary("intentbus"), "send", "WeatherIntent", "q=4", "--json", "--config", host.manifest],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["body"] == {"worker": "w", "params": {"q": 4}}


def test_hostile_mdp_input_gets_clear_errors(start_host, closing):
    host = mdp_host(start_host, [py_plugin("py", intents=["PyIntent"])], wait_ready=["py"])
    client = closing(MDPClient(host.mdp))
    assert client.call("PyIntent")["status"] == "success"  # the baseline
    frames = client.request("PyIntent", b"[1,2]")
    assert json.loads(frames[0])["error"]["code"] == "invalid_parameters"
    frames = client.request("PyIntent", b"{nope")
    assert json.loads(frames[0])["error"]["code"] == "invalid_parameters"
    frames = client.request("PyIntent", b"{}", b"{}")
    assert json.loads(frames[0])["error"]["code"] == "bad_frame"
    frames = client.request("x" * 300, b"{}")
    assert json.loads(frames[0])["error"]["code"] == "bad_frame"
    # Garbage on the socket is dropped; the host goes on.
    context = zmq.Context()
    try:
        dealer = context.socket(zmq.DEALER)
        dealer.connect(host.mdp)
        for junk in ([b"x"], [b"", b"MDPW01", b"\x09"], [b"", b"MDPW01", b"\x03", b"nope", b"", b"{}"], [b"", b"MDPW01"],
                     [b"", b"MDPW01", b"\x01", b"\xff\xfe"], [b"", b"MDPC01", b"\xff", b"{}"]):
            dealer.send_multipart(junk)
        # A REPLY from a peer that never said READY gets DISCONNECT (RFC 7); the client REQUEST
        # with a service that is not UTF-8 still gets its one reply.
        got = []
        while dealer.poll(1_000):
            got.append(dealer.recv_multipart())
        replies = [f for f in got if f[1] == MDPC01]
        assert len(replies) == 1, got
        assert replies[0][2] == b"\xff" and json.loads(replies[0][3])["error"]["code"] == "bad_frame"
        assert [b"", b"MDPW01", b"\x05"] in got
    finally:
        context.destroy(linger=0)
    assert client.call("PyIntent", {"still": True})["result"]["params"] == {"still": True}


def test_the_ten_line_example_of_docs_mdp_runs(start_host, tmp_path):
    text = (REPO / "docs" / "mdp.md").read_text(encoding="utf-8")
    script = re.search(r"## A ten-line example.*?\n```python\n(.*?)```", text, re.S).group(1)
    assert len(script.strip().splitlines()) <= 12
    # The default form (mdp_reply: body), as the page shows it.
    host = start_host([swift_echo_plugin()], wait_ready=["echo"], host_extra="  mdp: ipc://mdp.sock\n")
    host.mdp = f"ipc://{host.dir}/mdp.sock"
    (tmp_path / "client.py").write_text(script.replace("ipc://mdp.sock", host.mdp) + "\nctx.destroy(linger=0)\n")
    out = subprocess.run([sys.executable, str(tmp_path / "client.py")], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "b'{\"text\":\"hi\"}'\n{'plugin': 'echo', 'result': {'text': 'hi'}, 'status': 'success'}\n", out.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_mdp_over_tcp_takes_only_listed_keys_each_in_its_role(start_host, closing):
    alice_public, alice_secret = (k.decode() for k in zmq.curve_keypair())
    worker_public, worker_secret = (k.decode() for k in zmq.curve_keypair())
    stranger_public, stranger_secret = (k.decode() for k in zmq.curve_keypair())
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    weather = mdp_entry("weather", ["WeatherIntent"]) + f'\n    public_key: "{worker_public}"'
    host = start_host([py_plugin("py", intents=["PyIntent", "HiddenIntent"]), weather], wait_ready=["py"],
                      host_extra=f"  mdp: {endpoint}\n  mdp_heartbeat: {int(BEAT * 1000)}ms\n  mdp_reply: envelope\n  clients:\n"
                                 f'    - name: alice\n      public_key: "{alice_public}"\n'
                                 "      intents: [PyIntent, WeatherIntent]\n")
    with open(f"{host.dir}/state/host.pub") as f:
        server = f.read().strip()
    alice = closing(MDPClient(endpoint, curve=(alice_public, alice_secret, server)))
    assert alice.call("PyIntent", {"a": 1})["result"]["params"] == {"a": 1}
    assert alice.call("HiddenIntent")["error"]["code"] == "forbidden"
    stranger = closing(MDPClient(endpoint, timeout=1.0, curve=(stranger_public, stranger_secret, server)))
    with pytest.raises(TimeoutError):
        stranger.call("PyIntent")
    # A READY counts only from the entry's key: alice's key can't offer the service.
    impostor = closing(MDPWorker(endpoint, "WeatherIntent", json_worker("impostor"), heartbeat=BEAT,
                                 curve=(alice_public, alice_secret, server)).start())
    wait_until(lambda: impostor.disconnects >= 1, what="DISCONNECT for a client's key")
    closing(MDPWorker(endpoint, "WeatherIntent", json_worker("real"), heartbeat=BEAT,
                      curve=(worker_public, worker_secret, server)).start())
    host.wait_plugin("weather", "ready")
    assert alice.call("WeatherIntent", {"t": 1})["result"]["worker"] == "real"
    assert impostor.requests == 0
    # And a worker's key can't call.
    as_worker = closing(MDPClient(endpoint, curve=(worker_public, worker_secret, server)))
    assert as_worker.call("PyIntent")["error"]["code"] == "forbidden"


def test_random_frames_on_the_mdp_socket_never_break_the_host(start_host, closing):
    """A bounded fuzz: 400 messages of random and mutated MDP frames from one DEALER; the
    host is still running and still answers MDP and native clients."""
    import random
    rng = random.Random(16)
    host = mdp_host(start_host, [py_plugin("py", intents=["PyIntent"]), mdp_entry("weather", ["WeatherIntent"])],
                    wait_ready=["py"])
    seeds = [[b"", MDPC01, b"PyIntent", b"{}"], [b"", b"MDPW01", b"\x01", b"WeatherIntent"], [b"", b"MDPW01", b"\x04"],
             [b"", b"MDPW01", b"\x03", b"h1", b"", b"{}"], [b"", b"MDPW01", b"\x05"], [b"", MDPC01, b"mmi.service", b"PyIntent"]]
    context = zmq.Context()
    try:
        dealer = context.socket(zmq.DEALER)
        dealer.connect(host.mdp)
        for _ in range(400):
            frames = [bytearray(f) for f in rng.choice(seeds)]
            for _ in range(rng.randint(0, 3)):
                what = rng.random()
                if what < 0.3 and frames:
                    del frames[rng.randrange(len(frames))]
                elif what < 0.6:
                    frames.insert(rng.randint(0, len(frames)), bytearray(rng.randbytes(rng.randint(0, 300))))
                elif frames:
                    f = frames[rng.randrange(len(frames))]
                    if f:
                        f[rng.randrange(len(f))] = rng.randrange(256)
            dealer.send_multipart([bytes(f) for f in frames] or [b""])
        while dealer.poll(1_000):
            dealer.recv_multipart()
    finally:
        context.destroy(linger=0)
    assert host.process.poll() is None, host.log
    client = closing(MDPClient(host.mdp))
    assert client.call("PyIntent", {"after": "fuzz"})["result"]["params"] == {"after": "fuzz"}
    assert host.client().send("PyIntent", {"n": 1}).plugin == "py"
