"""End to end: a Python new-style (App Intents-style) plugin under the real host
(tests/plugins/pynew.py): metadata in HELLO checked by the host, defaults and ranges, a
missing required parameter asked first, every mid-perform question and the needs-value
restart, entity queries over the bus, authentication, migration, invalid metadata
refused with the host's message, and `intentbus validate` in describe mode."""

import json
import os
import subprocess
import sys

import pytest

from intentbus import (AuthenticationRequired, InvalidParameters, Plugin, Prompt, UnknownIntent,
                       canonical_json)

from conftest import PACKAGE_DIR, PYNEW, REPO, binary, py_new_plugin


def converse(host, intent, params, answers=(), **kw):
    """Sends a request, answering the prompts from `answers` in order; returns the
    prompts, the progress updates and the reply."""
    prompts, progress = [], []
    pending = list(answers)

    def on_prompt(p):
        prompts.append(p)
        assert pending, f"unexpected prompt {p.raw}"
        return pending.pop(0)
    reply = host.client().send(intent, params, on_prompt=on_prompt, on_progress=progress.append, **kw)
    assert pending == [], f"prompts not asked: {pending}"
    return prompts, progress, reply


@pytest.fixture
def host(start_host):
    return start_host([py_new_plugin()], wait_ready=["pynew"], host_extra="  client_credential: s3cret\n")


def test_the_host_accepted_the_metadata_and_routes_new_style(host):
    entry = host.plugin("pynew")
    assert entry["state"] == "ready" and "reason" not in entry
    assert entry["styles"]["StartFocusSessionIntent"] == "new"
    assert entry["styles"]["LegacyNotesIntent"] == "new"
    assert entry["styles"]["ib.entities"] == "plain"


def test_defaults_are_applied(host):
    prompts, progress, reply = converse(host, "StartFocusSessionIntent", {})
    assert prompts == []
    assert reply.succeeded and reply.plugin == "pynew"
    assert reply.body["dialog"] == "Focus for 25 minutes (calm)."
    assert reply.body["snippet"] == {"minutes": 25, "mood": "calm", "note": None, "project": None, "performs": 1}
    assert [p.message for p in progress] == ["starting"]


def test_given_values_are_checked_and_coerced(host):
    _, _, reply = converse(host, "StartFocusSessionIntent", {"minutes": "45", "mood": "wild", "note": 7})
    assert reply.body["snippet"]["minutes"] == 45 and reply.body["snippet"]["mood"] == "wild"
    assert reply.body["snippet"]["note"] == "7"


@pytest.mark.parametrize("params, problem", [
    ({"minutes": 200}, "must be within 5…180, got 200"),
    ({"minutes": 4}, "must be within 5…180, got 4"),
    ({"mood": "sleepy"}, "expected one of calm, wild"),
    ({"minutes": "soon"}, "expected an integer"),
])
def test_out_of_range_or_wrong_values_never_reach_the_plugin(host, params, problem):
    with pytest.raises(InvalidParameters) as e:
        host.client().send("StartFocusSessionIntent", params)
    assert problem in e.value.message
    assert e.value.details["parameter"] == next(iter(params))


def test_range_bounds_are_inclusive(host):
    for minutes in (5, 120):
        _, _, reply = converse(host, "StartFocusSessionIntent", {"minutes": minutes})
        assert reply.body["snippet"]["minutes"] == minutes


def test_an_undeclared_parameter_is_refused(host):
    with pytest.raises(InvalidParameters) as e:
        host.client().send("StartFocusSessionIntent", {"minutes": 30, "colour": "red"})
    assert 'has no parameter "colour"' in e.value.message


def test_a_missing_required_parameter_is_asked_first(host):
    prompts, _, reply = converse(host, "QuestionsIntent", {}, ["confirm_intent", True])
    assert [(p.kind, p.parameter) for p in prompts] == [("value", "ask"), ("confirmation", None)]
    assert prompts[0].dialog == "Which question?" and prompts[0].raw["type"] == "Question" and prompts[0].raw["enum"] == "Question"
    assert prompts[0].raw["type_title"] == "Question"  # the enum's type_display_name
    assert prompts[0].type_title == "Question" and prompts[0].multiple is False and prompts[0].minimum is None
    assert prompts[0].option_ids == ["value", "confirm_intent", "confirm_param", "disambiguate", "needs_value"]
    assert reply.body["snippet"]["answer"] is True and reply.body["snippet"]["performs"] == 1


def test_request_value_mid_perform(host):
    prompts, _, reply = converse(host, "QuestionsIntent", {"ask": "value"}, ["7"])
    assert [(p.kind, p.parameter, p.dialog, p.raw["type"]) for p in prompts] == [
        ("value", "count", "How many?", "Integer")]
    assert reply.body["snippet"]["answer"] == 7  # the host checked and coerced "7"


