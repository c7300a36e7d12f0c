"""End to end: date and url parameters of a Python new-style plugin under the real host
(tests/plugins/pynew.py ScheduleIntent): the host normalises dates to the wire forms of
docs/protocol.md §9.1, the SDK hands perform() `datetime.date` / aware UTC
`datetime.datetime`, defaults apply, bad values are refused, a missing date is asked."""

import pytest

from intentbus import InvalidParameters

from conftest import PYNEW_INTENTS, py_new_plugin


@pytest.fixture
def host(start_host):
    return start_host([py_new_plugin(intents=PYNEW_INTENTS + ("ScheduleIntent",), env={"PYNEW_DATES": "1"})], wait_ready=["pynew"])


def send(host, params, answers=()):
    prompts, pending = [], list(answers)

    def on_prompt(p):
        prompts.append(p)
        assert pending, f"unexpected prompt {p.raw}"
        return pending.pop(0)
    reply = host.client().send("ScheduleIntent", params, on_prompt=on_prompt)
    return prompts, reply


def test_a_date_with_time_arrives_as_aware_utc_datetime_and_defaults_apply(host):
    _, reply = send(host, {"due": "2026-12-01T09:30:00+01:00", "link": "https://intentbus.example/x"})
    assert reply.body["dialog"] == "Due 2026-12-01T08:30:00+00:00"
    assert reply.body["value"] == "2026-12-01T08:30:00Z"  # a returned datetime, as the Swift SDK writes it
    assert reply.body["snippet"] == {"due_type": "datetime", "start_type": "date", "start": "2026-12-01",
                                     "link": "https://intentbus.example/x"}


def test_a_date_only_arrives_as_date(host):
    _, reply = send(host, {"due": "2027-01-15"})
    assert reply.body["dialog"] == "Due 2027-01-15"
    assert reply.body["snippet"]["due_type"] == "date" and reply.body["snippet"]["link"] is None


@pytest.mark.parametrize("params,parameter,expected", [
    ({"due": "next friday"}, "due", "ISO 8601"),
    ({"due": "2026-13-01"}, "due", "ISO 8601"),
    ({"due": "2026-12-01T09:30"}, "due", "ISO 8601"),
    ({"due": "2026-12-01", "link": "/relative"}, "link", "absolute URL"),
])
def test_bad_dates_and_relative_urls_are_refused_naming_the_parameter(host, params, parameter, expected):
    with pytest.raises(InvalidParameters) as e:
        send(host, params)
    assert e.value.details["parameter"] == parameter
    assert expected in str(e.value)


def test_a_missing_date_is_asked_with_type_date(host):
    prompts, reply = send(host, {}, answers=["2027-02-01T00:00:00-05:00"])
    assert [(p.parameter, p.raw["type"], p.dialog) for p in prompts] == [("due", "Date", "When is it due?")]
    assert reply.body["value"] == "2027-02-01T05:00:00Z"
