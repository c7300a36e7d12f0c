"""The Python client range-checks its timeout as the CLI does (issue 10): a timeout of
1e13 s used to go out as timeout_ms 10^16 (which overflows the host's deadline
arithmetic), and inf or nan raised OverflowError or ValueError from deep inside."""

import math

import pytest

from intentbus import Client
from intentbus.client import request_header


@pytest.mark.parametrize("bad", [1e13, math.inf, -math.inf, math.nan, 0, -1, 0.0004, 86_400.5, True, "10"])
def test_timeouts_outside_the_range_are_refused_by_name(bad):
    with pytest.raises(ValueError, match=r"timeout must be seconds within 0\.001…86400"):
        request_header(bad, None, None, False, None, None)


def test_timeouts_inside_the_range_become_milliseconds():
    assert request_header(0.001, None, None, False, None, None) == {"timeout_ms": 1}
    assert request_header(86_400, None, None, False, None, None) == {"timeout_ms": 86_400_000}
    assert request_header(2.5, None, None, False, None, None) == {"timeout_ms": 2500}


def test_send_refuses_before_sending(tmp_path):
    client = Client(f"ipc://{tmp_path}/nobody.sock")
    try:
        with pytest.raises(ValueError, match="timeout must be"):
            client.send("EchoIntent", {}, timeout=1e13)
    finally:
        client.close()
