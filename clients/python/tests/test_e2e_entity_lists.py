"""End to end: a phrase's entity slot takes the plugin's entities, from its own entity query
(docs/sentences.md "Entity lists"), under the real host with tests/plugins/pynew.py
(PYNEW_ENTITIES=1): titles and synonyms match, other words don't, and when an intent's
REPLY says the entities changed, the new one is said without a host restart. Enum cases
match their synonyms too."""

import time

import pytest

from intentbus import UnknownIntent

from conftest import PYNEW_INTENTS, py_new_plugin

FOCUS = "Focus on {} with plugin pynew"


@pytest.fixture
def host(start_host):
    return start_host([py_new_plugin(intents=PYNEW_INTENTS + ("AddProjectIntent",),
                                     env={"PYNEW_SHORTCUTS": "1", "PYNEW_ENTITIES": "1"})], wait_ready=["pynew"])


def match(host, text):
    return host.client().send("ib.say.match", {"text": text}).body


def eventually(check, seconds=10.0):
    """`check()` until it gives something true (the host asks the plugin in the background)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = check()
        except UnknownIntent:
            found = None
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_an_entity_slot_takes_the_plugins_entities_and_their_synonyms(host):
    # After HELLO the host asks for all ProjectEntity entities: the slot gets the id.
    loaded = eventually(lambda: match(host, FOCUS.format("garden"))["parameters"]["project"].get("id"))
    assert loaded == "p3"
    assert match(host, FOCUS.format("Garten"))["parameters"] == {"project": {"id": "p3", "title": "Garden"}}
    assert host.client().send("ib.say", {"text": FOCUS.format("web shop")}).body["snippet"]["project"] == "p2"
    # Words that name no entity: the list is closed, so the phrase does not match.
    with pytest.raises(UnknownIntent):
        match(host, FOCUS.format("moon base"))


def test_say_matches_a_new_entity_once_the_plugin_says_its_entities_changed(host):
    assert eventually(lambda: match(host, FOCUS.format("garden"))["parameters"]["project"].get("id")) == "p3"
    with pytest.raises(UnknownIntent):
        match(host, FOCUS.format("moon base"))
    added = host.client().send("AddProjectIntent", {"name": "Moon base"})
    assert added.body["dialog"] == "Added Moon base."
    found = eventually(lambda: match(host, FOCUS.format("moon base"))["parameters"]["project"])
    assert found == {"id": "p4", "title": "Moon base"}
    reply = host.client().send("ib.say", {"text": FOCUS.format("Moon Base!")})
    assert reply.body["snippet"]["project"] == "p4"
    # The old entities are still there.
    assert match(host, FOCUS.format("garden"))["parameters"]["project"]["id"] == "p3"


def test_an_enum_case_matches_its_synonyms(host):
    assert match(host, "Fokus mit stürmisch Stimmung")["parameters"] == {"mood": "wild"}
    assert match(host, "Fokus mit Wild Stimmung")["parameters"] == {"mood": "wild"}
    with pytest.raises(UnknownIntent):
        match(host, "Fokus mit heiter Stimmung")


def test_a_plugin_restart_asks_again(host):
    """A new HELLO (here after the plugin's process is killed) asks for the entities again:
    the restarted plugin lost the added project, and so do the phrases."""
    import os
    import signal
    assert eventually(lambda: match(host, FOCUS.format("garden"))["parameters"]["project"].get("id")) == "p3"
    host.client().send("AddProjectIntent", {"name": "Moon base"})
    assert eventually(lambda: match(host, FOCUS.format("moon base"))["parameters"]["project"]["id"]) == "p4"
    pid = host.client().send("ib.status", {}).body["plugins"][0]["pid"]
    os.kill(pid, signal.SIGKILL)

    def forgotten():
        try:
            match(host, FOCUS.format("moon base"))
            return False
        except UnknownIntent:
            return match(host, FOCUS.format("garden"))["parameters"]["project"].get("id") == "p3"
    assert eventually(forgotten, seconds=20)
