"""The Python client with several hosts (docs/protocol.md §4.10) against real hosts:
a request goes to the host that failed least recently; when its host is SIGKILLed an
idempotent request is sent again to the other host under the same id, and any other
request ends at once with one final `HostLost` naming the lost host."""

import threading
import time

import pytest

from conftest import swift_test_plugin
from intentbus import Client, HostLost, NoAnswer


def two_hosts(start_host):
    a = start_host([swift_test_plugin("alpha")], wait_ready=["alpha"])
    b = start_host([swift_test_plugin("beta")], wait_ready=["beta"])
    return a, b


def served(host):
    """How many requests the host's one plugin has answered (ib.status)."""
    with Client(host.frontend) as c:
        return c.control("ib.status")["plugins"][0]["served"]


def kill_soon(host, seconds):
    timer = threading.Timer(seconds, host.process.kill)  # SIGKILL, by the host's own pid
    timer.start()
    return timer


def test_requests_stay_with_the_first_host_until_it_fails(start_host):
    a, b = two_hosts(start_host)
    with Client([a.frontend, b.frontend], slack=2) as client:
        plugins = {client.send("TestIntent", {}).plugin for _ in range(5)}
        assert plugins == {"alpha"}
        a.process.kill()
        a.process.wait()
        # The next request can't be delivered to A (no connection): B has it.
        assert client.send("TestIntent", {}, timeout=5).plugin == "beta"


def test_round_robin_takes_each_host_in_turn(start_host):
    a, b = two_hosts(start_host)
    with Client(f"{a.frontend},{b.frontend}", selection="round-robin") as client:
        assert [client.send("TestIntent", {}).plugin for _ in range(4)] == ["alpha", "beta", "alpha", "beta"]


def test_a_request_on_a_killed_host_ends_with_host_lost_at_once(start_host):
    a, b = two_hosts(start_host)
    with Client([a.frontend, b.frontend], slack=2) as client:
        client.ping()  # connected to A
        timer = kill_soon(a, 0.5)
        started = time.monotonic()
        try:
            with pytest.raises(HostLost) as e:
                client.send("TestIntent", {"sleep_ms": 20_000}, timeout=30)
        finally:
            timer.cancel()
        waited = time.monotonic() - started
        assert e.value.code.value == "host_lost" and e.value.details["host"] == a.frontend
        assert a.frontend in str(e.value)
        assert waited < 10, f"waited {waited:.1f} s: the loss was not seen, the timeout was"
        # Not sent elsewhere: B's plugin served nothing until the next request.
        assert served(b) == 0
        assert client.send("TestIntent", {}).plugin == "beta"
        assert served(b) == 1


def test_an_idempotent_request_goes_to_the_other_host_under_the_same_id(start_host):
    a, b = two_hosts(start_host)
    with Client([a.frontend, b.frontend], slack=2) as client:
        client.ping()
        timer = kill_soon(a, 0.5)
        try:
            conv = client.start("TestIntent", {"sleep_ms": 1500}, timeout=30, idempotent=True, request_id="same-id")
            reply = conv.next()
            while not conv.done:
                reply = conv.next()
        finally:
            timer.cancel()
        assert reply.plugin == "beta" and reply.request_id == "same-id"  # B ran it under the id A had
        assert reply.host == b.frontend
        assert conv.tried == [a.frontend, b.frontend] and served(b) == 1
        assert client.stray_messages == []


def test_no_host_at_all_is_no_answer_naming_them(tmp_path):
    with Client([f"ipc://{tmp_path}/a.sock", f"ipc://{tmp_path}/b.sock"], connect_wait=0.2) as client:
        with pytest.raises(NoAnswer) as e:
            client.send("TestIntent", {}, timeout=1)
    assert "b.sock" in str(e.value)  # the last one tried


def test_a_frozen_host_is_lost_by_its_silence(start_host):
    import signal

    a, b = two_hosts(start_host)
    with Client([a.frontend, b.frontend], slack=2, heartbeat=0.3) as client:
        client.ping()
        timer = threading.Timer(0.3, a.process.send_signal, (signal.SIGSTOP,))
        timer.start()
        started = time.monotonic()
        try:
            with pytest.raises(HostLost) as e:
                client.send("TestIntent", {"sleep_ms": 20_000}, timeout=30)
        finally:
            timer.cancel()
            a.process.send_signal(signal.SIGCONT)  # so that the fixture can stop it
        assert "silent" in str(e.value) and time.monotonic() - started < 5
        assert client.send("TestIntent", {}).plugin == "beta"


def test_the_asyncio_client_follows_the_same_rules(start_host):
    import asyncio

    from intentbus import AsyncClient

    a, b = two_hosts(start_host)

    async def run():
        async with AsyncClient([a.frontend, b.frontend], slack=2) as client:
            assert (await client.send("TestIntent", {})).plugin == "alpha"
            asyncio.get_running_loop().call_later(0.5, a.process.kill)
            lost = asyncio.ensure_future(client.send("TestIntent", {"sleep_ms": 20_000}, timeout=30))
            again = asyncio.ensure_future(client.send("TestIntent", {"sleep_ms": 1500}, timeout=30, idempotent=True))
            results = await asyncio.gather(lost, again, return_exceptions=True)
            after = await client.send("TestIntent", {})
            return results, after, client.stray_messages

    started = time.monotonic()
    (lost, again), after, strays = asyncio.run(run())
    assert isinstance(lost, HostLost) and lost.details["host"] == a.frontend
    assert again.plugin == "beta" and after.plugin == "beta" and strays == []
    assert time.monotonic() - started < 15
    assert served(b) == 2  # the resent request and the one after; not the lost one
