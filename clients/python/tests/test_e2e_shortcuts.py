"""End to end: app shortcuts declared by a Python new-style plugin (tests/plugins/pynew.py)
under the real host: checked at HELLO, run by `ib.say` with an enum and an entity slot,
the donation the result carries, and a user phrase."""

import os
import subprocess
import sys

import pytest

from intentbus import APPLICATION_NAME, AppShortcut, IntentDonation, InvalidParameters, UnknownIntent, slot
from intentbus.shortcuts import deletion

from conftest import PYNEW, REPO, binary, py_new_plugin


def say(host, text, answers=()):
    pending = list(answers)
    return host.client().send("ib.say", {"text": text}, on_prompt=lambda p: pending.pop(0))


@pytest.fixture
def host(start_host):
    return start_host([py_new_plugin(env={"PYNEW_SHORTCUTS": "1"})], wait_ready=["pynew"])


def test_the_sdk_builds_the_metadata():
    class Fake:
        @classmethod
        def intent_identifier(cls):
            return "FakeIntent"
    s = AppShortcut(Fake, [f"Open {slot('project')} in {APPLICATION_NAME}"], short_title="Open", system_image_name="folder")
    assert s.metadata() == {"intent": "FakeIntent", "phrases": ["Open ${project} in ${applicationName}"],
                            "short_title": "Open", "system_image_name": "folder"}
    assert IntentDonation(identifier="a", suggested_phrase="Go").to_json() == {
        "identifier": "a", "suggested_phrase": "Go", "eligible_for_prediction": True}
    assert deletion(group="g") == {"group": "g"}
    with pytest.raises(ValueError):
        deletion(group="g", all=True)


def test_say_fills_an_enum_slot_by_its_display_name(host):
    reply = say(host, "fokus mit Wild Stimmung!")
    assert reply.plugin == "pynew"
    assert reply.body["dialog"] == "Focus for 25 minutes (wild)."


def test_say_fills_an_entity_slot_through_the_plugins_query(host):
    reply = say(host, "Focus on garden with plugin pynew")
    assert reply.body["snippet"]["project"] == "p3"
    with pytest.raises(UnknownIntent) as e:
        say(host, "Focus with the garden")
    assert e.value.details["closest"][0] == "Focus on ${project} with Plugin pynew"


def test_the_result_donates_and_add_to_siri_uses_its_phrase(host):
    say(host, "Starte Plugin pynew")
    client = host.client()
    donations = client.send("ib.donations.list", {}).body["donations"]
    assert donations[0]["identifier"] == "focus-calm" and donations[0]["source"] == "plugin"
    client.send("ib.shortcuts.add", {"donation": "focus-calm"})
    assert say(host, "Fokus, bitte!").body["dialog"] == "Focus for 25 minutes (calm)."
    suggestions = client.send("ib.suggestions", {}).body["suggestions"]
    assert suggestions[0]["intent"] == "StartFocusSessionIntent"
    assert suggestions[0]["phrase"] == "Fokus bitte"
    with pytest.raises(InvalidParameters):
        client.send("ib.shortcuts.add", {"phrase": "Starte Plugin pynew", "intent": "QuestionsIntent"})


def test_invalid_shortcuts_are_refused_at_hello_and_by_validate(start_host, tmp_path):
    host = start_host([py_new_plugin(env={"PYNEW_SHORTCUTS": "bad"})])
    entry = host.wait_plugin("pynew", state="failed")
    assert "neither ${applicationName} nor a parameter" in entry["reason"]
    env = dict(os.environ, PYNEW_SHORTCUTS="bad")
    out = subprocess.run([binary("intentbus"), "validate", "--exec", sys.executable, str(PYNEW)], capture_output=True,
                         text=True, env=env, cwd=REPO, timeout=60)
    assert out.returncode == 1
    assert "neither ${applicationName} nor a parameter" in out.stderr
