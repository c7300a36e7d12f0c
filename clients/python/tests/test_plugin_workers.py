"""The plugin SDK's reused worker threads (intentbus/plugin/workers.py): a blocked job
never holds up another, workers are reused when idle and end when idle long enough,
and each job sees a fresh contextvars context."""

import contextvars
import threading
import time

from intentbus.plugin.workers import Workers

VAR: contextvars.ContextVar = contextvars.ContextVar("test_var", default="unset")


def wait_until(predicate, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_a_blocked_job_does_not_hold_up_the_next():
    workers = Workers("t", idle_seconds=5)
    release, second_ran = threading.Event(), threading.Event()
    workers.submit(release.wait, 5)
    workers.submit(second_ran.set)
    assert second_ran.wait(2), "the second job waited for the first"
    assert workers.count == 2
    release.set()


def test_idle_workers_are_reused_and_end_after_the_idle_time():
    workers = Workers("t", idle_seconds=0.3)
    names = []
    for _ in range(20):
        done = threading.Event()
        workers.submit(lambda d=done: (names.append(threading.current_thread().name), d.set()))
        assert done.wait(2)
        wait_until(lambda: workers._idle == 1)  # back to waiting before the next submit
    assert len(set(names)) == 1 and workers.count == 1
    wait_until(lambda: workers.count == 0, 3)
    done = threading.Event()
    workers.submit(done.set)  # a new worker starts after the old one ended
    assert done.wait(2) and workers.count == 1


def test_each_job_runs_in_a_fresh_context():
    workers = Workers("t", idle_seconds=5)
    seen = []

    def job(value):
        seen.append(VAR.get())
        VAR.set(value)

    for value in ("a", "b", "c"):
        done = threading.Event()
        workers.submit(lambda v=value, d=done: (job(v), d.set()))
        assert done.wait(2)
        wait_until(lambda: workers._idle == 1)
    assert seen == ["unset", "unset", "unset"] and workers.count == 1


def test_many_concurrent_jobs_all_run_once():
    workers = Workers("t", idle_seconds=1)
    lock, ran = threading.Lock(), []
    barrier = threading.Barrier(50, timeout=5)

    def job(i):
        barrier.wait()  # all 50 are running at once: none waited for another
        with lock:
            ran.append(i)

    for i in range(50):
        workers.submit(job, i)
    wait_until(lambda: len(ran) == 50)
    assert sorted(ran) == list(range(50)) and workers.count == 50
