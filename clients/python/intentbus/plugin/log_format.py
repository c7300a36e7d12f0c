"""Logging of a plugin (intentbus.plugin): text or JSON lines on stderr, which the host
relays (`INTENTBUS_LOG`, `INTENTBUS_LOG_FORMAT`)."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any, Dict

__all__ = ["JSONLogFormatter"]


class JSONLogFormatter(logging.Formatter):
    """One JSON object a line, as the host's `--log-format json` writes them: `time` (ISO
    8601 UTC with the date), `level`, `label`, `message`, and `request` when the record
    carries one (`logger.info(..., extra={"request": id})`). The host relays these lines
    with the plugin's id and pid added."""

    _LEVELS = {"DEBUG": "debug", "INFO": "info", "WARNING": "warning", "ERROR": "error", "CRITICAL": "error"}

    def __init__(self, label: str):
        super().__init__()
        self.label = label

    def format(self, record: logging.LogRecord) -> str:
        moment = time.gmtime(record.created)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", moment) + f".{int(record.msecs):03d}Z"
        out: Dict[str, Any] = {"time": stamp, "level": self._LEVELS.get(record.levelname, "info"),
                               "label": self.label, "message": record.getMessage()}
        request = getattr(record, "request", None)
        if request is not None:
            out["request"] = str(request)
        if record.exc_info:
            out["message"] += "\n" + self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _logger_for(plugin_id: str) -> logging.Logger:
    logger = logging.getLogger(f"intentbus.plugin.{plugin_id}")
    if not logger.handlers:
        h = logging.StreamHandler(sys.stderr)
        if os.environ.get("INTENTBUS_LOG_FORMAT", "text").lower() == "json":
            h.setFormatter(JSONLogFormatter(plugin_id))
        else:
            h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [{plugin_id}] %(message)s", "%H:%M:%S"))
        logger.addHandler(h)
        logger.propagate = False
    level = os.environ.get("INTENTBUS_LOG", "info").upper()
    logger.setLevel(getattr(logging, level, logging.INFO) if level in ("DEBUG", "INFO", "WARNING", "ERROR")
                    else logging.INFO)
    return logger
