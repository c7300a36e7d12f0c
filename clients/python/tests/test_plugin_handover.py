"""The plugin SDK's loop handover (intentbus/plugin/handover.py) on its own: the loop
moves to a new thread when a handler job holds its thread for a tick, or at once when
the handler says it is about to block; short jobs never move it."""

import threading
import time

import pytest

from intentbus.plugin.handover import LoopHandover


def test_short_jobs_keep_the_loop_on_its_thread():
    h = LoopHandover("t", tick=0.01)
    idents = set()

    def loop():
        for _ in range(200):
            idents.add(threading.get_ident())
            h.job_started()
            time.sleep(0.0005)
            assert h.job_ended()
        return 5
    assert h.run(loop) == 5
    assert h.threads == 1 and len(idents) == 1


def test_a_job_that_holds_the_thread_moves_the_loop_to_another():
    h = LoopHandover("t", tick=0.01)
    calls = []
    second_started = threading.Event()

    def loop():
        calls.append(threading.get_ident())
        if len(calls) == 1:
            h.job_started()
            # The watcher moves the loop while this job runs: the next call starts meanwhile.
            assert second_started.wait(5), "the loop did not move off the blocked thread"
            assert not h.job_ended() and not h.owns()
            return None  # this thread lost the loop
        assert h.owns()
        second_started.set()
        time.sleep(0.05)  # the first thread sees it lost the loop and leaves
        return 7
    assert h.run(loop) == 7
    assert h.threads == 2 and calls[0] != calls[1]


def test_release_moves_the_loop_at_once():
    h = LoopHandover("t", tick=30)  # the watcher would take half a minute
    moved = threading.Event()

    def loop():
        if moved.is_set():
            return 3
        moved.set()
        h.job_started()
        t0 = time.monotonic()
        h.release()  # what ctx.prompt() does before it waits
        assert not h.owns()
        assert time.monotonic() - t0 < 1
        h.job_ended()
        return None
    started = time.monotonic()
    assert h.run(loop) == 3
    assert time.monotonic() - started < 5 and h.threads == 2


def test_release_off_the_loops_thread_changes_nothing():
    h = LoopHandover("t", tick=30)

    def loop():
        h.job_started()
        other = threading.Thread(target=h.release)  # a worker thread's handler
        other.start()
        other.join()
        assert h.job_ended() and h.owns()
        return 0
    assert h.run(loop) == 0 and h.threads == 1


def test_what_the_loop_raises_reaches_the_caller():
    h = LoopHandover("t")

    def loop():
        raise RuntimeError("socket gone")
    with pytest.raises(RuntimeError, match="socket gone"):
        h.run(loop)