def test_a_mid_perform_answer_that_does_not_fit_ends_the_request(host):
    with pytest.raises(InvalidParameters) as e:
        converse(host, "QuestionsIntent", {"ask": "value"}, [12])
    assert "must be within 1…9, got 12" in e.value.message


def test_request_confirmation_of_the_whole_intent(host):
    prompts, _, reply = converse(host, "QuestionsIntent", {"ask": "confirm_intent"}, [False])
    assert prompts[0].raw == {"kind": "confirmation", "dialog": "Go ahead?"}
    assert reply.body["snippet"]["answer"] is False


def test_request_confirmation_of_a_parameter(host):
    prompts, _, reply = converse(host, "QuestionsIntent", {"ask": "confirm_param"}, [True])
    assert prompts[0].raw == {"kind": "confirmation", "parameter": "count", "value": 3, "dialog": "Use 3 for count?"}
    assert reply.body["snippet"]["answer"] is True


def test_request_disambiguation(host):
    prompts, _, reply = converse(host, "QuestionsIntent", {"ask": "disambiguate"}, ["disambiguate"])
    assert prompts[0].kind == "disambiguation" and prompts[0].parameter == "ask"
    assert prompts[0].raw["options"] == [{"id": "value", "title": "value"},
                                         {"id": "disambiguate", "title": "disambiguate"}]
    assert reply.body["snippet"]["answer"] == "disambiguate"


def test_needs_value_restarts_perform_with_the_answer(host):
    prompts, _, reply = converse(host, "QuestionsIntent", {"ask": "needs_value", "count": 2}, [3, 6])
    assert [p.raw for p in prompts] == [
        {"kind": "value", "parameter": "count", "type": "Integer", "type_title": "whole number",
         "minimum": 1, "maximum": 9, "range": "1…9", "dialog": "A count of at least 5, please.",
         "reason": "needs_value"}] * 2
    snippet = reply.body["snippet"]
    assert snippet == {"performs": 3, "count": 6, "answer": 6}


def test_a_declined_parameter_confirmation_raises_needs_value_and_restarts(host):
    prompts, _, reply = converse(host, "StartFocusSessionIntent", {"minutes": 150}, [False, "90"])
    assert [(p.kind, p.parameter, p.raw.get("reason")) for p in prompts] == [
        ("confirmation", "minutes", None), ("value", "minutes", "needs_value")]
    assert prompts[0].raw["value"] == 150
    assert reply.body["snippet"]["minutes"] == 90 and reply.body["snippet"]["performs"] == 2


def test_entity_parameters_resolve_by_id_by_text_and_by_choice(host):
    _, _, reply = converse(host, "StartFocusSessionIntent", {"project": "p3"})
    assert reply.body["value"] == {"id": "p3", "title": "Garden", "subtitle": "spring", "type": "ProjectEntity"}
    _, _, reply = converse(host, "StartFocusSessionIntent", {"project": {"text": "relaunch"}})
    assert reply.body["snippet"]["project"] == "p1"
    prompts, _, reply = converse(host, "StartFocusSessionIntent", {"project": "web"}, ["p2"])
    assert prompts[0].kind == "disambiguation" and prompts[0].option_ids == ["p1", "p2"]
    assert prompts[0].dialog == 'Which project do you mean by "web"?'
    assert reply.body["snippet"]["project"] == "p2"
    # A text that matches nothing asks again with the query's suggestions (needsValue).
    prompts, _, reply = converse(host, "StartFocusSessionIntent", {"project": "nothing like it"}, ["chai", "p2"])
    assert [(p.kind, p.parameter, p.raw.get("reason")) for p in prompts] == [("value", "project", "no_match")] * 2
    assert prompts[0].dialog == "No Project matches \u201cnothing like it\u201d. Which Project do you mean?"
    assert prompts[1].dialog == "No Project matches \u201cchai\u201d. Which Project do you mean?"
    assert prompts[0].option_ids == ["p1", "p2"]
    assert reply.body["snippet"]["project"] == "p2"
    with pytest.raises(InvalidParameters) as e:
        converse(host, "StartFocusSessionIntent", {"project": "nothing like it"}, ["nothing"] * 11)
    assert "still has no usable value" in e.value.message


def test_entity_queries_over_the_bus(host):
    client = host.client()
    suggested = client.entities("ProjectEntity")
    assert suggested["entity"] == "ProjectEntity" and suggested["query"] == "suggested"
    assert [e["id"] for e in suggested["results"]] == ["p1", "p2"]
    assert suggested["results"][0] == {"id": "p1", "title": "Website relaunch", "subtitle": "due 2026-12-15",
                                       "type": "ProjectEntity"}
    assert [e["id"] for e in client.entities("ProjectEntity", "ids", ids=["p3", "nope", "p1"])["results"]] == \
        ["p3", "p1"]
    assert [e["title"] for e in client.entities("ProjectEntity", "matching", text="WEB")["results"]] == \
        ["Website relaunch", "Web shop"]
    assert len(client.entities("ProjectEntity", "all", plugin="pynew")["results"]) == 3
    with pytest.raises(UnknownIntent) as e:
        client.entities("TaskEntity")
    assert e.value.details["known_entities"] == ["ProjectEntity"]


