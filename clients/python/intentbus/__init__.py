"""IntentBus for Python: a client and a plugin SDK over pyzmq.

The wire protocol is docs/protocol.md in the IntentBus repository; this package
follows it, and the shared vectors in conformance/ pin the bytes.

    from intentbus import Client
    with Client("ipc://.intentbus/frontend.sock") as client:
        reply = client.send("OrderCoffeeIntent", {"beverage": "latte", "size": "large", "quantity": 2})
        print(reply.body["dialog"])
"""

from .client import DEFAULT_TIMEOUT, Answer, AsyncClient, Client, Conversation, Event, Progress, Prompt, Reply
from .errors import (AuthenticationRequired, BadFrame, Forbidden, Busy, BusError, BusTimeout, Cancelled, ChoiceRequired,
                     ConversationExpired, DuplicateRequest, ErrorCode, IntentBusError, InternalError, JSONValueError,
                     InvalidParameters, NoAnswer, PluginCrashed, PluginError, PluginHung, PluginUnavailable,
                     ProtocolViolation, ShuttingDown, HostLost, StateUnavailable, TooLarge, Unanswered,
                     UnexpectedAnswer, UnknownIntent, UnknownPlugin, UnsupportedVersion, WireError, error_class)
from .plugin import (Context, Handler, HandlerStyle, PlainHandler, Plugin, PluginStartError, Request,
                     RequestCancelled, Result, register_style)
from .plugin.legacy import LegacyFunctionHandler, LegacyHandler, LegacyIntent, Resolution, Response
from .plugin.appintents import (ALWAYS_ALLOWED, REQUIRES_AUTHENTICATION, AppIntent, Entity, EntityQuery, EntityType,
                         EnumType, IntentResult, NeedsValue, NewStyleHandler, Parameter, PerformContext)
from .results import (MESSAGES_SEND_MESSAGE, REQUIRES_LOCAL_DEVICE_AUTHENTICATION, SYSTEM_SEARCH, Action,
                      IntermediateResult, OpensIntent, Row, SnippetAction, SnippetView, snippet_actions)
from .shortcuts import APPLICATION_NAME, AppShortcut, IntentDonation, deletion, slot
from .wire import PROTOCOL_VERSION, Kind, Message, canonical_json, parse_json

from ._version import __version__ as __version__

__all__ = [
    "Client", "AsyncClient", "Conversation", "Reply", "Prompt", "Progress", "Answer", "Event", "DEFAULT_TIMEOUT",
    "Plugin", "Context", "Request", "Result", "Handler", "PlainHandler", "HandlerStyle", "RequestCancelled",
    "PluginStartError", "register_style",
    "LegacyHandler", "LegacyFunctionHandler", "LegacyIntent", "Resolution", "Response",
    "AppIntent", "Parameter", "EnumType", "EntityType", "Entity", "EntityQuery", "IntentResult", "NeedsValue",
    "PerformContext", "NewStyleHandler", "ALWAYS_ALLOWED", "REQUIRES_AUTHENTICATION",
    "OpensIntent", "SnippetView", "Row", "Action", "IntermediateResult", "SnippetAction", "snippet_actions",
    "SYSTEM_SEARCH", "MESSAGES_SEND_MESSAGE", "REQUIRES_LOCAL_DEVICE_AUTHENTICATION",
    "AppShortcut", "APPLICATION_NAME", "slot", "IntentDonation", "deletion",
    "Kind", "Message", "canonical_json", "parse_json", "PROTOCOL_VERSION",
    "ErrorCode", "IntentBusError", "BusError", "WireError", "JSONValueError", "NoAnswer", "ProtocolViolation",
    "Unanswered",
    "error_class", "BadFrame", "UnsupportedVersion", "UnknownIntent", "ChoiceRequired", "UnknownPlugin",
    "BusTimeout", "PluginCrashed", "PluginHung", "PluginUnavailable", "Busy", "InvalidParameters",
    "AuthenticationRequired", "Forbidden", "ConversationExpired", "Cancelled", "DuplicateRequest", "UnexpectedAnswer",
    "TooLarge", "PluginError",
    "ShuttingDown", "StateUnavailable", "InternalError", "HostLost",
]
