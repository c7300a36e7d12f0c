"""How a client's socket reaches the host (intentbus.client): the endpoint and CURVE keys.
Shared by the blocking and the asyncio client; what is said on the socket is core.py's."""

from __future__ import annotations

import os
from typing import Any, Optional

import zmq

__all__ = ["resolve_endpoint", "read_key", "apply_curve"]


def resolve_endpoint(endpoint: Optional[str]) -> str:
    """The host's frontend: the given endpoint, else INTENTBUS_ENDPOINT. Shared by the
    blocking and the asyncio client."""
    endpoint = endpoint or os.environ.get("INTENTBUS_ENDPOINT")
    if not endpoint:
        raise ValueError("no endpoint: pass one (e.g. ipc://.intentbus/frontend.sock) or set INTENTBUS_ENDPOINT")
    return endpoint


def read_key(value: str) -> bytes:
    """A CURVE key given as 40 characters of Z85, or as the path of a key file (the
    first line that is not a comment, as `intentbus keygen` writes them)."""
    text = value.strip()
    if len(text) != 40 or os.path.exists(text):
        with open(text, encoding="utf-8") as f:
            lines = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
        if not lines:
            raise ValueError(f"{value}: no CURVE key in the file")
        text = lines[0]
    if len(text) != 40:
        raise ValueError(f"not a CURVE key (40 characters of Z85): {text[:12]}…")
    return text.encode("ascii")


def apply_curve(sock: "zmq.Socket[Any]", client_key: Optional[str], server_key: Optional[str]) -> None:
    """Makes `sock` a CURVE client when a key is given or set in the environment
    (`INTENTBUS_CLIENT_KEY`: this client's secret key file; `INTENTBUS_SERVER_KEY`: the
    host's public key or its host.pub file). Needed for a tcp frontend (docs/security.md)."""
    client_key = client_key or os.environ.get("INTENTBUS_CLIENT_KEY")
    server_key = server_key or os.environ.get("INTENTBUS_SERVER_KEY")
    if not client_key and not server_key:
        return
    if not (client_key and server_key):
        raise ValueError("CURVE needs both the client's secret key and the host's public key")
    secret = read_key(client_key)
    sock.curve_secretkey = secret
    sock.curve_publickey = zmq.curve_public(secret)
    sock.curve_serverkey = read_key(server_key)
