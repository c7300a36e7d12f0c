"""Shared by the Python fuzzers (test_fuzz_*.py, docs/reliability.md): how long they run.

In every pytest run they run a bounded number of cases (a few seconds). `make fuzz` sets
INTENTBUS_FUZZ_SECONDS, and they then run that long and print the cases they ran."""

import os
import time


def budget_seconds():
    """The time `make fuzz` gives each Python fuzzer, or None in an ordinary test run."""
    text = os.environ.get("INTENTBUS_FUZZ_SECONDS")
    if not text:
        return None
    seconds = float(text)
    if not 1 <= seconds <= 86_400:
        raise ValueError(f"INTENTBUS_FUZZ_SECONDS must be within 1…86400, got {text}")
    return seconds


class Rounds:
    """Runs `round()` once in a test run, or again and again until the budget is spent."""

    def __init__(self, name):
        self.name = name
        self.cases = 0

    def run(self, round_fn):
        budget = budget_seconds()
        if budget is None:
            round_fn(0)
        else:
            deadline = time.monotonic() + budget
            seed = 0
            while time.monotonic() < deadline:
                round_fn(seed)
                seed += 1
        print(f"\n{self.name + ':':<20} {self.cases:>10} cases   0 crashes")
