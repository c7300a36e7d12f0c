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
