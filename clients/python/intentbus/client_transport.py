"""How a client reaches the host (intentbus.client): the endpoint, CURVE keys, the
REQUEST header, and the routing of incoming messages to open requests. Shared by the
blocking and the asyncio client."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional

import zmq

from .errors import ProtocolViolation, WireError
from .wire import Kind, Message

__all__ = ["request_header", "resolve_endpoint", "read_key", "apply_curve", "route_incoming"]


def request_header(timeout: Optional[float], plugin: Optional[str], choice: Optional[str], remember: bool,
                    client_id: Optional[str], credential: Optional[str], locale: Optional[str] = None,
                    context: Optional[Dict[str, Any]] = None) -> Optional[Dict[str, Any]]:
    h: Dict[str, Any] = {}
    if timeout is not None:
        # The CLI's range and the manifest's maximum (docs/reliability.md, "Limits").
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0.001 <= timeout <= 86_400:
            raise ValueError(f"timeout must be seconds within 0.001…86400, got {timeout!r}")
        h["timeout_ms"] = max(1, int(round(timeout * 1000)))
    if plugin is not None:
        h["plugin"] = plugin
    if choice is not None:
        if choice not in ("ask", "fail", "default"):
            raise ValueError('choice is "ask", "fail" or "default"')
        h["choice"] = choice
    if remember:
        if plugin is None:
            raise ValueError("remember=True goes with plugin=...")
        h["remember"] = True
    if client_id is not None:
        h["client"] = client_id
    if credential is not None:
        h["credential"] = credential
    if locale is not None:
        h["locale"] = locale
    if context:
        # Passed as given: the host checks it (docs/protocol.md §4.1) and says what is wrong.
        h["context"] = dict(context)
    return h or None


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


def route_incoming(frames: List[bytes], open_requests: Dict[str, Any]) -> "tuple[Message, Optional[str]]":
    """Decodes a message from the host and names the open request it belongs to (None:
    it belongs to none, a stray). Shared by the blocking and the asyncio client."""
    try:
        msg = Message.decode(frames)
    except WireError as e:
        raise ProtocolViolation(f"the host sent a malformed message: {e}") from None
    if msg.request_id in open_requests:
        return msg, msg.request_id
    if msg.kind is Kind.ERROR and msg.request_id == "" and len(open_requests) == 1:
        # An ERROR with an empty id answers a message the host could not parse; with one
        # request open, it can only be about that one.
        return msg, next(iter(open_requests))
    return msg, None
