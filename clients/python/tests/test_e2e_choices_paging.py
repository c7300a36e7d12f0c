"""`ib.choices.list` over many stored choices (docs/reliability.md, "Host intents"): the
listing answers in pages of at most 1,000, from the router's sorted in-memory copy with
one date format style, so a listing never stalls the router and other clients' pings
are answered meanwhile. The walk through every page visits each choice exactly once."""

import sqlite3
import threading
import time

from conftest import py_plugin

STORED = 60_000


def store_choices(state):
    db = sqlite3.connect(f"{state}/choices.sqlite3")
    db.executescript("""
        CREATE TABLE choices (intent TEXT NOT NULL, client TEXT NOT NULL, plugin TEXT NOT NULL,
                              set_at INTEGER NOT NULL, source TEXT NOT NULL,
                              PRIMARY KEY (intent, client)) WITHOUT ROWID;
        PRAGMA user_version = 1;
    """)
    rows = [(f"Intent{i % 3}", f"client-{i:06d}", "one", 1_700_000_000_000 + i, "always") for i in range(STORED)]
    db.executemany("INSERT INTO choices VALUES (?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()


def test_listing_many_choices_is_paged_and_never_stalls_pings(start_host):
    host = start_host([py_plugin("one", intents=("Intent0", "Intent1", "Intent2"))], prepare_state=store_choices)
    host.wait_log(f"choice store: {STORED} remembered choices")
    lister = host.client()
    pinger = host.client()
    worst_ping = [0.0]
    stop = threading.Event()

    def ping_meanwhile():
        while not stop.is_set():
            t = time.monotonic()
            pinger.ping(wait=2)
            worst_ping[0] = max(worst_ping[0], time.monotonic() - t)
            time.sleep(0.01)

    pings = threading.Thread(target=ping_meanwhile)
    pings.start()
    seen = []
    pages = 0
    worst_page = 0.0
    body = {}
    try:
        while True:
            t = time.monotonic()
            reply = lister.control("ib.choices.list", body, wait=5)
            worst_page = max(worst_page, time.monotonic() - t)
            pages += 1
            assert len(reply["choices"]) <= 1000
            seen += [(c["intent"], c["client"]) for c in reply["choices"]]
            if reply["next"] is None:
                break
            body = {"after": reply["next"]}
    finally:
        stop.set()
        pings.join()
    print(f"{STORED} choices in {pages} pages: worst page {worst_page * 1000:.0f} ms, worst ping meanwhile {worst_ping[0] * 1000:.0f} ms")
    assert len(seen) == STORED and len(set(seen)) == STORED
    assert seen == sorted(seen)
    assert seen[0] == ("Intent0", "client-000000")
    assert pages == STORED // 1000
    assert worst_page < 0.5 and worst_ping[0] < 0.5
    # A filtered page, a small limit, and a bad limit.
    one = lister.control("ib.choices.list", {"intent": "Intent2", "limit": 2})
    assert [c["intent"] for c in one["choices"]] == ["Intent2", "Intent2"]
    assert one["choices"][0]["set_at"] == "2023-11-14T22:13:20.002Z"
    rest = lister.control("ib.choices.list", {"intent": "Intent2", "after": one["next"], "limit": 1000})
    assert rest["choices"][0]["client"] == "client-000008"
    try:
        lister.control("ib.choices.list", {"limit": 1001})
        raise AssertionError("limit 1001 was accepted")
    except Exception as e:
        assert "within 1…1000" in str(e), e
