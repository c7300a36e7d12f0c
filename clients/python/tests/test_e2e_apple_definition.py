"""End to end: one intent of a public app's Xcode definition, as the app ships it
(home-assistant iOS's CallService, ../shared/apple beside the repository), served by a
Python legacy plugin (tests/plugins/pyhass.py) under the real host: the German
questions and dialogs from its de.lproj/Intents.strings for a de-DE client, the English
ones otherwise, and `service`'s dynamic options (a String parameter)."""

import sys
from pathlib import Path

import pytest

from conftest import REPO, plugin_entry, _yaml_list

HASS = REPO.parent / "shared" / "apple" / "home-assistant-ios" / "Base.lproj" / "Intents.intentdefinition"
PYHASS = Path(__file__).resolve().parent / "plugins" / "pyhass.py"


@pytest.fixture
def host(start_host):
    if not HASS.is_file():
        pytest.fail(f"the real Xcode files are missing: expected {HASS} (../shared/apple beside the repository)")
    entry = plugin_entry("hass", [sys.executable, str(PYHASS)], ["CallService"], "10s",
                         extra=[f"definitions: {_yaml_list([str(HASS)])}"])
    return start_host([entry], wait_ready=["hass"])


def converse(host, params, answers, locale=None):
    prompts = []
    pending = list(answers)

    def on_prompt(p):
        prompts.append(p)
        assert pending, f"unexpected prompt {p.raw}"
        return pending.pop(0)
    reply = host.client().send("CallService", params, on_prompt=on_prompt, locale=locale)
    assert pending == [], f"prompts not asked: {pending}"
    return prompts, reply


def test_german_questions_options_and_dialog_from_de_lproj(host):
    prompts, reply = converse(host, {}, ["light.turn_on", '{"entity_id": "light.kitchen"}'], locale="de-DE")
    service, payload = prompts
    assert service.parameter == "service" and service.raw["dynamic_options"] is True
    assert [o["title"] for o in service.raw["options"]] == ["light.turn_on", "light.turn_off"]
    assert payload.parameter == "payload"
    assert payload.dialog == "Welche Dienst-Daten möchtest du senden?"
    assert reply.succeeded and reply.body["code"] == "success"
    assert reply.body["dialog"] == "Fertig"
    assert reply.body["concise_dialog"] == "light.turn_on aufgerufen"


def test_a_failure_code_speaks_german_and_english_without_the_locale(host):
    _, german = converse(host, {"service": "light.explode", "payload": "{}"}, [], locale="de-DE")
    assert german.body["code"] == "failure"
    assert german.body["dialog"] == "Fehlgeschlagen: unbekannter Dienst"
    prompts, english = converse(host, {"service": "light.turn_off"}, ["{}"])
    assert prompts[0].dialog == "What service data do you want to send?"
    assert english.body["dialog"] == "Done"
