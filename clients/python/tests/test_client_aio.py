"""The asyncio client's sending and timeouts (intentbus/client/aio.py, waits.py) against
fake hosts on ROUTER sockets in this process: REQUESTs queued in one turn of the loop go
out together, one that a host does not take is offered again until `connect_wait` and
then goes to the next host, and every request's timeout, on one shared timer, fires at
its own deadline, counted from the request's delivery."""

import asyncio
import time

import pytest
import zmq

from intentbus import AsyncClient, NoAnswer
from intentbus.client.waits import TIMEOUT_GRAIN
from intentbus.wire import Kind, Message

#: What a loaded machine may add to a timer's lateness, on top of the client's own grain.
SCHEDULING = 0.15


class FakeHost:
    """A ROUTER that keeps every REQUEST it gets and answers those it is told to."""

    def __init__(self, endpoint, bind=True):
        self.endpoint = endpoint
        self.ctx = zmq.Context()
        self.router = self.ctx.socket(zmq.ROUTER)
        self.router.linger = 0
        self.requests = []
        if bind:
            self.bind()

    def bind(self):
        self.router.bind(self.endpoint)

    def take(self):
        """Every REQUEST waiting: [(peer, Message)]."""
        got = []
        while True:
            try:
                frames = self.router.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                break
            msg = Message.decode(frames[1:])
            if msg.kind is Kind.REQUEST:
                got.append((frames[0], msg))
        self.requests += got
        return got

    def answer(self, peer, msg):
        self.router.send_multipart([peer] + Message.build(Kind.REPLY, msg.request_id, msg.intent,
                                                          {"status": "success"}, msg.body_json()).encode())

    def close(self):
        self.router.close()
        self.ctx.term()


async def answering(host, stop):
    """Answers every REQUEST with its own parameters until `stop` is set."""
    while not stop.is_set():
        for peer, msg in host.take():
            host.answer(peer, msg)
        await asyncio.sleep(0.002)


def test_each_request_times_out_at_its_own_deadline(tmp_path):
    host = FakeHost(f"ipc://{tmp_path}/silent.sock")
    slack = 0.05
    timeouts = [0.2, 0.6, 0.4, 0.2]

    async def run():
        async with AsyncClient(host.endpoint, slack=slack) as client:
            started = time.monotonic()

            async def one(timeout):
                with pytest.raises(NoAnswer):
                    await client.send("Silent", {"t": timeout}, timeout=timeout)
                return time.monotonic() - started

            return await asyncio.gather(*(one(t) for t in timeouts))

    try:
        elapsed = asyncio.run(run())
        host.take()
    finally:
        host.close()
    assert sorted(m.body_json()["t"] for _, m in host.requests) == sorted(timeouts), "every request went out"
    for timeout, took in zip(timeouts, elapsed):
        wait = timeout + slack
        assert wait - 0.005 <= took <= wait + TIMEOUT_GRAIN + SCHEDULING, (timeout, took)
    assert elapsed[0] < elapsed[2] < elapsed[1]


def test_a_request_its_host_takes_late_is_sent_then_and_times_out_from_then(tmp_path):
    # Nothing is bound when the request is sent: the DEALER (ZMQ_IMMEDIATE) does not take
    # it, and it is offered again until the host is there. Its wait counts from then.
    host = FakeHost(f"ipc://{tmp_path}/late.sock", bind=False)

    async def run():
        async with AsyncClient(host.endpoint, slack=0.1, connect_wait=3.0) as client:
            started = time.monotonic()
            asyncio.get_running_loop().call_later(0.4, host.bind)
            with pytest.raises(NoAnswer):
                await client.send("Late", {"n": 1}, timeout=0.3)
            unanswered = time.monotonic() - started
            stop = asyncio.Event()
            server = asyncio.ensure_future(answering(host, stop))
            reply = await client.send("Late", {"n": 2}, timeout=2)
            stop.set()
            await server
            return unanswered, reply

    try:
        unanswered, reply = asyncio.run(run())
    finally:
        host.close()
    assert [m.body_json() for _, m in host.requests] == [{"n": 1}, {"n": 2}]
    assert unanswered >= 0.4 + 0.4 - 0.01, f"the wait counted from before the delivery: {unanswered:.3f} s"
    assert reply.body == {"n": 2}


def test_requests_no_host_takes_go_to_the_next_host(tmp_path):
    dead = f"ipc://{tmp_path}/dead.sock"  # nobody binds it
    live = FakeHost(f"ipc://{tmp_path}/live.sock")

    async def run():
        async with AsyncClient([dead, live.endpoint], connect_wait=0.3, slack=2) as client:
            stop = asyncio.Event()
            server = asyncio.ensure_future(answering(live, stop))
            started = time.monotonic()
            replies = await asyncio.gather(*(client.send("Echo", {"n": i}, idempotent=False) for i in range(5)))
            took = time.monotonic() - started
            again = await client.send("Echo", {"n": 5}, idempotent=False)  # the dead one failed last: not first now
            stop.set()
            await server
            return replies, took, again

    try:
        replies, took, again = asyncio.run(run())
    finally:
        live.close()
    assert [r.body for r in replies] == [{"n": i} for i in range(5)]
    assert all(r.host == live.endpoint for r in replies + [again])
    assert took >= 0.3 - 0.01, "the dead host was not given its connect wait"
    assert sorted(m.body_json()["n"] for _, m in live.requests) == list(range(6)), "each request sent once"


def test_a_request_given_up_while_it_is_being_offered_is_never_sent(tmp_path):
    host = FakeHost(f"ipc://{tmp_path}/later.sock", bind=False)

    async def run():
        async with AsyncClient(host.endpoint, slack=5, connect_wait=5) as client:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(client.send("Gone", {"n": 1}), 0.2)
            host.bind()
            await asyncio.sleep(0.6)  # the DEALER reconnects within 0.1–0.2 s
            stop = asyncio.Event()
            server = asyncio.ensure_future(answering(host, stop))
            reply = await client.send("Here", {"n": 2}, timeout=2)
            stop.set()
            await server
            return reply

    try:
        reply = asyncio.run(run())
    finally:
        host.close()
    assert reply.body == {"n": 2}
    assert [m.intent for _, m in host.requests] == ["Here"], "the request given up on went out later"
