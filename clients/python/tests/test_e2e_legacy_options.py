"""End to end: dynamic options from a Python legacy plugin under the real host
(tests/plugins/pylegacy.py, PyOptionsIntent; docs/protocol.md §8.5). The host asks the
plugin for `flavour`'s options before it asks the user, offers them in the value prompt
with `dynamic_options`, and takes an option's id as its value; `size`'s handler has no
options, so the host asks for it without any."""

import sys

import pytest

from conftest import PYLEGACY, PYLEGACY_DEFINITIONS, plugin_entry, _yaml_list


@pytest.fixture
def host(start_host):
    legacy = plugin_entry("pylegacy", [sys.executable, str(PYLEGACY)], ["PyResolveIntent", "PyOptionsIntent"], "10s",
                          {"PYLEGACY_OPTIONS": "1"}, extra=[f"definitions: {_yaml_list([PYLEGACY_DEFINITIONS])}"])
    return start_host([legacy], wait_ready=["pylegacy"])


def converse(host, params, answers):
    prompts = []
    pending = list(answers)

    def on_prompt(p):
        prompts.append(p)
        assert pending, f"unexpected prompt {p.raw}"
        return pending.pop(0)
    reply = host.client().send("PyOptionsIntent", params, on_prompt=on_prompt)
    assert pending == [], f"prompts not asked: {pending}"
    return prompts, reply


def test_the_plugins_options_are_offered_and_an_id_becomes_its_value(host):
    prompts, reply = converse(host, {}, ["v", "large"])
    flavour, size = prompts
    assert (flavour.kind, flavour.parameter, flavour.dialog) == ("value", "flavour", "Which flavour?")
    assert flavour.raw["dynamic_options"] is True
    # A dict option as given; a plain value is its own id and title.
    assert flavour.raw["options"] == [{"id": "v", "title": "Vanilla", "subtitle": "classic", "value": "vanilla"},
                                      {"id": "chocolate", "title": "chocolate", "value": "chocolate"}]
    # The handler has no options for `size`: an error the host logs, then a plain question.
    assert (size.kind, size.parameter, size.dialog) == ("value", "size", "Which size?")
    assert "options" not in size.raw and "dynamic_options" not in size.raw
    assert reply.succeeded
    assert reply.body["parameters"] == {"flavour": "vanilla", "size": "large"}
    assert reply.body["dialog"] == "One large vanilla."


def test_an_answer_that_is_no_options_id_is_taken_as_a_value(host):
    prompts, reply = converse(host, {"size": "small"}, ["pistachio"])
    assert [p.parameter for p in prompts] == ["flavour"]
    assert reply.body["parameters"]["flavour"] == "pistachio"
    assert reply.body["dialog"] == "One small pistachio."


def test_a_value_given_up_front_asks_nothing(host):
    prompts, reply = converse(host, {"flavour": "chocolate", "size": "small"}, [])
    assert prompts == []
    assert reply.body["dialog"] == "One small chocolate."
