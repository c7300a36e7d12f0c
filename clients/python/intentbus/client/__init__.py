"""The IntentBus clients (docs/protocol.md §4): `Client` (blocking) and `AsyncClient`
(asyncio), both thin drivers of the same I/O-free core.

- core.py: `ClientCore` and `ConversationCore`, what is sent and what a message from
  the host means (no socket);
- events.py: the events a conversation yields (`Reply`, `Prompt`, `Progress`, …);
- transport.py: endpoint and CURVE set-up of a socket;
- blocking.py + conversation.py: `Client`, `Conversation`; aio.py: `AsyncClient`.
"""

from .aio import AsyncClient
from .blocking import DEFAULT_TIMEOUT, Client
from .conversation import Conversation
from .core import ClientCore, ConversationCore, request_header
from .events import Answer, Event, Progress, Prompt, Reply
from .transport import apply_curve, read_key, resolve_endpoint
from ..results import IntermediateResult

__all__ = ["Client", "AsyncClient", "Conversation", "ClientCore", "ConversationCore", "Reply", "Prompt", "Progress",
           "Answer", "Event", "IntermediateResult", "DEFAULT_TIMEOUT", "request_header", "apply_curve", "read_key",
           "resolve_endpoint"]
