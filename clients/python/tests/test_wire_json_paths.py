"""parse_json's two paths (intentbus/wire.py): ASCII frames without escapes go to the C
scanner directly, everything else through the checking decoder. Both must give the same
value, or refuse with the same message."""

import pytest

from intentbus import WireError
from intentbus.wire import _DECODER, parse_json

CASES = [b'{"a":1}', b' {"a":[1,2.5,null,true,false,"x"]} ', b'{"a":1}x', b'[', b'"s"', b'  ', b'{"a":NaN}',
         b'[Infinity]', b'[-Infinity]', b'1e999', b'[-1e999]', b'{"a":9223372036854775807}',
         b'{"a":9223372036854775808}', b'{"a":-9223372036854775809}', b'{"a":1,"a":2}', b'{"a":"\x01"}',
         b'[1,]', b'{"a" 1}', b'01', b'{"b":{"c":[[]]}}', b'-0.0', b'tru', b'nul']


def _checking(data):
    """What the checking decoder alone says (the path before the shortcut)."""
    try:
        return ("value", _DECODER.decode(data.decode("utf-8")))
    except ValueError as e:
        return ("error", f"not valid JSON: {e}")


@pytest.mark.parametrize("data", CASES, ids=[c.decode("ascii", "replace") for c in CASES])
def test_the_fast_path_says_what_the_checking_decoder_says(data):
    try:
        got = ("value", parse_json(data))
    except WireError as e:
        got = ("error", e.message)
    assert got == _checking(data)


def test_what_only_the_checking_path_judges_still_goes_there():
    with pytest.raises(WireError, match="normalization"):
        parse_json('{"é":1,"e\u0301":2}'.encode("utf-8"))  # not ASCII
    with pytest.raises(WireError, match="normalization"):
        parse_json(b'{"\\u00e9":1,"e\\u0301":2}')  # ASCII, with escapes
    with pytest.raises(WireError, match="surrogate"):
        parse_json(b'["\\ud800"]')
    with pytest.raises(WireError, match="deeper"):
        parse_json(b"[" * 600 + b"]" * 600)


def test_the_encoder_kept_per_thread_forgets_a_failed_call():
    # canonical_json keeps one C encoder per thread; a call that fails half-way may leave
    # its circular-reference marks behind, which must not make the next call of the same
    # values fail, nor change what any call writes.
    import threading

    import pytest

    from intentbus.errors import JSONValueError
    from intentbus.wire import canonical_json

    inner = {"b": [1, 2]}
    loop = {"inner": inner}
    loop["self"] = loop
    with pytest.raises(ValueError):  # (reported as nested too deep)
        canonical_json(loop)
    bad = {"inner": inner, "x": {1, 2}}
    with pytest.raises(TypeError):
        canonical_json(bad)  # a set: not JSON, while `bad` itself was marked
    with pytest.raises(JSONValueError):
        canonical_json({"inner": inner, "n": float("nan")})
    bad["x"] = 1
    assert canonical_json(bad) == b'{"inner":{"b":[1,2]},"x":1}'  # no "circular reference" left over
    del loop["self"]
    assert canonical_json(loop) == b'{"inner":{"b":[1,2]}}'
    assert canonical_json({"inner": inner}) == b'{"inner":{"b":[1,2]}}'
    assert canonical_json([inner, inner]) == b'[{"b":[1,2]},{"b":[1,2]}]'  # the same dict twice is no loop

    out = []

    def other_thread():
        out.append(canonical_json({"z": inner, "a": "\u00e9/"}))

    t = threading.Thread(target=other_thread)
    t.start()
    t.join()
    assert out == ['{"a":"\u00e9/","z":{"b":[1,2]}}'.encode()]
