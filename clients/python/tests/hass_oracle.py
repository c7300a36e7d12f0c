"""Home Assistant's reference matcher (the PyPI `hassil` package) on the same corpus that
IntentBus's `sentence-corpus` runs: the same templates (../shared/hass-intents), the same
fixtures as lists, the same sentences and contexts, so that both answers can be compared
sentence by sentence (tests/test_sentences_oracle.py) and timed side by side
(bench/sentences.py). The corpus is CC BY 4.0, the Home Assistant intents contributors.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import yaml
from hassil import Intents, TextSlotList, recognize_best
from hassil.parse_expression import parse_sentence
from hassil.sample import sample_expression
from hassil.util import is_template, merge_dict

REPO = Path(__file__).resolve().parents[3]


def corpus_root() -> Path:
    """$INTENTBUS_HASS_INTENTS, or ../shared/hass-intents beside the repository."""
    env = os.environ.get("INTENTBUS_HASS_INTENTS")
    return Path(env) if env else REPO.parent / "shared" / "hass-intents"


def _names(items: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for item in items:
        name = item["name"]
        if is_template(name):
            out.extend(n.strip() for n in sample_expression(parse_sentence(name).expression))
        else:
            out.append(name.strip())
    return out


class HassilMatcher:
    """hassil's answer (intent, slots) for a sentence over `intents` and `slot_lists`, as
    both corpora ask it (HA's tests here, the PyPI package's sampled sentences in hass_pypi)."""

    intents: Intents
    slot_lists: dict[str, Any]

    def recognize(self, sentence: str, context: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        result = recognize_best(sentence, self.intents, slot_lists=self.slot_lists,
                                intent_context=context, best_slot_name="name")
        if result is None:
            return None, {}
        return result.intent.name, {e.name: e.value for e in result.entities.values()}

    def timed(self, sentence: str, context: dict[str, Any]) -> tuple[float, str | None, dict[str, Any]]:
        start = time.perf_counter()
        intent, slots = self.recognize(sentence, context)
        return (time.perf_counter() - start) * 1e6, intent, slots


class HassCorpus(HassilMatcher):
    """One language: hassil's Intents, the fixture lists and the test cases."""

    def __init__(self, root: Path, language: str) -> None:
        merged: dict[str, Any] = {}
        for path in sorted((root / "sentences" / language).rglob("*.yaml")):
            with open(path, encoding="utf-8") as f:
                merge_dict(merged, yaml.safe_load(f))
        self.intents = Intents.from_dict(merged)
        with open(root / "tests" / language / "_fixtures.yaml", encoding="utf-8") as f:
            fixtures = yaml.safe_load(f)
        entities = []
        for entity in fixtures["entities"]:
            context = {"domain": entity["id"].split(".", 1)[0], **entity.get("attributes", {})}
            entities.extend((n, n, context) for n in _names([entity]))
        self.slot_lists = {
            "area": TextSlotList.from_strings(_names(fixtures.get("areas", []))),
            "floor": TextSlotList.from_strings(_names(fixtures.get("floors", []))),
            "name": TextSlotList.from_tuples(entities),
        }
        self.cases: list[tuple[str, dict[str, Any]]] = []
        tests = root / "tests" / language
        # The order sentence-corpus reads them in: relative paths sorted as strings.
        for path in sorted(tests.rglob("*.yaml"), key=lambda p: str(p.relative_to(tests))):
            if path.name.startswith("_"):
                continue
            with open(path, encoding="utf-8") as f:
                for test in yaml.safe_load(f).get("tests") or []:
                    if "name" not in (test.get("intent") or {}):
                        continue
                    context = test["intent"].get("context") or {}
                    self.cases.extend((s, context) for s in test.get("sentences") or [])



def intentbus_answers(binary: Path, language: str, stride: int, dump: Path) -> list[dict[str, Any]]:
    """Runs `sentence-corpus --dump` and returns its answer per sentence, in corpus order."""
    subprocess.run([str(binary), "--stride", str(stride), "--misses", "0", "--min", "0", "--dump", str(dump), language],
                   check=True, capture_output=True, cwd=REPO, timeout=600)
    with open(dump, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def same_value(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return bool(a == b)


def agree(ours: dict[str, Any], intent: str | None, slots: dict[str, Any]) -> bool:
    """Whether IntentBus's answer and hassil's are the same intent with the same slots."""
    if ours.get("intent") != intent:
        return False
    mine = ours.get("slots", {})
    return mine.keys() == slots.keys() and all(same_value(mine[k], slots[k]) for k in slots)
