"""End to end: a request's `context` (docs/protocol.md §4.1) under the real host: checked
where the header enters, delivered to plain and new-style plugins, and used by app
shortcuts that require or exclude some of it (tests/plugins/pynew.py with PYNEW_CONTEXT=1:
"Fokus hier" runs one intent in a kitchen and another in an office)."""

import json
import subprocess

import pytest

from intentbus import BadFrame, UnknownIntent

from conftest import binary, py_new_plugin, py_plugin


@pytest.fixture
def host(start_host):
    return start_host([py_new_plugin(env={"PYNEW_SHORTCUTS": "1", "PYNEW_CONTEXT": "1"}),
                       py_plugin("plain", intents=("PyIntent",))], wait_ready=["pynew", "plain"])


def test_the_same_words_run_what_the_context_asks_for(host):
    client = host.client()
    kitchen = client.send("ib.say", {"text": "Fokus hier mit Plugin pynew"}, context={"area": "Küche", "mood": "wild"})
    assert kitchen.body["dialog"] == "Focus for 25 minutes (wild)."  # mood copied from the context
    assert kitchen.body["snippet"]["context"] == {"area": "Küche", "mood": "wild"}  # perform() saw it
    office = client.send("ib.say", {"text": "Fokus hier mit Plugin pynew"}, context={"area": "Office", "mood": "calm"})
    assert office.body["dialog"] == "Here are your notes."
    # Without the context, in another area, or with an excluded value: no phrase matches.
    for context in (None, {"area": "Garage", "mood": "calm"}, {"area": "Office", "mood": "wild"}):
        with pytest.raises(UnknownIntent):
            client.send("ib.say", {"text": "Fokus hier mit Plugin pynew"}, context=context)
    # A kitchen phrase that copies the mood needs one: the requirement is not met without it.
    with pytest.raises(UnknownIntent):
        client.send("ib.say", {"text": "Fokus hier mit Plugin pynew"}, context={"area": "Kitchen"})


def test_say_match_reports_the_parameters_the_context_filled(host):
    match = host.client().send("ib.say.match", {"text": "fokus hier mit plugin pynew!"}, context={"area": "Kitchen", "mood": "calm"})
    assert match.body["intent"] == "StartFocusSessionIntent"
    assert match.body["parameters"] == {"mood": "calm"}
    # Phrases without conditions match in any context, as before.
    assert host.client().send("ib.say", {"text": "Starte Plugin pynew"},
                              context={"area": "Kitchen"}).body["dialog"] == "Focus for 25 minutes (calm)."


def test_a_plain_plugin_gets_the_context_in_its_header(host):
    reply = host.client().send("PyIntent", {"x": 1}, context={"satellite": "s1", "volume": 7, "muted": False})
    assert reply.body["context"] == {"satellite": "s1", "volume": 7, "muted": False}
    assert "context" not in host.client().send("PyIntent", {"x": 1}).body


@pytest.mark.parametrize("context, says", [
    ({"area": {"name": "Kitchen"}}, '"area" must be a string, a number or a boolean'),
    ({"rooms": ["a", "b"]}, '"rooms" must be a string, a number or a boolean'),
    ({f"k{i}": i for i in range(17)}, "17 entries; at most 16"),
    ({"k" * 65: "x"}, "a key must be 1 to 64 bytes"),
    ({"area": "x" * 256}, '"area" must be at most 255 bytes, got 256'),
])
def test_a_context_out_of_bounds_is_refused_with_the_reason(host, context, says):
    with pytest.raises(BadFrame) as e:
        host.client().send("PyIntent", {}, context=context)
    assert says in e.value.message


def test_the_client_writes_locale_and_context_into_the_header():
    from intentbus.client import request_header
    assert request_header(None, None, None, False, None, None, context={}) is None
    assert request_header(None, None, None, False, None, None, "de-DE", {"area": "Kitchen"}) == {
        "locale": "de-DE", "context": {"area": "Kitchen"}}


def test_the_cli_sends_the_context_for_send_and_say(host):
    def cli(*args):
        r = subprocess.run([binary("intentbus"), *args, "--endpoint", host.frontend], capture_output=True, text=True,
                           timeout=60, stdin=subprocess.DEVNULL)
        return r.returncode, r.stdout, r.stderr
    rc, out, err = cli("send", "PyIntent", "--context", "area=Kitchen", "--context", "satellite=s1", "--json")
    assert rc == 0, err
    assert json.loads(out)["body"]["context"] == {"area": "Kitchen", "satellite": "s1"}
    rc, out, err = cli("say", "Fokus hier mit Plugin pynew", "--context", "area=Office", "--context", "mood=calm")
    assert rc == 0 and "Here are your notes." in out, (out, err)
    rc, out, err = cli("say", "--match", "Fokus hier mit Plugin pynew", "--context", "area=Kitchen", "--context",
                       "mood=wild", "--json")
    assert rc == 0 and json.loads(out)["parameters"] == {"mood": "wild"}, (out, err)
    rc, out, err = cli("say", "Fokus hier mit Plugin pynew")
    assert rc == 3 and "no phrase matches" in err
    rc, out, err = cli("send", "PyIntent", "--context", "=Kitchen")
    assert rc != 0 and "--context takes key=value" in err


def test_a_shortcuts_lists_fill_slots_of_any_type(host):
    client = host.client()
    minutes = client.send("ib.say", {"text": "Fokus für 30 Minuten mit Plugin pynew"})
    assert minutes.body["snippet"]["minutes"] == 30  # an integer from the range, not the words
    assert client.send("ib.say.match", {"text": "leise fokussieren mit Plugin pynew"}).body["parameters"] == {
        "note": "quiet"}
    assert client.send("ib.say", {"text": "laut fokussieren mit Plugin pynew"}).body["snippet"]["note"] == "laut"
    # Outside the list: no phrase matches (31 is not a step of 5; "schnell" is not a value).
    for text in ("Fokus für 31 Minuten mit Plugin pynew", "Fokus für 500 Minuten mit Plugin pynew",
                 "schnell fokussieren mit Plugin pynew"):
        with pytest.raises(UnknownIntent):
            client.send("ib.say", {"text": text})
