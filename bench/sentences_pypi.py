"""`make sentences-pypi`: every language of the PyPI `home-assistant-intents` package, its
templates through IntentBus's matcher and through hassil, on sentences sampled from the
templates (clients/python/tests/hass_pypi.py says how), hassil's answer the expected one.

Prints per language the agreement (same intent and slots, as hass_oracle.agree compares),
and for each language under --min the disagreements grouped by the template the sentence
was sampled from. hassil's answers are cached in --cache (keyed by the package versions
and the sampling bounds): hassil takes ~10-50 ms a sentence, ~24,000 sentences in all.
Exit status 1 when a language is under --min (default 99 %).

Usage: sentences_pypi.py [--bin DIR] [--per-template N] [--per-intent N] [--misses N] [--min PCT] [LANG...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "clients" / "python" / "tests"))
from hass_oracle import REPO, agree  # noqa: E402
from hass_pypi import Case, PypiCorpus, languages  # noqa: E402


def corpus_with_answers(language: str, per_template: int, per_intent: int, cache: Path | None) -> PypiCorpus:
    """The sampled corpus with hassil's answers, from the cache when it has this language."""
    corpus = PypiCorpus(language, per_template, per_intent)
    path = None
    if cache is not None:
        versions = f"hassil{version('hassil')}-hai{version('home-assistant-intents')}"
        key = f"{language}-{versions}-{per_template}x{per_intent}.json"
        path = cache / key
        if path.exists():
            with open(path, encoding="utf-8") as f:
                stored = [Case(**c) for c in json.load(f)]
            if [c.sentence for c in stored] == [c.sentence for c in corpus.cases]:
                corpus.cases = stored
                return corpus
    corpus.expect()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(corpus.to_json(), f, ensure_ascii=False)
    return corpus


def intentbus(binary: Path, corpus: PypiCorpus, tmp: Path) -> list[dict[str, Any]]:
    """IntentBus's answer for every case, from `sentence-corpus --root TMP --dump`."""
    root = tmp / corpus.language
    corpus.write(root)
    dump = tmp / f"{corpus.language}.jsonl"
    run = subprocess.run([str(binary), "--root", str(root), "--misses", "0", "--min", "0", "--dump", str(dump),
                          corpus.language], capture_output=True, text=True, cwd=REPO, timeout=600)
    if run.returncode != 0:
        raise RuntimeError(f"sentence-corpus {corpus.language}: {run.stderr.strip() or run.stdout.strip()}")
    with open(dump, encoding="utf-8") as f:
        answers = [json.loads(line) for line in f if line.strip()]
    if [a["sentence"] for a in answers] != [c.sentence for c in corpus.cases]:
        raise RuntimeError(f"sentence-corpus {corpus.language}: the answers are not for the sampled sentences")
    return answers


def describe(intent: str | None, slots: dict[str, Any]) -> str:
    if intent is None:
        return "no match"
    return intent + "".join(f" {k}={json.dumps(v, ensure_ascii=False)}" for k, v in sorted(slots.items()))


def score(corpus: PypiCorpus, answers: list[dict[str, Any]]) -> tuple[int, list[tuple[Case, dict[str, Any]]]]:
    misses = [(c, a) for c, a in zip(corpus.cases, answers) if not agree(a, c.expected_intent, c.expected_slots)]
    return len(corpus.cases) - len(misses), misses


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--per-template", type=int, default=2)
    parser.add_argument("--per-intent", type=int, default=30)
    parser.add_argument("--misses", type=int, default=8, help="templates shown per language under --min")
    parser.add_argument("--min", type=float, default=99.0)
    parser.add_argument("--cache", default=str(REPO / ".build" / "hass-pypi"), help="'' for none")
    parser.add_argument("--jobs", type=int, default=2, help="processes asking hassil")
    parser.add_argument("languages", nargs="*")
    args = parser.parse_args()
    wanted = args.languages or languages()
    unknown = [lang for lang in wanted if lang not in languages()]
    if unknown:
        print(f"home-assistant-intents has no language {', '.join(unknown)} (it has {' '.join(languages())})")
        return 2
    binary = Path(args.bin) / "sentence-corpus"
    cache = Path(args.cache) if args.cache else None
    rows: list[tuple[str, int, int, int]] = []
    ok = True
    with tempfile.TemporaryDirectory() as tmp, ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(corpus_with_answers, lang, args.per_template, args.per_intent, cache) for lang in wanted]
        for future in futures:
            corpus = future.result()
            answers = intentbus(binary, corpus, Path(tmp))
            agreed, misses = score(corpus, answers)
            total = len(corpus.cases)
            none = sum(c.expected_intent is None for c in corpus.cases)
            pct = 100.0 * agreed / max(total, 1)
            rows.append((corpus.language, agreed, total, none))
            print(f"{corpus.language}: {agreed}/{total} agree with hassil ({pct:.2f} %); "
                  f"hassil matches nothing for {none}", flush=True)
            if pct < args.min:
                ok = False
                groups: dict[str, list[tuple[Case, dict[str, Any]]]] = defaultdict(list)
                for case, answer in misses:
                    groups[f"{case.intent}: \"{case.template}\""].append((case, answer))
                for template, group in sorted(groups.items(), key=lambda g: -len(g[1]))[: args.misses]:
                    print(f"  {len(group)} × {template}")
                    for case, answer in group[:2]:
                        ours = describe(answer.get("intent"), answer.get("slots", {}))
                        print(f"      \"{case.sentence}\"{' ' + json.dumps(case.context) if case.context else ''}: "
                              f"IntentBus {ours}; hassil {describe(case.expected_intent, case.expected_slots)}")
    agreed_all, total_all = sum(r[1] for r in rows), sum(r[2] for r in rows)
    below = [r[0] for r in rows if 100.0 * r[1] / max(r[2], 1) < args.min]
    overall = 100.0 * agreed_all / max(total_all, 1)
    print(f"all {len(rows)} languages: {agreed_all}/{total_all} agree ({overall:.2f} %); "
          f"under {args.min:g} %: {' '.join(below) or 'none'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
