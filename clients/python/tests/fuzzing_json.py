"""The fast half of the differential JSON fuzzer (test_fuzz_json_differential.py): values
and byte strings from `random` instead of hypothesis, sent to `json-canonical` in
batches, so that `make fuzz` reaches its 10^6 cases in minutes. Hypothesis still runs a
round between batches, for its shrinking and its nastier corners."""

import json
import random
import threading

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# Keys also from composed and decomposed letters, where Swift's String equality
# (canonical equivalence) and Python's (code points) part.
_KEY_ALPHABETS = ["abcxyz_", "ae\u00e8\u00e9\u0301\u030af", "\u00e4\u00f6\u00fc\u00df\u20ac\U0001f600 \t\"\\/"]
_TEXT_CHARS = "ab \t\n\"\\/\u0000\u001f\u007f\u00e9\u2028\u2029\ud7ff\ue000\uffff\U0001f600\U0010ffff"
_LAYOUTS = [dict(indent=i, ensure_ascii=a, separators=s) for i in (None, 0, 1, "\t") for a in (False, True)
            for s in ((",", ":"), (", ", ": "), (" ,", " : "))]


def _text(rng, size):
    return "".join(rng.choice(_TEXT_CHARS) for _ in range(rng.randint(0, size)))


def _scalar(rng):
    kind = rng.randrange(9)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, -1, 1, INT64_MIN, INT64_MAX, 2**53, -(2**53) - 1, 10**15])
    if kind == 3:
        return rng.randint(INT64_MIN, INT64_MAX)
    if kind == 4:
        return rng.randint(-1000, 1000)
    if kind == 5:
        return rng.choice([0.0, -0.0, 0.1, 1e-7, 1e16, 1.5e300, 5e-324, 2.2250738585072014e-308, 123456.789])
    if kind == 6:
        return (rng.random() - 0.5) * 10 ** rng.randint(-30, 30)
    return _text(rng, 12)


def value(rng, depth=0):
    """A random JSON value: scalars, and lists and objects up to four deep."""
    kind = rng.randrange(10) if depth < 4 else 0
    if kind < 6:
        return _scalar(rng)
    if kind < 8:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    alphabet = rng.choice(_KEY_ALPHABETS)
    return {"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))): value(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}


def layout(rng):
    return rng.choice(_LAYOUTS)


def batch(swift, inputs):
    """Each input's verdict from `json-canonical` (see SwiftCanonical), with the lines
    written by a second thread so that neither pipe fills while the other waits."""
    process = swift.process

    def write():
        for data in inputs:
            process.stdin.write(data.hex().encode() + b"\n")
        process.stdin.flush()

    writer = threading.Thread(target=write)
    writer.start()
    out = []
    for data in inputs:
        line = process.stdout.readline().decode()
        assert line, f"json-canonical exited ({process.poll()}) on {data!r}"
        verdict, _, rest = line.rstrip("\n").partition(" ")
        out.append((verdict, bytes.fromhex(rest)) if verdict == "ok" else (verdict, rest))
    writer.join()
    return out


def dumps(v, rng):
    return json.dumps(v, **layout(rng)).encode("utf-8")


def random_inputs(rng, n, mutate):
    """n byte strings: raw random bytes, or a random value's JSON with a few bytes changed."""
    out = []
    for _ in range(n):
        if rng.random() < 0.3:
            out.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))))
        else:
            data = mutate(json.dumps(value(rng)).encode("utf-8"), rng)
            out.append(data or b"0")
    return out