def test_authentication_policy(host):
    with pytest.raises(AuthenticationRequired):
        host.client().send("SecretNoteIntent", {})
    with pytest.raises(AuthenticationRequired):
        host.client().send("SecretNoteIntent", {}, credential="wrong")
    reply = host.client().send("SecretNoteIntent", {}, credential="s3cret")
    assert reply.body == {"dialog": "The secret is safe."}


def test_a_migrated_intent_is_reached_by_its_legacy_name(host):
    reply = host.client().send("LegacyNotesIntent", {"filter": "work", "sortOrder": "date"})
    assert reply.succeeded
    assert reply.body["snippet"] == {"filter": "work", "migrated_from": "LegacyNotesIntent"}
    assert reply.header["migrated_from"] == "LegacyNotesIntent"
    assert reply.header["handled_by"] == "ListNotesIntent"
    assert reply.header["unmapped_parameters"] == [
        {"name": "sortOrder", "value": "date", "reason": 'ListNotesIntent has no parameter "sortOrder"'}]
    # The new name works too, without migration headers.
    direct = host.client().send("ListNotesIntent", {})
    assert "migrated_from" not in direct.header and direct.body["snippet"]["migrated_from"] is None


def test_invalid_metadata_is_rejected_by_the_host_with_its_message(start_host):
    host = start_host([py_new_plugin("broken", intents=("StartFocusSessionIntent", "BrokenIntent"),
                                     env={"PYNEW_INVALID": "1"})])
    entry = host.wait_plugin("broken", state="failed")
    expected = ("invalid new-style metadata: BrokenIntent.minutes: default 500 is outside its range 5…180; "
                "BrokenIntent.nameless: parameter has no title (App Intents' rule: every @Parameter has a title)")
    assert entry["reason"] == f"handshake rejected: {expected}"
    host.wait_log(f"rejected HELLO from plugin broken: {expected}")
    host.wait_log(f"host rejected the handshake (bad_metadata): {expected}")


def _validate(*args, env_extra=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PACKAGE_DIR)
    env.update(env_extra or {})
    return subprocess.run([binary("intentbus"), "validate", *args], capture_output=True, text=True, timeout=60,
                          env=env, stdin=subprocess.DEVNULL, cwd=str(REPO))


def test_intentbus_validate_runs_the_python_plugin_in_describe_mode():
    r = _validate("--exec", sys.executable, str(PYNEW))
    assert r.returncode == 0, r.stderr
    assert "valid — 4 new-style intents" in r.stdout
    assert "ListNotesIntent  \"List notes\"  (migrates LegacyNotesIntent)" in r.stdout
    assert "entity ProjectEntity \"Project\": ids, suggested, matching, all" in r.stdout
    r = _validate("--exec", sys.executable, str(PYNEW), "--json")
    assert json.loads(r.stdout)["metadata"]["new_style"]["version"] == 1


def test_intentbus_validate_reports_invalid_python_metadata():
    r = _validate("--exec", sys.executable, str(PYNEW), env_extra={"PYNEW_INVALID": "1"})
    assert r.returncode == 1
    assert "BrokenIntent.minutes: default 500 is outside its range 5…180" in r.stderr
    assert "2 errors: the host would reject this plugin's HELLO" in r.stderr


def test_intentbus_validate_the_demo_coffee_plugin():
    """The legacy coffee plugin of the demo manifest: describe mode applies to any Python plugin."""
    r = _validate("--config", str(REPO / "plugins.yaml"), "coffee", "--json")
    assert r.returncode == 0, r.stderr
    # A legacy handler announces its phases, `run` among them (docs/protocol.md §8.9).
    phases = ["resolve", "confirm", "handle", "options", "run"]
    assert json.loads(r.stdout) == {"plugin": "coffee", "metadata": {},
                                    "intents": [{"name": "OrderCoffeeIntent", "style": "legacy", "phases": phases}]}


def test_describe_mode_prints_one_canonical_json_line():
    env = {"INTENTBUS_DESCRIBE": "1", "PYTHONPATH": str(PACKAGE_DIR), "PATH": os.environ.get("PATH", "")}
    r = subprocess.run([sys.executable, str(PYNEW)], capture_output=True, timeout=60, env=env,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1
    described = json.loads(lines[0])
    assert canonical_json(described) == lines[0]
    assert described["plugin"] == "describe"
    assert {"name": "ib.entities", "style": "plain"} in described["intents"]
