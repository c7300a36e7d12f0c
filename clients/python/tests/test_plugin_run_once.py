"""The plugin SDK's run-once table (intentbus/plugin/run_once.py), without sockets: a
repeat joins the run in progress or gets its answer, cancelled runs are not kept, and
the table stays bounded in entries, bytes and time."""

import time

from intentbus.plugin.run_once import RunOnce, readdressed, run_key
from intentbus.wire import Kind, Message


def reply(rid="h1", body=None):
    return Message.build(Kind.REPLY, rid, "X", {"status": "success"}, body or {"ok": True})


def test_the_first_runs_a_repeat_joins_then_gets_the_answer():
    runs = RunOnce()
    assert runs.claim("k", 0, "h1") == ("run", None)
    assert runs.claim("k", 1, "h9") == ("join", None)
    final = reply()
    assert runs.finish("k", final) == [(1, "h9")]
    verdict, kept = runs.claim("k", 2, "h3")
    assert verdict == "done" and kept is final
    again = readdressed(kept, "h3")
    assert again.request_id == "h3" and again.body == final.body and again.kind is Kind.REPLY


def test_a_cancelled_run_is_not_kept_and_its_waiters_still_hear():
    runs = RunOnce()
    runs.claim("k", 0, "h1")
    runs.claim("k", 1, "h2")
    cancelled = Message.build(Kind.ERROR, "h1", "X", None, {"code": "cancelled", "message": "timeout"})
    assert runs.finish("k", cancelled) == [(1, "h2")]
    assert runs.claim("k", 0, "h5") == ("run", None)


def test_waiters_of_a_lost_host_or_a_cancel_are_dropped():
    runs = RunOnce()
    runs.claim("k", 0, "h1")
    runs.claim("k", 1, "h2")
    runs.claim("k", 2, "h3")
    runs.drop_link(1)
    assert runs.drop_waiter(2, "h3") and not runs.drop_waiter(2, "h3")
    assert runs.finish("k", reply()) == []


def test_bounded_in_entries_bytes_and_time():
    runs = RunOnce(window=0.05, max_entries=3, max_bytes=4000)
    for k in "abc":
        runs.claim(k, 0, k)
    assert runs.claim("d", 0, "d") == ("untracked", None)  # all three still running
    runs.finish("a", reply())
    assert runs.claim("d", 0, "d") == ("run", None)  # the ended one made room
    assert len(runs) == 3
    runs.finish("b", reply(body={"pad": "x" * 900}))
    runs.finish("c", reply(body={"pad": "x" * 900}))
    runs.finish("d", reply(body={"pad": "x" * 2000}))  # more than a quarter of the bytes: not kept
    assert runs.claim("d", 0, "d2") == ("run", None)
    time.sleep(0.1)
    assert runs.claim("b", 0, "b2") == ("run", None)  # past the window: forgotten


def test_only_a_usable_run_key_counts():
    assert run_key({"run_key": "ab" * 32}) == "ab" * 32
    for header in [{}, {"run_key": ""}, {"run_key": 7}, {"run_key": "x" * 129}, None, []]:
        assert run_key(header) is None
