"""The Python plugin SDK logs in the host's format: JSON lines when the host runs with
`--log-format json` (it sets INTENTBUS_LOG_FORMAT for its plugins)."""

import json
import logging
import re

from intentbus.plugin import JSONLogFormatter, _logger_for


def test_json_lines_carry_iso_time_level_label_and_request():
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "request %s ended", ("r7",), None)
    record.request = "r7"
    line = JSONLogFormatter("coffee").format(record)
    obj = json.loads(line)
    assert "\n" not in line
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z", obj["time"])
    assert obj["level"] == "warning" and obj["label"] == "coffee"
    assert obj["message"] == "request r7 ended" and obj["request"] == "r7"


def test_the_environment_picks_the_format(monkeypatch):
    monkeypatch.setenv("INTENTBUS_LOG_FORMAT", "json")
    logger = _logger_for("fmt-json-test")
    assert isinstance(logger.handlers[0].formatter, JSONLogFormatter)
    monkeypatch.setenv("INTENTBUS_LOG_FORMAT", "text")
    logger = _logger_for("fmt-text-test")
    assert not isinstance(logger.handlers[0].formatter, JSONLogFormatter)
