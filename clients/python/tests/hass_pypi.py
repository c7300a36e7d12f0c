"""Every language of the PyPI `home-assistant-intents` package through hassil and IntentBus.

The package ships, per language, the merged intents Home Assistant loads at run time
(`data/<lang>.json`: templates, lists, expansion rules, skip words, responses, settings),
not HA's test sentences or fixtures. So the sentences are made here, from the templates,
and hassil (the reference matcher, PyPI `hassil`) says what each one means:

1. The lists HA fills at run time (`area`, `floor`, `name`) get small synthetic fixtures:
   two areas, a floor, and an entity per domain any block requires (its domain as the
   value's context, as HA's entities give it). Nonce words ("Quaaro"), so that no name is
   also a word of a language's templates. Wildcard lists are said as "zarbo quint". A
   block that requires domains is sampled with the entities of those domains only.
2. Every template is expanded in the order of hassil's own sampler
   (`hassil.sample.sample_expression`: alternatives in order, sequences as
   `itertools.product`, permutations as `itertools.permutations`, list values in order,
   ranges as digits), and `per_template` sentences are taken evenly spaced through that
   enumeration: the i-th sentence is computed directly (`unrank`) instead of enumerating
   the product, which for some templates has millions of entries.
   `test_hass_pypi.py` checks `unrank` against `sample_expression` itself.
   Ranges are sampled as digits only: hassil also accepts number words (unicode-rbnf),
   which IntentBus does not (docs/sentences.md, "Numbers as words").
3. Per intent, templates are taken round robin (the first sample of each, then the
   second, ...) up to `per_intent` sentences.
4. A sentence from a block that requires the satellite's `area` is said with the context
   `{"area": <the first area>}`; others with none.
5. hassil's `recognize_best` (best slot `name`) on the sentence and context is the expected
   answer, intent and slots, or no match.

The corpus is then written in the layout `sentence-corpus --root` reads
(`sentences/<lang>/intents.yaml`, `tests/<lang>/_fixtures.yaml`, `tests/<lang>/sampled.yaml`)
and IntentBus's answers come from `sentence-corpus --dump`, compared as hass_oracle does.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hass_oracle import HassilMatcher
from hassil import Intents, TextSlotList
from hassil.expression import (
    Alternative,
    Expression,
    ListReference,
    Permutation,
    RuleReference,
    Sentence,
    Sequence,
    TextChunk,
)
from hassil.intents import RangeSlotList, SlotList, WildcardSlotList
from hassil.util import normalize_whitespace
from home_assistant_intents import get_intents, get_languages

AREAS = ["Ardovar", "Belmi Quarto"]
FLOORS = ["Florvanto"]
WILDCARD_TEXT = "zarbo quint"
# Domains any block requires, in a fixed order; each gets one nonce-named entity.
DOMAINS = ["light", "switch", "fan", "media_player", "input_boolean", "climate", "cover", "lock", "valve",
           "binary_sensor", "sensor", "todo", "vacuum", "person", "weather", "scene", "script", "lawn_mower",
           "button", "input_button"]


def entity_names() -> list[tuple[str, str]]:
    """(name, domain): a nonce word per domain, and a two-word name for a light."""
    out = [(f"Qua{chr(ord('a') + i)}ro", domain) for i, domain in enumerate(DOMAINS)]
    out.append(("Quelo Varn", "light"))
    return out


def languages() -> list[str]:
    return list(get_languages())


class Sampler:
    """hassil's sampler order, with the i-th expansion of an expression computed directly."""

    def __init__(self, slot_lists: dict[str, SlotList], rules: dict[str, Sentence], wildcard: str | None) -> None:
        self.slot_lists = slot_lists
        self.rules = rules
        self.wildcard = wildcard  # None: "{name}" as hassil's sampler says it
        self._counts: dict[int, int] = {}

    def count(self, e: Expression) -> int:
        key = id(e)
        if key not in self._counts:
            self._counts[key] = self._count(e)
        return self._counts[key]

    def _count(self, e: Expression) -> int:
        if isinstance(e, TextChunk):
            return 1
        if isinstance(e, Alternative):
            return sum(self.count(i) for i in e.items)
        if isinstance(e, Sequence):
            return math.prod(self.count(i) for i in e.items)
        if isinstance(e, Permutation):
            return math.factorial(len(e.items)) * math.prod(self.count(i) for i in e.items)
        if isinstance(e, RuleReference):
            return self.count(self.rules[e.rule_name].expression)
        if isinstance(e, ListReference):
            slot_list = self.slot_lists[e.list_name]
            if isinstance(slot_list, TextSlotList):
                return sum(self.count(v.text_in) for v in slot_list.values)
            if isinstance(slot_list, RangeSlotList):
                return sum(1 for _ in slot_list.get_numbers()) if slot_list.digits else 0
            return 1
        raise ValueError(f"unexpected expression {e!r}")

    def unrank(self, e: Expression, i: int) -> str:
        """The i-th string `hassil.sample.sample_expression(e)` yields (ranges as digits)."""
        if isinstance(e, TextChunk):
            return e.original_text
        if isinstance(e, Alternative):
            for item in e.items:
                n = self.count(item)
                if i < n:
                    return self.unrank(item, i)
                i -= n
            raise IndexError(i)
        if isinstance(e, Sequence):
            return normalize_whitespace("".join(self._product(e.items, i)))
        if isinstance(e, Permutation):
            per = math.prod(self.count(x) for x in e.items)
            order = _nth_permutation(len(e.items), i // per)
            return normalize_whitespace("".join(self._product([e.items[k] for k in order], i % per))).strip()
        if isinstance(e, RuleReference):
            return self.unrank(self.rules[e.rule_name].expression, i)
        if isinstance(e, ListReference):
            slot_list = self.slot_lists[e.list_name]
            if isinstance(slot_list, TextSlotList):
                for value in slot_list.values:
                    n = self.count(value.text_in)
                    if i < n:
                        return self.unrank(value.text_in, i)
                    i -= n
                raise IndexError(i)
            if isinstance(slot_list, RangeSlotList):
                return str(next(itertools.islice(slot_list.get_numbers(), i, None)))
            if isinstance(slot_list, WildcardSlotList):
                return self.wildcard if self.wildcard is not None else "{" + (slot_list.name or "wildcard") + "}"
        raise ValueError(f"unexpected expression {e!r}")

    def _product(self, items: list[Expression], i: int) -> list[str]:
        # itertools.product: the last item varies fastest.
        parts: list[str] = []
        for item in reversed(items):
            n = self.count(item)
            parts.append(self.unrank(item, i % n))
            i //= n
        return parts[::-1]


def _nth_permutation(n: int, k: int) -> list[int]:
    """The k-th tuple itertools.permutations(range(n)) yields (lexicographic)."""
    pool = list(range(n))
    out: list[int] = []
    for m in range(n, 0, -1):
        f = math.factorial(m - 1)
        out.append(pool.pop(k // f))
        k %= f
    return out


@dataclass
class Case:
    sentence: str
    context: dict[str, Any]
    intent: str            # the intent it was sampled from
    template: str          # the template it was sampled from
    expected_intent: str | None = None
    expected_slots: dict[str, Any] = field(default_factory=dict)


class PypiCorpus(HassilMatcher):
    """One language of the package: hassil's Intents, the synthetic fixtures, the sampled cases."""

    def __init__(self, language: str, per_template: int = 2, per_intent: int = 30) -> None:
        data = get_intents(language)
        if data is None:
            raise ValueError(f"home-assistant-intents has no language {language!r}")
        self.language = language
        self.data = data
        self.intents = Intents.from_dict(data)
        entities = [(name, name, {"domain": domain}) for name, domain in entity_names()]
        self.slot_lists: dict[str, SlotList] = {
            "area": TextSlotList.from_strings(AREAS),
            "floor": TextSlotList.from_strings(FLOORS),
            "name": TextSlotList.from_tuples(entities),
        }
        self.cases = self._sample(per_template, per_intent)

    def _sample(self, per_template: int, per_intent: int) -> list[Case]:
        lists = {**self.intents.slot_lists, **self.slot_lists}
        cases: list[Case] = []
        for intent in self.intents.intents.values():
            per_template_cases: list[list[Case]] = []
            for block in intent.data:
                sampler = Sampler({**lists, **_names_for(block.requires_context), **block.slot_lists},
                                  {**self.intents.expansion_rules, **block.expansion_rules}, WILDCARD_TEXT)
                context = {"area": AREAS[0]} if "area" in (block.requires_context or {}) else {}
                for template in block.sentences:
                    total = sampler.count(template.expression)
                    picks = sorted({(j * total) // per_template for j in range(min(per_template, total))})
                    seen: set[str] = set()
                    mine: list[Case] = []
                    for i in picks:
                        text = sampler.unrank(template.expression, i).strip()
                        if text and text not in seen:
                            seen.add(text)
                            mine.append(Case(text, context, intent.name, template.text or ""))
                    per_template_cases.append(mine)
            taken = [c for round_ in itertools.zip_longest(*per_template_cases) for c in round_ if c is not None]
            cases.extend(taken[:per_intent])
        return cases


    def expect(self) -> None:
        """hassil's answer for every case."""
        for case in self.cases:
            case.expected_intent, case.expected_slots = self.recognize(case.sentence, case.context)

    def write(self, root: Path) -> None:
        """The corpus in the layout `sentence-corpus --root ROOT LANG` reads."""
        sentences = root / "sentences" / self.language
        tests = root / "tests" / self.language
        sentences.mkdir(parents=True, exist_ok=True)
        tests.mkdir(parents=True, exist_ok=True)
        keep = ("language", "intents", "lists", "expansion_rules", "skip_words")
        templates = {k: v for k, v in self.data.items() if k in keep}
        _dump(sentences / "intents.yaml", templates)
        _dump(tests / "_fixtures.yaml", {
            "language": self.language,
            "areas": [{"name": a, "id": f"area_{i}"} for i, a in enumerate(AREAS)],
            "floors": [{"name": f, "id": f"floor_{i}"} for i, f in enumerate(FLOORS)],
            "entities": [{"name": n, "id": f"{d}.{n.lower().replace(' ', '_')}"} for n, d in entity_names()],
        })
        _dump(tests / "sampled.yaml", {"language": self.language, "tests": [
            {"sentences": [c.sentence], "intent": {"name": c.expected_intent or "", "slots": c.expected_slots,
                                                   "context": c.context}} for c in self.cases]})

    def to_json(self) -> list[dict[str, Any]]:
        return [c.__dict__ for c in self.cases]


def _names_for(requires: dict[str, Any] | None) -> dict[str, SlotList]:
    """For sampling a block that requires domains: only the entities it can take, so that
    its sentences name something it matches (hassil still recognizes with every entity)."""
    wanted = (requires or {}).get("domain")
    if wanted is None:
        return {}
    domains = set(wanted) if isinstance(wanted, list) else {wanted}
    names = [(n, n, {"domain": d}) for n, d in entity_names() if d in domains]
    return {"name": TextSlotList.from_tuples(names)} if names else {}


def _dump(path: Path, value: Any) -> None:
    with open(path, "w", encoding="utf-8") as f:
        yaml.safe_dump(value, f, allow_unicode=True, sort_keys=False, width=1 << 20)


def load_cases(path: Path) -> list[Case]:
    with open(path, encoding="utf-8") as f:
        return [Case(**c) for c in json.load(f)]
