"""The one-trip `run` phase of legacy handlers (docs/protocol.md §8.9): resolve the
header's `resolve` names and, while nothing needs the user, confirm and handle in the same
request, answering `{"resolutions": …, "confirm": …, "handle": …}` as far as it got. The
host takes that answer apart as three phase answers and goes on where the run stopped."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .types import Request

if TYPE_CHECKING:
    from .legacy import LegacyHandler, LegacyIntent

__all__ = ["PHASES", "run_phase", "settled"]

#: The phases a legacy handler announces in HELLO (`phases` of its `intents` entry).
PHASES = ["resolve", "confirm", "handle", "options", "run"]


def settled(params: Dict[str, Any], resolutions: Dict[str, Any], required: List[str]) -> Optional[Dict[str, Any]]:
    """The parameters after `resolutions` (wire form), or None when the run must stop at
    resolve: a result that needs the user, a per-item result that changes an item (the
    host splices lists), or a required parameter left without a value."""
    out = dict(params)
    for name, resolution in resolutions.items():
        if isinstance(resolution, list):
            given = out.get(name)
            current: List[Any] = given if isinstance(given, list) else []
            if len(resolution) != len(current):
                return None
            for item, result in zip(current, resolution):
                kind = result.get("result") if isinstance(result, dict) else None
                if kind == "notRequired" or (kind == "success" and result.get("value", item) == item):
                    continue
                return None
            continue
        kind = resolution.get("result") if isinstance(resolution, dict) else None
        if kind == "success":
            if "value" in resolution:
                if resolution["value"] is None:
                    out.pop(name, None)
                else:
                    out[name] = resolution["value"]
        elif kind != "notRequired":
            return None
    if any(out.get(name) is None for name in required):
        return None
    return out


def _as_phase(intent: "LegacyIntent", phase: str, params: Dict[str, Any]) -> "LegacyIntent":
    # Confirm and handle see the resolved values and their own phase, as in the phased flow.
    seen = copy.copy(intent)
    seen.params = dict(params)
    seen.phase = phase
    return seen


def run_phase(handler: "LegacyHandler", request: Request, intent: "LegacyIntent") -> Dict[str, Any]:
    """The `run` reply body."""
    reply = handler._resolve_phase(request, intent)
    required = request.header.get("required")
    names = [n for n in required if isinstance(n, str)] if isinstance(required, list) else []
    params = settled(intent.params, reply["resolutions"], names)
    if params is None:
        return reply
    confirmation = handler._confirm_phase(_as_phase(intent, "confirm", params))
    reply["confirm"] = confirmation
    if confirmation.get("implemented") is False or confirmation.get("code") == "ready":
        reply["handle"] = handler._handle_phase(_as_phase(intent, "handle", params))
    return reply
