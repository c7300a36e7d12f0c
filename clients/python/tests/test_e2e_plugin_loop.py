"""End to end: where the Python SDK runs plain handlers (intentbus/plugin/handover.py).
On the socket loop's own thread, with no thread switch per request; a handler that
blocks that thread keeps it, and the loop goes on on another, so the plugin's other
requests are still served."""

import threading
import time

from conftest import py_plugin


def test_a_plain_handler_runs_on_the_socket_loops_thread(start_host):
    host = start_host([py_plugin("py")])
    reply = host.client().send("PyIntent", {"thread": True})
    assert "-loop-" in reply.body["thread"], reply.body["thread"]


def test_a_handler_that_blocks_the_loops_thread_holds_up_no_other_request(start_host):
    host = start_host([py_plugin("py")], wait_ready=["py"])
    blocked = {}

    def send_blocking():
        c = host.client()
        blocked["reply"] = c.send("PyIntent", {"block_ms": 1500, "thread": True})
        blocked["at"] = time.monotonic()

    started = time.monotonic()
    sender = threading.Thread(target=send_blocking)
    sender.start()
    time.sleep(0.2)  # the blocking request is in the handler by now
    quick = host.client().send("PyIntent", {"i": 1, "thread": True})
    answered = time.monotonic()
    sender.join(10)
    assert quick.body["params"] == {"i": 1, "thread": True}
    assert answered - started < 1.2, "the quick request waited for the blocked handler"
    assert blocked["reply"].body["params"]["block_ms"] == 1500 and blocked["at"] > answered
    # The blocked handler kept its thread; the loop had moved to a new one.
    assert blocked["reply"].body["thread"] != quick.body["thread"]
    assert "-loop-" in quick.body["thread"]
    # And the plugin goes on serving as before, on its loop's thread.
    assert "-loop-" in host.client().send("PyIntent", {"thread": True}).body["thread"]

