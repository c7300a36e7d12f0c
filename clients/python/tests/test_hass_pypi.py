"""The PyPI languages of home-assistant-intents through IntentBus and hassil: a bounded pass
(a few languages, a few sentences an intent) of what `make sentences-pypi` runs in full
(bench/sentences_pypi.py, docs/sentences.md "Every language of the PyPI package").
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hassil.sample import sample_expression

from conftest import binary
from hass_pypi import PypiCorpus, Sampler, languages

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from sentences_pypi import intentbus, score  # noqa: E402

# Languages of different scripts and shapes: Romance, Slavic (Cyrillic), Chinese (no spaces,
# hassil's ignore_whitespace), Greek.
BOUNDED = ["fr", "ru", "zh-CN", "el"]
MINIMUM = 97.0


def test_the_package_has_every_bounded_language() -> None:
    assert set(BOUNDED) <= set(languages())
    assert len(languages()) >= 60


@pytest.mark.parametrize("language", ["fr", "zh-CN"])
def test_unrank_is_hassils_sampler_order(language: str) -> None:
    """Sampler.unrank(i) is the i-th sentence hassil.sample.sample_expression yields."""
    corpus = PypiCorpus(language, per_template=1, per_intent=1)
    lists = {**corpus.intents.slot_lists, **corpus.slot_lists}
    checked = 0
    for intent in corpus.intents.intents.values():
        for block in intent.data:
            rules = {**corpus.intents.expansion_rules, **block.expansion_rules}
            block_lists = {**lists, **block.slot_lists}
            sampler = Sampler(block_lists, rules, wildcard=None)
            for template in block.sentences:
                n = sampler.count(template.expression)
                if n > 300:
                    continue
                # language=None: hassil samples ranges as digits only, as Sampler does.
                theirs = list(sample_expression(template.expression, block_lists, rules))
                assert [sampler.unrank(template.expression, i) for i in range(n)] == theirs, template.text
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("language", BOUNDED)
def test_agrees_with_hassil(language: str, tmp_path: Path) -> None:
    corpus = PypiCorpus(language, per_template=1, per_intent=3)
    corpus.expect()
    assert len(corpus.cases) > 60
    assert sum(c.expected_intent is not None for c in corpus.cases) > len(corpus.cases) * 0.9
    answers = intentbus(Path(binary("sentence-corpus")), corpus, tmp_path)
    agreed, misses = score(corpus, answers)
    detail = [(c.sentence, a.get("intent"), a.get("slots"), c.expected_intent, c.expected_slots) for c, a in misses]
    assert agreed * 100.0 / len(corpus.cases) >= MINIMUM, detail
