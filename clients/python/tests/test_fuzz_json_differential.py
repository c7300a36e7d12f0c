"""Differential JSON fuzzer (docs/reliability.md): the Swift parser and canonical writer
(`json-canonical`, over a pipe) against Python's `json` and this SDK's `parse_json` /
`canonical_json`.

- Any JSON value, written by `json.dumps` in any layout: Swift must write exactly the
  bytes of `json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"),
  ensure_ascii=False)`, and so must `canonical_json`.
- Any bytes, and valid texts with a few bytes changed: Swift and `parse_json` accept and
  refuse the same inputs, and write the same canonical bytes for those they accept.
"""

import json
import random
import subprocess

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from intentbus import WireError
from intentbus.wire import INT64_MAX, INT64_MIN, canonical_json, parse_json

import fuzzing_json
from conftest import binary
from fuzzing import Rounds

EXAMPLES = 300
# Cases per fast batch in a `make fuzz` run (fuzzing_json.py), between hypothesis rounds.
BATCH = 20_000


class SwiftCanonical:
    """`json-canonical` as a function: bytes → ("ok", canonical bytes) or ("err", message)."""

    def __init__(self):
        self.process = subprocess.Popen([binary("json-canonical")], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def __call__(self, data):
        self.process.stdin.write(data.hex().encode() + b"\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline().decode()
        assert line, f"json-canonical exited ({self.process.poll()}) on {data!r}"
        verdict, _, rest = line.rstrip("\n").partition(" ")
        return (verdict, bytes.fromhex(rest)) if verdict == "ok" else (verdict, rest)

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def swift():
    s = SwiftCanonical()
    yield s
    s.close()


scalars = (st.none() | st.booleans() | st.integers(INT64_MIN, INT64_MAX)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
# Keys also from a small alphabet of composed and decomposed letters, where Swift's String
# equality (canonical equivalence) and Python's (code points) part: the fuzzer found that.
keys = st.text(max_size=6) | st.text(alphabet="ae\u00e8\u00e9\u0301\u030af", max_size=3)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(keys, inner, max_size=4), max_leaves=20)
layouts = st.fixed_dictionaries({"indent": st.sampled_from([None, 0, 1, "\t"]), "ensure_ascii": st.booleans(),
                                 "separators": st.sampled_from([(",", ":"), (", ", ": "), (" ,", " : ")])})


def reference(text):
    return json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def python_verdict(data):
    try:
        return "ok", canonical_json(parse_json(data))
    except WireError as e:
        return "err", e.message


def mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif op == 1:
            data[at:at] = bytes([rng.choice(b'{}[]",:0123456789-+.eE\\u tfnd8')])
        elif op == 2 and data:
            del data[min(at, len(data) - 1)]
        else:
            data[at:at] = rng.choice([b"\\ud800", b"9223372036854775808", b"1e400", b"[" * 3, b"\xff", b"-0",
                                      b"\\u0000"])
    return bytes(data)


def test_fuzz_swift_writes_pythons_canonical_bytes_for_any_value(swift):
    rounds = Rounds("json-differential")

    def round_fn(n):
        @seed(n)
        @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(value=values, layout=layouts)
        def check(value, layout):
            rounds.cases += 1
            text = json.dumps(value, **layout).encode("utf-8")
            if python_verdict(text)[0] == "err":
                # Keys equal only under normalization: both sides must refuse them.
                assert swift(text)[0] == "err", text
                return
            expected = reference(text)
            assert swift(text) == ("ok", expected), text
            assert canonical_json(parse_json(text)) == expected

        check()
        if rounds.fuzzing:
            fast_round(n)

    def fast_round(n):
        rng = random.Random(n)
        texts = [fuzzing_json.dumps(fuzzing_json.value(rng), rng) for _ in range(BATCH)]
        for text, got in zip(texts, fuzzing_json.batch(swift, texts)):
            rounds.cases += 1
            if python_verdict(text)[0] == "err":
                assert got[0] == "err", text
                continue
            expected = reference(text)
            assert got == ("ok", expected), text
            assert canonical_json(parse_json(text)) == expected

    rounds.run(round_fn)


def test_fuzz_swift_and_python_agree_on_any_bytes(swift):
    rounds = Rounds("json-agreement")

    def round_fn(n):
        rng = random.Random(n)

        @seed(n)
        @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(base=values, raw=st.binary(min_size=1, max_size=40), use_raw=st.booleans())
        def check(base, raw, use_raw):
            rounds.cases += 1
            data = raw if use_raw else mutate(json.dumps(base).encode("utf-8"), rng)
            if not data:
                return  # an empty frame means {} to both; not a parser input
            s, p = swift(data), python_verdict(data)
            assert s[0] == p[0], f"{data!r}: Swift {s}, Python {p}"
            if s[0] == "ok":
                assert s[1] == p[1], data

        check()
        if rounds.fuzzing:
            fast_round(n)

    def fast_round(n):
        rng = random.Random(n)
        inputs = fuzzing_json.random_inputs(rng, BATCH, mutate)
        for data, s in zip(inputs, fuzzing_json.batch(swift, inputs)):
            rounds.cases += 1
            p = python_verdict(data)
            assert s[0] == p[0], f"{data!r}: Swift {s}, Python {p}"
            if s[0] == "ok":
                assert s[1] == p[1], data

    rounds.run(round_fn)
