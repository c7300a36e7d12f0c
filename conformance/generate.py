#!/usr/bin/env python3
"""Writes the IB1 conformance vectors (the *.json files beside this script).

The vectors are data: the Swift tests (Tests/IntentBusTests/ConformanceTests.swift)
and the Python tests (clients/python/tests/test_conformance.py) read the JSON files,
not this script. The script only saves typing the hex by hand, and it deliberately
does not import either implementation: frames are built here from docs/protocol.md
§2 directly (six frames; header and body as canonical JSON; null = empty frame).

Change the protocol → change the messages below → run `python3 conformance/generate.py`
→ both suites see the new bytes. `--check` exits 1 when the files are out of date.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def frame(data):
    """A frame as stored: hex (authoritative) plus its text when it is UTF-8."""
    out = {"hex": data.hex()}
    try:
        out["text"] = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    return out


def vector(name, kind, request_id="", intent="", header=None, body=None, *, direction, section, note=None,
           **extra):
    """A valid message: its fields, and the exact frames a sender writes for it."""
    frames = [b"IB1", kind.encode("ascii"), request_id.encode("utf-8"), intent.encode("utf-8"),
              b"" if header is None else canonical(header), b"" if body is None else canonical(body)]
    v = {"name": name, "section": section, "direction": direction}
    if note:
        v["note"] = note
    v.update(extra)
    v["message"] = {"kind": kind, "request_id": request_id, "intent": intent, "header": header, "body": body}
    v["frames"] = [frame(f) for f in frames]
    return v


def invalid(name, frames, error, note):
    """Frames a receiver must refuse, with the error code it reports."""
    return {"name": name, "note": note, "error": error, "frames": [frame(f) for f in frames]}


# ---------------------------------------------------------------------------------------
# messages.json: every message kind, in the directions docs/protocol.md §3 lists.

C2H, H2C, H2P, P2H, EITHER = "client → host", "host → client", "host → plugin", "plugin → host", "either way"

MESSAGES = [
    vector("request-minimal", "REQUEST", "r1", "StatusIntent", None, {}, direction=C2H, section="4.1",
           note="no header fields: the header frame is empty"),
    vector("request-empty-body", "REQUEST", "r2", "StatusIntent", None, None, direction=C2H, section="4.1",
           note="an empty body frame means {}"),
    vector("request-all-header-fields", "REQUEST", "7f3c9a2e-0001", "INSendMessageIntent",
           {"timeout_ms": 2500, "plugin": "messenger", "choice": "ask", "remember": True, "client": "kitchen-tablet",
            "credential": "s3cret"},
           {"recipient": "Alex", "content": "Hi / Grüße ✓"}, direction=C2H, section="4.1"),
    vector("request-host-intent", "REQUEST", "p1", "ib.ping", None, {}, direction=C2H, section="6"),
    vector("reply-success", "REPLY", "r1", "StatusIntent", {"plugin": "balance", "status": "success"},
           {"balance": "12,34 €"}, direction=H2C, section="4.2"),
    vector("reply-failure", "REPLY", "r3", "OrderCoffeeIntent", {"plugin": "coffee", "status": "failure"},
           {"code": "failure", "dialog": "You can order from 1 to 10 coffees at a time.", "response": {}},
           direction=H2C, section="4.2"),
    vector("reply-any-json-body", "REPLY", "r4", "EchoIntent", {"plugin": "echo", "status": "success"},
           [1, "two", 3.0, None, False], direction=H2C, section="4.2",
           note="plain handlers may return any JSON, not only objects"),
    vector("reply-host-intent", "REPLY", "p1", "ib.ping", {"plugin": "ib", "status": "success"},
           {"protocol": 1}, direction=H2C, section="6"),
    vector("error-client", "ERROR", "r5", "NoSuchIntent", None,
           {"code": "unknown_intent", "message": "no plugin claims intent \"NoSuchIntent\"",
            "details": {"known_intents": ["EchoIntent", "StatusIntent"]}}, direction=H2C, section="4.3"),
    vector("prompt-value", "PROMPT", "r6", "INSendMessageIntent", None,
           {"kind": "value", "parameter": "content", "dialog": "What do you want to say?", "type": "String"},
           direction=H2C, section="4.4"),
    vector("answer-value", "ANSWER", "r6", "INSendMessageIntent", None, {"value": "Bin gleich da"},
           direction=C2H, section="4.4"),
    vector("answer-empty-intent", "ANSWER", "r6", "", None, {"value": 3}, direction=C2H, section="4.4",
           note="the intent frame of an ANSWER may be empty"),
    vector("progress-full", "PROGRESS", "r7", "OrderCoffeeIntent", None,
           {"message": "Sending your order to the barista…", "fraction": 0.5}, direction=H2C, section="4.5"),
    vector("progress-empty", "PROGRESS", "r7", "OrderCoffeeIntent", None, {}, direction=H2C, section="4.5",
           note="both body fields are optional"),
    vector("cancel", "CANCEL", "r8", "", None, None, direction=C2H, section="4.6"),
    vector("request-to-plugin", "REQUEST", "h17", "StatusIntent", None, {}, direction=H2P, section="5.2",
           note="the request id is the host's own"),
    vector("request-to-plugin-with-header", "REQUEST", "h18", "StatusIntent",
           {"client": "kitchen-tablet", "phase": "resolve", "style": "legacy"}, {"contract": "c1"},
           direction=H2P, section="5.2"),
    vector("reply-from-plugin", "REPLY", "h17", "StatusIntent", {"plugin": "balance", "status": "success"},
           {"balance": "12,34 €"}, direction=P2H, section="5.3"),
    vector("error-from-plugin", "ERROR", "h19", "StatusIntent", None,
           {"code": "plugin_error", "message": "the billing service is down"}, direction=P2H, section="5.3"),
    vector("prompt-from-plugin", "PROMPT", "h20", "INSendMessageIntent", None,
           {"kind": "confirmation", "dialog": "Send it?"}, direction=P2H, section="5.3"),
    vector("progress-from-plugin", "PROGRESS", "h20", "INSendMessageIntent", None, {"message": "sending"},
           direction=P2H, section="5.3"),
    vector("answer-to-plugin", "ANSWER", "h20", "INSendMessageIntent", None, {"value": True},
           direction=H2P, section="5.3"),
    vector("cancel-to-plugin", "CANCEL", "h21", "StatusIntent", None, {"reason": "timeout"},
           direction=H2P, section="5.4"),
    vector("disconnect", "DISCONNECT", "", "", None, None, direction=EITHER, section="5.4"),
    vector("heartbeat", "HEARTBEAT", "", "", None, None, direction=EITHER, section="3",
           note="reserved; receivers ignore it"),
    vector("refused-duplicate-request", "REFUSED", "r1", "OrderCoffeeIntent", {"refused": "REQUEST"},
           {"code": "duplicate_request",
            "message": "request id \"r1\" is already open; this REQUEST was not taken and the open request goes on"},
           direction=H2C, section="3",
           note="never final: the request open under r1 goes on and gets its own REPLY or ERROR"),
    vector("result-opens-intent", "RESULT", "r1", "FindProjectIntent",
           {"opens": "OpenProjectIntent", "plugin": "focusflow", "status": "success"},
           {"dialog": "Found Website relaunch.",
            "opens_intent": {"intent": "OpenProjectIntent", "parameters": {"project": "p-web"}}},
           direction=H2C, section="4.9",
           note="never final: the opened intent's REPLY or ERROR follows under the same request id"),
    vector("longest-names", "REQUEST", "r" * 255, "I" * 255, None, {}, direction=C2H, section="2",
           note="request id and intent may be 255 bytes, not more"),
    vector("utf8-names", "REQUEST", "anfrage-ü", "BestellungAufgebenIntent€", None, {}, direction=C2H,
           section="2", note="request id and intent are UTF-8"),
]

# ---------------------------------------------------------------------------------------
# handshake.json: HELLO → WELCOME or REJECT (docs/protocol.md §5.1).

HANDSHAKE = [
    vector("hello", "HELLO", "", "", None,
           {"protocol": 1, "plugin": "balance", "token": "9f2c41d0a7e3b865", "pid": 12345,
            "intents": [{"name": "StatusIntent", "style": "legacy"}, {"name": "EchoIntent", "style": "plain"}],
            "metadata": {}}, direction=P2H, section="5.1"),
    vector("hello-python-coffee", "HELLO", "", "", None,
           {"protocol": 1, "plugin": "coffee", "token": "0c1d2e3f40516273", "pid": 4242,
            "intents": [{"name": "OrderCoffeeIntent", "style": "plain"}], "metadata": {}},
           direction=P2H, section="5.1"),
    vector("welcome", "WELCOME", "", "", None, {"protocol": 1}, direction=H2P, section="5.1"),
] + [
    vector(f"reject-{code.replace('_', '-')}", "REJECT", "", "", None, {"code": code, "reason": reason},
           direction=H2P, section="5.1")
    for code, reason in [
        ("unsupported_version", "protocol 2 is not supported; this host speaks 1"),
        ("bad_token", "the token is wrong: only the process the host started may connect as balance"),
        ("unknown_plugin", "plugin id \"ghost\" is not in the manifest"),
        ("missing_handler", "no handler for SwitchContractIntent, which the manifest lists in IntentsSupported"),
        ("bad_metadata", "intent StatusIntent has unknown style \"fancy\" (plain, legacy or new)"),
        ("bad_frame", "HELLO body is not valid JSON"),
        ("handshake_required", "say HELLO first"),
    ]
]

# ---------------------------------------------------------------------------------------
# errors.json: the ERROR body of every code (docs/protocol.md §4.3).

ERROR_BODIES = [
    ("bad_frame", "expected 6 frames (IB1, kind, request id, intent, header, body), got 5", None),
    ("unsupported_version", "protocol IB2 is not supported; this host speaks IB1", None),
    ("unknown_intent", "no plugin claims intent \"OrderTeaIntent\"", {"known_intents": ["OrderCoffeeIntent"]}),
    ("choice_required", "2 plugins claim OrderCoffeeIntent (coffee, espresso-bar); name one with the header's "
                        "\"plugin\"",
     {"candidates": [{"id": "coffee", "name": "Coffee", "style": "plain"},
                     {"id": "espresso-bar", "name": "Espresso Bar", "style": "legacy"}]}),
    ("unknown_plugin", "there is no plugin \"tea\"", {"candidates": [{"id": "coffee", "name": "Coffee",
                                                                     "style": "plain"}]}),
    ("timeout", "plugin coffee did not answer within 10 s", {"plugin": "coffee", "timeout_ms": 10000}),
    ("plugin_crashed", "plugin coffee (pid 4242) exited with status 1 while handling this request",
     {"plugin": "coffee", "exit": {"code": 1}}),
    ("plugin_hung", "plugin coffee (pid 4242) stopped answering heartbeats (silent for 1.5 s, heartbeat 1 s) while "
                    "handling this request; it is being restarted", {"plugin": "coffee"}),
    ("plugin_unavailable", "plugin coffee is unavailable: crashed 5 times within 60 s", {"plugin": "coffee"}),
    ("busy", "plugin coffee has 256 requests in flight; try again later", {"plugin": "coffee"}),
    ("invalid_parameters", "OrderCoffeeIntent: parameter 'quantity' (Integer): must be at most 10, got 12",
     {"parameter": "quantity", "intent": "OrderCoffeeIntent",
      "problems": [{"parameter": "quantity", "expected": "Integer", "problem": "must be at most 10, got 12"}]}),
    ("authentication_required", "SwitchContractIntent is restricted while locked (balance): authentication is "
                                "required; the request carries no credential", None),
    ("forbidden", "client bob may not call OrderCoffeeIntent (allowed: Tea*)", {"client": "bob"}),
    ("conversation_expired", "no open question in conversation \"r9\"", None),
    ("cancelled", "the client cancelled the request", None),
    ("duplicate_request", "request id \"r1\" is already open", None),
    ("unexpected_answer", "request \"r1\" is not waiting for an answer (no question is open); the request goes on", None),
    ("too_large", "the request is 5000000 bytes; this host takes at most 4194304 (host.limits.max_message_size)",
     {"size": 5000000, "limit": 4194304}),
    ("plugin_error", "plugin coffee has no handler for OrderTeaIntent", None),
    ("shutting_down", "the host is shutting down", None),
    ("state_unavailable", "the shared state is unavailable, the choice was not changed; try again later", None),
    ("internal", "a bug in the host", None),
]


def error_vector(code, message, details):
    body = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return vector(f"error-{code.replace('_', '-')}", "ERROR", "r1", "OrderCoffeeIntent", None, body,
                  direction=H2C, section="4.3", error_code=code)


ERRORS = [error_vector(*e) for e in ERROR_BODIES] + [
    vector("refused-unreadable-message", "REFUSED", "", "", None,
           {"code": "bad_frame", "message": "frame 1 is not a known message kind: \"REQUESTX\""},
           direction=H2C, section="3", error_code="bad_frame",
           note="a message that is not a REQUEST the host can take, and whose request id cannot be read, is refused "
                "with an empty request id; it ends nothing"),
]

# ---------------------------------------------------------------------------------------
# malformed.json: frames a receiver must refuse, and the code it reports.

OK = [b"IB1", b"REQUEST", b"r1", b"StatusIntent", b"", b"{}"]
MALFORMED = [
    invalid("wrong-signature", [b"XYZ"] + OK[1:], "bad_frame", "frame 0 is not IB1"),
    invalid("other-version", [b"IB2"] + OK[1:], "unsupported_version", "IB + another version"),
    invalid("too-few-frames", OK[:5], "bad_frame", "five frames"),
    invalid("too-many-frames", OK + [b"extra"], "bad_frame", "seven frames"),
    invalid("empty-message", [], "bad_frame", "no frames at all"),
    invalid("unknown-kind", [b"IB1", b"REQUESTX"] + OK[2:], "bad_frame", "frame 1 is not a known kind"),
    invalid("lower-case-kind", [b"IB1", b"request"] + OK[2:], "bad_frame", "kinds are upper case"),
    invalid("request-id-too-long", [b"IB1", b"REQUEST", b"r" * 256] + OK[3:], "bad_frame",
            "a request id of 256 bytes"),
    invalid("intent-too-long", [b"IB1", b"REQUEST", b"r1", b"I" * 256] + OK[4:], "bad_frame",
            "an intent of 256 bytes"),
    invalid("request-id-not-utf8", [b"IB1", b"REQUEST", b"r\xff"] + OK[3:], "bad_frame",
            "the request id is not UTF-8"),
    invalid("intent-not-utf8", [b"IB1", b"REQUEST", b"r1", b"\xc3("] + OK[4:], "bad_frame",
            "the intent is not UTF-8"),
]

# Header or body frames that decode as frames but are not JSON: decoding the frames
# succeeds (the host forwards bodies unread), parsing the JSON fails.
BAD_JSON = [
    {"name": "header-not-json", "frames": [frame(f) for f in [b"IB1", b"REQUEST", b"r1", b"X", b"{timeout}", b""]],
     "bad": "header"},
    {"name": "body-not-json", "frames": [frame(f) for f in [b"IB1", b"REPLY", b"r1", b"X", b"", b"{\"a\":}"]],
     "bad": "body"},
    {"name": "body-not-utf8", "frames": [frame(f) for f in [b"IB1", b"REPLY", b"r1", b"X", b"", b"\"\xff\""]],
     "bad": "body"},
]


def bad_body(name, body, note, bad="body"):
    header, payload = (body, b"") if bad == "header" else (b"", body)
    return {"name": name, "frames": [frame(f) for f in [b"IB1", b"REQUEST", b"r1", b"X", header, payload]],
            "bad": bad, "note": note}


# Valid JSON text that the protocol still refuses (§2): both parsers report bad_frame, and
# the Python canonical writer refuses the value Python's own `json` reads from it.
BAD_JSON += [
    bad_body("integer-above-int64", b'{"n":9223372036854775808}', "2^63: integers are 64-bit signed"),
    bad_body("integer-below-int64", b'{"n":-9223372036854775809}', "-2^63 - 1"),
    bad_body("integer-huge", b"[" + b"1" * 400 + b"]", "400 digits"),
    bad_body("integer-in-header", b'{"timeout_ms":18446744073709551616}', "2^64 in a header", bad="header"),
    bad_body("decimal-overflow", b'{"x":1e400}', "beyond a 64-bit decimal: not read as infinity"),
    bad_body("lone-high-surrogate", b'"\\ud800"', "a high surrogate escape with no low one after it"),
    bad_body("lone-low-surrogate", b'{"k":"a\\udc00b"}', "a low surrogate escape on its own"),
    bad_body("surrogate-then-other-escape", b'["\\ud800\\u0041"]', "a high surrogate followed by a non-surrogate escape"),
    bad_body("lone-surrogate-key", b'{"\\ud800":1}', "in a key"),
    bad_body("lone-surrogate-in-header", b'{"client":"\\udbff"}', "in a header", bad="header"),
    bad_body("nested-too-deep", b"[" * 513 + b"]" * 513, "513 levels: the limit is 512"),
    bad_body("keys-differ-in-normalization", '{"\u00e9":1,"e\u0301":2}'.encode(),
             "two keys canonically equivalent but not equal: one key to Swift, two to Python"),
]

# ---------------------------------------------------------------------------------------
# conversations.json: prompt and answer turns, every prompt kind, both sockets.


def conversation(name, steps, note):
    out = []
    for i, (direction, kind, rid, intent, header, body) in enumerate(steps):
        v = vector(f"{name}/{i + 1}", kind, rid, intent, header, body, direction=direction,
                   section="4.4" if direction in (C2H, H2C) else "5.3", conversation=name, step=i + 1)
        out.append(v)
    return {"name": name, "note": note, "steps": out}


MSG = "INSendMessageIntent"
COFFEE = "OrderCoffeeIntent"
CONVERSATIONS = [
    conversation("value-prompt-relayed", [
        (C2H, "REQUEST", "r1", MSG, None, {"recipient": "Alex"}),
        (H2P, "REQUEST", "h1", MSG, None, {"recipient": "Alex"}),
        (P2H, "PROMPT", "h1", MSG, None, {"kind": "value", "parameter": "content", "dialog": "What do you want to say?",
                                          "type": "String"}),
        (H2C, "PROMPT", "r1", MSG, None, {"kind": "value", "parameter": "content", "dialog": "What do you want to say?",
                                          "type": "String"}),
        (C2H, "ANSWER", "r1", MSG, None, {"value": "Bin gleich da"}),
        (H2P, "ANSWER", "h1", MSG, None, {"value": "Bin gleich da"}),
        (P2H, "REPLY", "h1", MSG, {"plugin": "messenger", "status": "success"}, {"sent": True}),
        (H2C, "REPLY", "r1", MSG, {"plugin": "messenger", "status": "success"}, {"sent": True}),
    ], "a plugin asks for a missing parameter; the host relays the prompt and the answer with the other side's id"),
    conversation("disambiguation", [
        (C2H, "REQUEST", "r2", COFFEE, None, {"beverage": "latte", "size": "large"}),
        (H2C, "PROMPT", "r2", COFFEE, None,
         {"kind": "disambiguation", "parameter": "beverage", "dialog": "There are 2 options matching ‘latte’.",
          "options": [{"id": "latte", "title": "Latte", "subtitle": "3,60 €"},
                      {"id": "iced latte", "title": "Iced Latte", "subtitle": "3,90 €"}]}),
        (C2H, "ANSWER", "r2", COFFEE, None, {"value": "iced latte"}),
        (H2C, "PROGRESS", "r2", COFFEE, None, {"fraction": 0.5, "message": "Sending your order to the barista…"}),
        (H2C, "REPLY", "r2", COFFEE, {"plugin": "coffee", "status": "success"},
         {"code": "success", "dialog": "Your order C-1001 is on its way: 1 × large iced latte, 4,50 €.",
          "response": {"orderNumber": "C-1001", "price": {"amount": 4.5, "currencyCode": "EUR"}}}),
    ], "the answer to a disambiguation is the chosen option's id"),
    conversation("confirmation-declined", [
        (C2H, "REQUEST", "r3", COFFEE, None, {"beverage": "mocha", "size": "small", "quantity": 7}),
        (H2C, "PROMPT", "r3", COFFEE, None, {"kind": "confirmation",
                                             "dialog": "That's 7 small mochas for 25,20 €. Order them?"}),
        (C2H, "ANSWER", "r3", COFFEE, None, {"value": False}),
        (H2C, "REPLY", "r3", COFFEE, {"plugin": "coffee", "status": "failure"},
         {"code": "cancelledByUser", "dialog": "Okay, I won't order anything.", "response": {}}),
    ], "a confirmation is answered with true or false"),
    conversation("plugin-choice-always", [
        (C2H, "REQUEST", "r4", COFFEE, {"client": "kitchen-tablet"}, {"beverage": "latte"}),
        (H2C, "PROMPT", "r4", COFFEE, None,
         {"kind": "plugin_choice", "intent": COFFEE, "dialog": "Several plugins can do this. Which one?",
          "options": [{"id": "coffee", "name": "Coffee", "title": "Coffee", "style": "plain", "state": "ready"},
                      {"id": "espresso-bar", "name": "Espresso Bar", "title": "Espresso Bar", "style": "legacy",
                       "state": "starting"}],
          "remember": ["once", "always"]}),
        (C2H, "ANSWER", "r4", COFFEE, None, {"value": "espresso-bar", "remember": "always"}),
        (H2C, "REPLY", "r4", COFFEE, {"plugin": "espresso-bar", "status": "success"}, {"order": "E-7"}),
    ], "a plugin choice names the plugin id; remember is once (the default) or always"),
    conversation("prompt-then-cancel", [
        (C2H, "REQUEST", "r5", MSG, None, {}),
        (H2C, "PROMPT", "r5", MSG, None, {"kind": "value", "parameter": "recipient", "dialog": "To whom?",
                                          "type": "String"}),
        (C2H, "CANCEL", "r5", "", None, None),
        (H2P, "CANCEL", "h5", MSG, None, {"reason": "cancelled by the client"}),
        (H2C, "ERROR", "r5", MSG, None, {"code": "cancelled", "message": "the client cancelled the request"}),
    ], "a client that gives up instead of answering; the host tells the plugin"),
    conversation("answer-after-end", [
        (C2H, "ANSWER", "r6", MSG, None, {"value": "late"}),
        (H2C, "REFUSED", "r6", MSG, {"refused": "ANSWER"},
         {"code": "conversation_expired",
          "message": "no open conversation \"r6\": it has ended or expired, or never existed"}),
    ], "an ANSWER for a finished conversation is refused (REFUSED is never final)"),
    conversation("result-opens-intent", [
        (C2H, "REQUEST", "r7", "FindProjectIntent", None, {"name": "Website"}),
        (H2P, "REQUEST", "h7", "FindProjectIntent", {"style": "new"}, {"name": "Website"}),
        (P2H, "REPLY", "h7", "FindProjectIntent", {"plugin": "focusflow", "status": "success"},
         {"dialog": "Found Website relaunch.",
          "opens_intent": {"intent": "OpenProjectIntent", "parameters": {"project": "p-web"}}}),
        (H2C, "RESULT", "r7", "FindProjectIntent", {"opens": "OpenProjectIntent", "plugin": "focusflow",
                                                    "status": "success"},
         {"dialog": "Found Website relaunch.",
          "opens_intent": {"intent": "OpenProjectIntent", "parameters": {"project": "p-web"}}}),
        (H2P, "REQUEST", "h8", "OpenProjectIntent", {"style": "new"}, {"project": "p-web"}),
        (P2H, "REPLY", "h8", "OpenProjectIntent", {"plugin": "focusflow", "status": "success"},
         {"dialog": "Opened Website relaunch."}),
        (H2C, "REPLY", "r7", "OpenProjectIntent",
         {"opened_by": [{"intent": "FindProjectIntent", "plugin": "focusflow"}], "plugin": "focusflow",
          "status": "success"},
         {"dialog": "Opened Website relaunch."}),
    ], "a result that opens another intent: a RESULT (not final), then the opened intent's one final answer "
       "under the same client request id (docs/results.md)"),
]

# ---------------------------------------------------------------------------------------
# json.json: canonical JSON for every value class (docs/protocol.md §2, "JSON").

JSON_VALUES = [
    ("integers", {"zero": 0, "one": 1, "negative": -42, "int64-max": 9223372036854775807,
                  "int64-min": -9223372036854775808}),
    ("decimals", {"half": 0.5, "integral": 1.0, "negative-zero": -0.0, "tenth": 0.1, "third": 1 / 3,
                  "small": 1e-07, "e-4": 0.0001, "e-5": 1e-05, "large": 1e16, "below-1e16": 1e15,
                  "huge": 1.5e300, "tiny": 5e-324, "price": 29.4, "sum": 0.1 + 0.2, "max": 1.7976931348623157e308,
                  "min-normal": 2.2250738585072014e-308, "many-digits": 123456789.12345678, "negative": -2.5,
                  "e-notation-integral": 1e22}),
    ("strings", {"quote": "say \"hi\"", "backslash": "a\\b", "slash": "a/b", "newline": "a\nb", "tab": "a\tb",
                 "cr": "a\rb", "backspace": "a\bb", "formfeed": "a\fb", "control": "a\u0001b\u001fc",
                 "delete": "a\u007fb", "umlaut": "Grüße", "euro": "12,34 €", "emoji": "☕😀",
                 "line-separator": "a\u2028b", "empty": ""}),
    ("key-order", {"b": 1, "a": 2, "B": 3, "": 4, "aa": 5, "ä": 6, "z": 7, "€": 8, "😀": 9, "\uff01": 10}),
    # Keys not in NFC sort by their own code points, as Python sorts: "e\u0301" before "f".
    ("key-order-not-nfc", {"f": 1, "e\u0301": 2, "\u00e8": 3, "a\u030a": 4, "\u00e5x": 5}),
    ("nesting", {"list": [[], {}, [1, [2, [3]]], {"b": {"d": None, "c": True}}], "flags": [True, False, None]}),
    ("top-level-array", [1, "a", None]),
    ("top-level-string", "just text"),
    ("top-level-number", 42),
]
JSON_VECTORS = [
    vector(f"json-{name}", "REPLY", "j1", "JSONIntent", {"plugin": "json", "status": "success"}, value,
           direction=H2C, section="2") for name, value in JSON_VALUES
]


# ---------------------------------------------------------------------------------------
# legacy.json: the legacy phases (docs/protocol.md §8), step by step on both sockets.
# Each conversation names the `plugin` that answers; the Python suite replays the
# plugin's side with its SDK (tests/test_conformance.py) and must write these bytes.

LEGACY_CODES = ["unspecified", "ready", "continueInApp", "inProgress", "success", "failure",
                "failureRequiringAppLaunch", "tenthCupFree"]
OK_COFFEE = {"plugin": "coffee", "status": "success"}


def flow(name, plugin, steps, note, section):
    out = []
    for i, (direction, kind, rid, intent, header, body) in enumerate(steps):
        out.append(vector(f"{name}/{i + 1}", kind, rid, intent, header, body, direction=direction, section=section,
                          conversation=name, step=i + 1))
    return {"name": name, "plugin": plugin, "note": note, "steps": out}


COFFEE_VALUES = {"beverage": "latte", "quantity": 2, "size": "large"}
COFFEE_RESPONSE = {"drinks": "2 × large latte", "orderNumber": "C-4711", "price": {"amount": 8.4, "currency": "EUR"}}
LEGACY_CONVERSATIONS = [
    flow("coffee-resolve-confirm-handle", "coffee", [
        (C2H, "REQUEST", "r1", COFFEE, None, {"beverage": "latte", "quantity": 2}),
        (H2P, "REQUEST", "h1", COFFEE, {"phase": "resolve", "resolve": ["beverage", "size", "quantity"],
                                         "style": "legacy"}, {"beverage": "latte", "quantity": 2}),
        (P2H, "REPLY", "h1", COFFEE, OK_COFFEE, {"resolutions": {"beverage": {"result": "success"},
                                                                 "quantity": {"result": "success"},
                                                                 "size": {"result": "needsValue"}}}),
        (H2C, "PROMPT", "r1", COFFEE, None, {"kind": "value", "parameter": "size", "type": "CupSize",
                                             "enum": "CupSize", "type_title": "Size", "dialog": "Which size?",
                                             "options": [{"id": "small", "title": "small"},
                                                         {"id": "medium", "title": "medium"},
                                                         {"id": "large", "title": "large"}]}),
        (C2H, "ANSWER", "r1", COFFEE, None, {"value": "large"}),
        (H2P, "REQUEST", "h1", COFFEE, {"phase": "resolve", "resolve": ["size"], "style": "legacy"}, COFFEE_VALUES),
        (P2H, "REPLY", "h1", COFFEE, OK_COFFEE, {"resolutions": {"size": {"result": "success"}}}),
        (H2P, "REQUEST", "h1", COFFEE, {"codes": LEGACY_CODES, "phase": "confirm", "style": "legacy"}, COFFEE_VALUES),
        (P2H, "REPLY", "h1", COFFEE, OK_COFFEE, {"code": "ready"}),
        (H2P, "REQUEST", "h1", COFFEE, {"codes": LEGACY_CODES, "phase": "handle", "style": "legacy"}, COFFEE_VALUES),
        (P2H, "PROGRESS", "h1", COFFEE, None, {"fraction": 0.5, "message": "Sending your order to the barista…"}),
        (H2C, "PROGRESS", "r1", COFFEE, None, {"fraction": 0.5, "message": "Sending your order to the barista…"}),
        (P2H, "REPLY", "h1", COFFEE, OK_COFFEE, {"code": "success", "response": COFFEE_RESPONSE}),
        (H2C, "REPLY", "r1", COFFEE, {"code": "success", "plugin": "coffee", "status": "success"},
         {"code": "success", "code_value": 4, "success": True,
          "dialog": "Your order C-4711 is on its way: 2 × large latte, €8.40.",
          "concise_dialog": "Order C-4711, €8.40.", "response": COFFEE_RESPONSE, "parameters": COFFEE_VALUES}),
    ], "the coffee plugin (definitions/coffee.yaml): all phase requests carry the host's one request id; the "
       "host asks for the size, then confirms, handles, relays progress and renders the code's dialogs", "8"),
    flow("every-resolution-kind", "kinds", [
        (H2P, "REQUEST", "h2", "KindsIntent", {"client": "kitchen-tablet", "phase": "resolve",
                                               "resolve": ["s", "nv", "nr", "un", "cr", "di"], "style": "legacy"},
         {"cr": 12, "di": "alex", "s": "moon", "un": "evil"}),
        (P2H, "REPLY", "h2", "KindsIntent", {"plugin": "kinds", "status": "success"},
         {"resolutions": {"s": {"result": "success", "value": "MOON"}, "nv": {"result": "needsValue"},
                          "nr": {"result": "notRequired"}, "un": {"result": "unsupported", "reason": "forbidden"},
                          "cr": {"result": "confirmationRequired", "value": 12},
                          "di": {"result": "disambiguation", "options": [
                              {"id": "a1", "title": "Alex Meyer", "subtitle": "mobile",
                               "value": {"identifier": "a1", "displayString": "Alex Meyer"}},
                              {"id": "a2", "title": "Alex Schmidt"}]}}}),
    ], "one resolve reply with every result kind of §8.3", "8.3"),
    flow("confirm-not-implemented-custom-code", "kinds", [
        (H2P, "REQUEST", "h3", "QuotaIntent", {"codes": ["unspecified", "ready", "continueInApp", "inProgress",
                                                         "success", "failure", "failureRequiringAppLaunch",
                                                         "quotaExceeded"], "phase": "confirm", "style": "legacy"},
         {"detail": "5 GB"}),
        (P2H, "REPLY", "h3", "QuotaIntent", {"plugin": "kinds", "status": "success"}, {"implemented": False}),
        (H2P, "REQUEST", "h3", "QuotaIntent", {"codes": ["unspecified", "ready", "continueInApp", "inProgress",
                                                         "success", "failure", "failureRequiringAppLaunch",
                                                         "quotaExceeded"], "phase": "handle", "style": "legacy"},
         {"detail": "5 GB"}),
        (P2H, "REPLY", "h3", "QuotaIntent", {"plugin": "kinds", "status": "success"},
         {"code": "quotaExceeded", "response": {"detail": "5 GB"}}),
        (H2C, "REPLY", "r3", "QuotaIntent", {"code": "quotaExceeded", "plugin": "kinds", "status": "failure"},
         {"code": "quotaExceeded", "code_value": 100, "success": False,
          "dialog": "Your quota is used up (5 GB).", "concise_dialog": "Quota used up.",
          "response": {"detail": "5 GB"}, "parameters": {"detail": "5 GB"}}),
    ], "a handler without confirm; a custom code (numbered from 100) that is not a success", "8.4"),
    flow("undeclared-code", "kinds", [
        (H2P, "REQUEST", "h4", "QuotaIntent", {"codes": ["unspecified", "ready", "success", "failure"],
                                               "phase": "handle", "style": "legacy"}, {"detail": "bogus"}),
        (P2H, "ERROR", "h4", "QuotaIntent", None,
         {"code": "plugin_error", "details": {"code": "bogus"},
          "message": "the handler for QuotaIntent answered with response code 'bogus', which QuotaIntent's "
                     "definition does not declare (declared: unspecified, ready, success, failure)"}),
    ], "the SDK refuses a code the header's codes do not list, before the host has to", "8.6"),
    flow("list-one-result-per-item", "guests", [
        (C2H, "REQUEST", "r5", "InviteIntent", None, {"guests": ["alex", "Sam"]}),
        (H2P, "REQUEST", "h5", "InviteIntent", {"phase": "resolve", "resolve": ["guests"], "style": "legacy"},
         {"guests": ["alex", "Sam"]}),
        (P2H, "REPLY", "h5", "InviteIntent", {"plugin": "guests", "status": "success"},
         {"resolutions": {"guests": [
             {"result": "disambiguation", "options": [{"id": "a1", "title": "Alex Meyer", "value": "Alex Meyer"},
                                                      {"id": "a2", "title": "Alex Schmidt", "value": "Alex Schmidt"}]},
             {"result": "success", "value": "Sam"}]}}),
        (H2C, "PROMPT", "r5", "InviteIntent", None,
         {"kind": "disambiguation", "parameter": "guests", "item": 0, "items": 2,
          "dialog": "There are 2 options matching ‘alex’. Which one?",
          "options": [{"id": "a1", "title": "Alex Meyer"}, {"id": "a2", "title": "Alex Schmidt"}]}),
        (C2H, "ANSWER", "r5", "InviteIntent", None, {"value": "a2"}),
        (H2P, "REQUEST", "h5", "InviteIntent", {"phase": "resolve", "resolve": ["guests"], "style": "legacy"},
         {"guests": ["Alex Schmidt", "Sam"]}),
        (P2H, "REPLY", "h5", "InviteIntent", {"plugin": "guests", "status": "success"},
         {"resolutions": {"guests": [{"result": "success", "value": "Alex Schmidt"},
                                     {"result": "success", "value": "Sam"}]}}),
    ], "a list (`multiple`) parameter resolved with one result per item, in order: the host asks about the item "
       "that needs it (`item`, `items`), puts the answer in its place and resolves the list again", "8.3"),
]

# ---------------------------------------------------------------------------------------
# newstyle.json: new-style metadata in HELLO (docs/protocol.md §9.1–9.2), with the
# problems the host reports for it, and new-style conversations (§9.3–9.5).

FOCUS = "StartFocusSessionIntent"
FOCUS_METADATA = {"new_style": {
    "version": 1,
    "intents": [{
        "identifier": FOCUS, "title": "Start focus session", "description": "Starts a focus session.",
        "category": "Productivity", "authentication": "always_allowed", "migrated_from": "LegacyFocusIntent",
        "parameters": [
            {"name": "minutes", "title": "Minutes", "description": "Length in minutes.", "type": "integer",
             "default": 25, "min": 5, "max": 180, "optional": False, "request_value_dialog": "How long?"},
            {"name": "project", "title": "Project", "type": "entity", "entity": "ProjectEntity", "optional": True},
            {"name": "mood", "title": "Mood", "type": "enum", "enum": "Mood", "default": "calm", "optional": False}]}],
    "entities": [{"name": "ProjectEntity", "type_display_name": "Project",
                  "query": {"ids": True, "suggested": True, "matching": True, "all": False}}],
    "enums": [{"name": "Mood", "type_display_name": "Mood",
               "cases": [{"value": "calm", "title": "Calm"}, {"value": "wild", "title": "Wild"}]}]}}
FOCUS_INTENTS = [{"name": "LegacyFocusIntent", "style": "new"}, {"name": FOCUS, "style": "new"},
                 {"name": "ib.entities", "style": "plain"}]
BROKEN_METADATA = {"new_style": {"version": 1, "intents": [
    {"identifier": "BrokenIntent", "title": "Broken", "authentication": "always_allowed", "parameters": [
        {"name": "minutes", "title": "Minutes", "type": "integer", "default": 500, "min": 5, "max": 180,
         "optional": False},
        {"name": "nameless", "title": "", "type": "string", "optional": True}]}], "entities": [], "enums": []}}
BROKEN_PROBLEMS = ["BrokenIntent.minutes: default 500 is outside its range 5…180",
                   "BrokenIntent.nameless: parameter has no title (App Intents' rule: every @Parameter has a title)"]

# Date and url parameters (§9.1): the same declaration in the Swift SDK
# (Sources/Plugins/NewStyleTest ScheduleIntent) and the Python SDK (tests/test_conformance.py).
SCHEDULE_INTENT = {
    "identifier": "ScheduleIntent", "title": "Schedule", "description": "Schedules by date and link.",
    "authentication": "always_allowed", "parameters": [
        {"name": "due", "title": "Due", "type": "date", "optional": False, "request_value_dialog": "When is it due?"},
        {"name": "start", "title": "Start", "type": "date", "default": "2026-12-01", "optional": False},
        {"name": "link", "title": "Link", "type": "url", "optional": True},
        {"name": "home", "title": "Home", "type": "url", "default": "https://example.com/home", "optional": False}]}
SCHEDULE_METADATA = {"new_style": {"version": 1, "intents": [SCHEDULE_INTENT], "entities": [], "enums": []}}

NEW_HELLOS = [
    vector("hello-new-style", "HELLO", "", "", None,
           {"protocol": 1, "plugin": "focus", "token": "5e6f708192a3b4c5", "pid": 31337, "intents": FOCUS_INTENTS,
            "metadata": FOCUS_METADATA}, direction=P2H, section="9.1", metadata_problems=[],
           note="the §9.1 example, as the Python SDK writes it for tests/test_conformance.py's declaration"),
    vector("hello-new-style-dates", "HELLO", "", "", None,
           {"protocol": 1, "plugin": "schedule", "token": "5e6f708192a3b4c5", "pid": 31339,
            "intents": [{"name": "ScheduleIntent", "style": "new"}], "metadata": SCHEDULE_METADATA},
           direction=P2H, section="9.1", metadata_problems=[],
           note="date and url parameters: the Swift SDK's ScheduleIntent (plugin-newstyletest) and the Python SDK "
                "write this intent entry for the same declaration"),
    vector("hello-new-style-invalid", "HELLO", "", "", None,
           {"protocol": 1, "plugin": "broken", "token": "5e6f708192a3b4c5", "pid": 31338,
            "intents": [{"name": "BrokenIntent", "style": "new"}], "metadata": BROKEN_METADATA},
           direction=P2H, section="9.2", metadata_problems=BROKEN_PROBLEMS,
           note="the host refuses it: every problem, in this order"),
    vector("reject-new-style-invalid", "REJECT", "", "", None,
           {"code": "bad_metadata", "reason": "invalid new-style metadata: " + "; ".join(BROKEN_PROBLEMS)},
           direction=H2P, section="9.2"),
]

OK_FOCUS = {"plugin": "focus", "status": "success"}
NEW_CONVERSATIONS = [
    flow("needs-value-restart", "focus", [
        (C2H, "REQUEST", "r1", FOCUS, None, {"minutes": 150}),
        (H2P, "REQUEST", "h1", FOCUS, {"style": "new"}, {"minutes": 150, "mood": "calm"}),
        (P2H, "PROMPT", "h1", FOCUS, None, {"kind": "confirmation", "parameter": "minutes", "value": 150,
                                            "dialog": "150 minutes is long. Sure?"}),
        (H2C, "PROMPT", "r1", FOCUS, None, {"kind": "confirmation", "parameter": "minutes", "value": 150,
                                            "dialog": "150 minutes is long. Sure?"}),
        (C2H, "ANSWER", "r1", FOCUS, None, {"value": False}),
        (H2P, "ANSWER", "h1", FOCUS, None, {"value": False}),
        (P2H, "PROMPT", "h1", FOCUS, None, {"kind": "value", "parameter": "minutes", "type": "Integer",
                                            "type_title": "whole number", "minimum": 5, "maximum": 180,
                                            "range": "5…180", "dialog": "How many minutes, then?",
                                            "reason": "needs_value"}),
        (H2C, "PROMPT", "r1", FOCUS, None, {"kind": "value", "parameter": "minutes", "type": "Integer",
                                            "type_title": "whole number", "minimum": 5, "maximum": 180,
                                            "range": "5…180", "dialog": "How many minutes, then?",
                                            "reason": "needs_value"}),
        (C2H, "ANSWER", "r1", FOCUS, None, {"value": "90"}),
        (H2P, "ANSWER", "h1", FOCUS, None, {"value": 90}),
        (P2H, "REPLY", "h1", FOCUS, OK_FOCUS, {"dialog": "Focus for 90 minutes (calm).",
                                               "snippet": {"minutes": 90, "mood": "calm", "project": None}}),
        (H2C, "REPLY", "r1", FOCUS, OK_FOCUS, {"dialog": "Focus for 90 minutes (calm).",
                                               "snippet": {"minutes": 90, "mood": "calm", "project": None}}),
    ], "a declined parameter confirmation; perform() raises needs-value, the plugin asks (reason needs_value) "
       "and runs perform() again; the host checks the answer (\"90\" becomes 90) before relaying it", "9.3"),
    flow("entity-parameter-disambiguation", "focus", [
        (C2H, "REQUEST", "r2", FOCUS, {"client": "kitchen-tablet"}, {"project": "web"}),
        (H2P, "REQUEST", "h2", FOCUS, {"client": "kitchen-tablet", "style": "new"},
         {"minutes": 25, "mood": "calm", "project": "web"}),
        (P2H, "PROMPT", "h2", FOCUS, None, {"kind": "disambiguation", "parameter": "project",
                                            "dialog": "Which project do you mean by \"web\"?",
                                            "options": [{"id": "p1", "title": "Website relaunch",
                                                         "subtitle": "due 2026-12-15"},
                                                        {"id": "p2", "title": "Web shop"}]}),
        (H2P, "ANSWER", "h2", FOCUS, None, {"value": "p2"}),
        (P2H, "REPLY", "h2", FOCUS, OK_FOCUS, {"dialog": "Focus for 25 minutes (calm).",
                                               "snippet": {"minutes": 25, "mood": "calm", "project": "p2"},
                                               "value": {"id": "p2", "title": "Web shop",
                                                         "type": "ProjectEntity"}}),
    ], "entity parameters arrive as the client gave them; the plugin resolves them (id, then text) and puts "
       "several matches to the user", "9.3"),
    flow("migrated-request", "focus", [
        (C2H, "REQUEST", "r3", "LegacyFocusIntent", None, {"minutes": 30, "colour": "red"}),
        (H2P, "REQUEST", "h3", "LegacyFocusIntent", {"migrated_from": "LegacyFocusIntent", "style": "new"},
         {"minutes": 30, "mood": "calm"}),
        (P2H, "REPLY", "h3", "LegacyFocusIntent", OK_FOCUS,
         {"dialog": "Focus for 30 minutes (calm).", "snippet": {"minutes": 30, "mood": "calm", "project": None}}),
        (H2C, "REPLY", "r3", "LegacyFocusIntent",
         {"handled_by": FOCUS, "migrated_from": "LegacyFocusIntent", "plugin": "focus", "status": "success",
          "unmapped_parameters": [{"name": "colour", "reason": "StartFocusSessionIntent has no parameter \"colour\"",
                                   "value": "red"}]},
         {"dialog": "Focus for 30 minutes (calm).", "snippet": {"minutes": 30, "mood": "calm", "project": None}}),
    ], "a request by the legacy name reaches the new intent; the host reports what did not map", "9.5"),
    flow("entity-query", "focus", [
        (C2H, "REQUEST", "r4", "ib.entities", {"plugin": "focus"},
         {"entity": "ProjectEntity", "query": "matching", "text": "web"}),
        (H2P, "REQUEST", "h4", "ib.entities", None, {"entity": "ProjectEntity", "query": "matching", "text": "web"}),
        (P2H, "REPLY", "h4", "ib.entities", OK_FOCUS,
         {"entity": "ProjectEntity", "query": "matching",
          "results": [{"id": "p1", "title": "Website relaunch", "subtitle": "due 2026-12-15", "type": "ProjectEntity"},
                      {"id": "p2", "title": "Web shop", "type": "ProjectEntity"}]}),
        (H2C, "REPLY", "r4", "ib.entities", OK_FOCUS,
         {"entity": "ProjectEntity", "query": "matching",
          "results": [{"id": "p1", "title": "Website relaunch", "subtitle": "due 2026-12-15", "type": "ProjectEntity"},
                      {"id": "p2", "title": "Web shop", "type": "ProjectEntity"}]}),
    ], "ib.entities: the host forwards the query to the plugin that declares the entity type", "9.4"),
]


FILES = {
    "messages.json": {"description": "Every message kind (docs/protocol.md §3–5), as its sender writes it.",
                      "vectors": MESSAGES},
    "handshake.json": {"description": "HELLO, WELCOME and every REJECT code (docs/protocol.md §5.1).",
                       "vectors": HANDSHAKE},
    "errors.json": {"description": "The ERROR body of every error code (docs/protocol.md §4.3).",
                    "vectors": ERRORS},
    "conversations.json": {"description": "Prompt and answer turns for every prompt kind (docs/protocol.md "
                                          "§4.4, §5.3), step by step, on both sockets.",
                           "conversations": CONVERSATIONS},
    "json.json": {"description": "Canonical JSON for every value class: both sides must write these bytes "
                                 "(docs/protocol.md §2).",
                  "vectors": JSON_VECTORS},
    "legacy.json": {"description": "The legacy phases (docs/protocol.md §8), step by step on both sockets; "
                                   "`plugin` names the handler whose side the Python suite replays.",
                    "conversations": LEGACY_CONVERSATIONS},
    "newstyle.json": {"description": "New-style metadata in HELLO with the problems the host reports "
                                     "(`metadata_problems`, §9.1–9.2), and new-style conversations (§9.3–9.5).",
                      "vectors": NEW_HELLOS, "conversations": NEW_CONVERSATIONS},
    "malformed.json": {"description": "Frames a receiver must refuse, with the error code it reports; and "
                                      "frames that decode but whose header or body is not JSON.",
                       "invalid": MALFORMED, "bad_json": BAD_JSON},
}


def render(content):
    """Indented JSON, with each frame object on one line so that a message reads as six lines."""
    text = json.dumps(content, indent=2, ensure_ascii=False)
    return re.sub(r'\{\n\s+("hex": "[0-9a-f]*")(,\n\s+("text": "(?:[^"\\\n]|\\.)*"))?\n\s+\}',
                  lambda m: "{" + m.group(1) + (", " + m.group(3) if m.group(3) else "") + "}", text) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for name, content in FILES.items():
        path = os.path.join(HERE, name)
        text = render(content)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(name)
            except FileNotFoundError:
                stale.append(name)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        print("out of date (run python3 conformance/generate.py): " + ", ".join(stale), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
