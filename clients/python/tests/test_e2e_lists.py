"""End to end: list parameters through the Python SDKs under the real host, in both
styles: a legacy `multiple` parameter resolved with one result per item
(tests/plugins/pylegacy.py, PyInviteIntent) and a new-style `[Project]` parameter
(tests/plugins/pynew.py, BasketIntent), each with a per-item disambiguation; and the
prompt fields both styles share."""

import sys

import pytest

from intentbus import InvalidParameters

from conftest import PYLEGACY, PYLEGACY_DEFINITIONS, PYNEW, PYNEW_INTENTS, plugin_entry, _yaml_list


def converse(host, intent, params, answers=()):
    prompts = []
    pending = list(answers)

    def on_prompt(p):
        prompts.append(p)
        assert pending, f"unexpected prompt {p.raw}"
        return pending.pop(0)
    reply = host.client().send(intent, params, on_prompt=on_prompt)
    assert pending == [], f"prompts not asked: {pending}"
    return prompts, reply


@pytest.fixture
def host(start_host):
    legacy = plugin_entry("pylegacy", [sys.executable, str(PYLEGACY)], ["PyResolveIntent", "PyInviteIntent"], "10s",
                          {"PYLEGACY_LISTS": "1"}, extra=[f"definitions: {_yaml_list([PYLEGACY_DEFINITIONS])}"])
    new = plugin_entry("pynew", [sys.executable, str(PYNEW)], list(PYNEW_INTENTS) + ["BasketIntent"], "10s",
                       {"PYNEW_LISTS": "1"})
    return start_host([legacy, new], wait_ready=["pylegacy", "pynew"])


def test_legacy_list_each_item_that_needs_it_is_asked_in_order(host):
    prompts, reply = converse(host, "PyInviteIntent", {"guests": ["alex", "Sam", "alex"]}, ["a2", "a1"])
    assert [(p.kind, p.raw["item"], p.raw["items"]) for p in prompts] == [
        ("disambiguation", 0, 3), ("disambiguation", 2, 3)]
    assert [(p.item, p.items) for p in prompts] == [(0, 3), (2, 3)]  # the typed accessors
    assert prompts[0].dialog == "There are 2 guests like ‘alex’. Which one?"
    assert reply.body["parameters"]["guests"] == ["Alex Schmidt", "Sam", "Alex Meyer"]
    assert reply.body["dialog"] == "Invited Alex Schmidt, Sam, Alex Meyer."


def test_legacy_empty_list_is_asked_for_as_a_whole(host):
    prompts, reply = converse(host, "PyInviteIntent", {}, [["Sam", "Kim"]])
    assert [(p.kind, p.parameter, p.raw.get("multiple"), p.raw["type"]) for p in prompts] == [
        ("value", "guests", True, "String")]
    assert prompts[0].multiple is True and prompts[0].item is None and prompts[0].type_title
    assert reply.body["dialog"] == "Invited Sam, Kim."


def test_new_style_entity_list_asks_about_each_ambiguous_item(host):
    # "web" matches two projects, "Garden" one.
    prompts, reply = converse(host, "BasketIntent", {"projects": ["web", "Garden", "web"], "tags": "q4"}, ["p2", "p1"])
    assert [(p.kind, p.raw["item"], p.raw["items"]) for p in prompts] == [
        ("disambiguation", 0, 3), ("disambiguation", 2, 3)]
    assert reply.body["dialog"] == "Basket: Web shop, Garden, Website relaunch."
    assert [v["id"] for v in reply.body["value"]] == ["p2", "p3", "p1"]
    assert reply.body["snippet"]["tags"] == ["q4"]  # a single value is a list of one


def test_new_style_list_metadata_and_checks(host):
    entry = host.plugin("pynew")
    assert entry is not None
    prompts, reply = converse(host, "BasketIntent", {}, [["p3"]])
    assert [(p.parameter, p.raw["type"], p.raw.get("multiple"), p.raw["entity"]) for p in prompts] == [
        ("projects", "ProjectEntity", True, "ProjectEntity")]
    assert reply.body["dialog"] == "Basket: Garden."
    with pytest.raises(InvalidParameters) as e:
        host.client().send("BasketIntent", {"projects": ["p1", 3.5]})
    assert "item 2:" in e.value.message
    assert e.value.details["problems"][0]["expected"] == "ProjectEntity"


def test_legacy_item_confirmation_yes_keeps_it_once_no_drops_it(host):
    prompts, reply = converse(host, "PyInviteIntent", {"guests": ["Sam", "maybe"]}, [True])
    assert [(p.kind, p.raw["item"], p.raw["value"]) for p in prompts] == [("confirmation", 1, "maybe")]
    assert reply.body["dialog"] == "Invited Sam, maybe."
    prompts, reply = converse(host, "PyInviteIntent", {"guests": ["maybe", "Sam"]}, [False])
    assert [(p.kind, p.raw["item"]) for p in prompts] == [("confirmation", 0)]
    assert reply.body["parameters"]["guests"] == ["Sam"]
    # Dropping the only guest leaves a required list empty: it is asked for as a whole.
    prompts, reply = converse(host, "PyInviteIntent", {"guests": ["maybe"]}, [False, ["Kim"]])
    assert [(p.kind, p.raw.get("item")) for p in prompts] == [("confirmation", 0), ("value", None)]
    assert reply.body["dialog"] == "Invited Kim."
