"""What the blocking and the asyncio client share: their hosts, the I/O-free core, and
one connection per host (docs/protocol.md §4.10)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

import zmq

from ..wire import Message
from .core import ClientCore
from .hosts import HostBook, resolve_endpoints
from .links import HostLink

__all__ = ["ClientBase"]


class ClientBase:
    """The state both clients are built on; see `Client` for the arguments."""

    def __init__(self, endpoint: Union[None, str, Sequence[str]], *, context: Optional["zmq.Context[Any]"],
                 slack: float, client_id: Optional[str], client_key: Optional[str], server_key: Optional[str],
                 selection: str, heartbeat: float, connect_wait: Optional[float]):
        self.endpoints = resolve_endpoints(endpoint)
        #: The first host (with one host: the host).
        self.endpoint = self.endpoints[0]
        self.slack = slack
        self.connect_wait = connect_wait if connect_wait is not None else (
            1.0 if len(self.endpoints) > 1 else max(0.1, slack))
        self._core = ClientCore(client_id)
        self._core.several_hosts = len(self.endpoints) > 1
        self._book = HostBook(self.endpoints, selection=selection, heartbeat=heartbeat)
        self._keys = (client_key, server_key)
        self._own_context = context is None
        self._context: "zmq.Context[Any]" = context or zmq.Context()
        self._links: Dict[str, HostLink] = {e: self._new_link(e) for e in self.endpoints}

    def _new_link(self, endpoint: str) -> HostLink:
        return HostLink(self._context, endpoint, self._keys[0], self._keys[1], immediate=True)

    @property
    def client_id(self) -> Optional[str]:
        """The stable client identity sent with every request (None: the connection's own)."""
        return self._core.client_id

    @client_id.setter
    def client_id(self, value: Optional[str]) -> None:
        self._core.client_id = value

    @property
    def stray_messages(self) -> List[Message]:
        """Messages that arrived for requests that had already ended (or were never
        sent from here). A host that keeps the one-final-answer rule leaves this empty."""
        return self._core.stray_messages
