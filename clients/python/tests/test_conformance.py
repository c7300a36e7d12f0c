"""The Python codec against the shared conformance vectors (conformance/*.json).

The Swift suite (Tests/IntentBusTests/ConformanceTests.swift) reads the same files;
both must produce and accept exactly these bytes.
"""

import json
import math
import os
import subprocess
import sys

import pytest

from intentbus import BusError, ErrorCode, Kind, Message, WireError, canonical_json, error_class
from intentbus.client import Prompt

CONFORMANCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "conformance")


def load(name):
    with open(os.path.join(CONFORMANCE, name), encoding="utf-8") as f:
        return json.load(f)


def all_vectors():
    out = []
    for name in ("messages.json", "handshake.json", "errors.json", "json.json"):
        out += load(name)["vectors"]
    for conv in load("conversations.json")["conversations"]:
        out += conv["steps"]
    return out


VECTORS = all_vectors()


def frames_of(v):
    return [bytes.fromhex(f["hex"]) for f in v["frames"]]


def same_json(a, b):
    """Equality that keeps number classes apart (Python's 1 == 1.0 == True would not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def test_there_are_vectors_for_every_kind():
    kinds = {v["message"]["kind"] for v in VECTORS}
    assert kinds == {k.value for k in Kind}


def test_there_is_an_error_vector_for_every_code():
    codes = {v["error_code"] for v in load("errors.json")["vectors"]}
    assert codes == {c.value for c in ErrorCode}


def test_there_are_conversations_for_every_prompt_kind():
    kinds = {s["message"]["body"]["kind"] for c in load("conversations.json")["conversations"]
             for s in c["steps"] if s["message"]["kind"] == "PROMPT"}
    assert kinds == {"value", "disambiguation", "confirmation", "plugin_choice"}


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_encode(v):
    m = v["message"]
    msg = Message.build(m["kind"], m["request_id"], m["intent"], m["header"], m["body"])
    assert msg.encode() == frames_of(v)


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_decode(v):
    m = v["message"]
    frames = frames_of(v)
    msg = Message.decode(frames)
    assert msg.kind is Kind(m["kind"])
    assert msg.request_id == m["request_id"]
    assert msg.intent == m["intent"]
    assert msg.header == frames[4] and msg.body == frames[5]
    header, body = msg.header_json(), msg.body_json()
    assert same_json(header, {} if m["header"] is None else m["header"])
    assert same_json(body, {} if m["body"] is None else m["body"])
    # Decoding and re-encoding gives the same bytes: number classes and key order survive.
    if m["header"] is not None:
        assert canonical_json(header) == frames[4]
    if m["body"] is not None:
        assert canonical_json(body) == frames[5]


@pytest.mark.parametrize("v", load("errors.json")["vectors"], ids=lambda v: v["name"])
def test_error_bodies_become_the_right_exception(v):
    body = Message.decode(frames_of(v)).body_json()
    err = BusError.from_body(body, request_id="r1")
    assert type(err) is error_class(v["error_code"])
    assert err.code.value == v["error_code"]
    assert err.message == body["message"]
    assert err.details == body.get("details", {})
    assert canonical_json(err.body) == frames_of(v)[5]


@pytest.mark.parametrize("v", [s for c in load("conversations.json")["conversations"] for s in c["steps"]
                               if s["message"]["kind"] == "PROMPT"], ids=lambda v: v["name"])
def test_prompt_bodies_parse(v):
    body = v["message"]["body"]
    p = Prompt.from_body(Message.decode(frames_of(v)).body_json())
    assert p.kind == body["kind"]
    assert p.dialog == body["dialog"]
    assert p.parameter == body.get("parameter")
    assert p.option_ids == [o["id"] for o in body.get("options", [])]
    assert p.remember == body.get("remember", [])


INVALID = load("malformed.json")["invalid"]


@pytest.mark.parametrize("v", INVALID, ids=[v["name"] for v in INVALID])
def test_malformed_frames_are_refused_with_their_code(v):
    with pytest.raises(WireError) as e:
        Message.decode(frames_of(v))
    assert e.value.code.value == v["error"]


BAD_JSON = load("malformed.json")["bad_json"]


@pytest.mark.parametrize("v", BAD_JSON, ids=[v["name"] for v in BAD_JSON])
def test_bad_json_decodes_as_frames_but_not_as_json(v):
    msg = Message.decode(frames_of(v))
    parse = msg.header_json if v["bad"] == "header" else msg.body_json
    with pytest.raises(WireError) as e:
        parse()
    assert e.value.code is ErrorCode.BAD_FRAME


def test_names_longer_than_255_bytes_are_not_encoded():
    with pytest.raises(WireError):
        Message.build("REQUEST", "r" * 256, "X", None, {}).encode()
    with pytest.raises(WireError):
        Message.build("REQUEST", "r", "ü" * 128, None, {}).encode()


def test_non_finite_numbers_are_not_json():
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})
    with pytest.raises(WireError):
        Message("REPLY", "r", "X", b"", b"NaN").body_json()


def test_vector_files_match_their_generator():
    r = subprocess.run([sys.executable, os.path.join(CONFORMANCE, "generate.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
