"""Shared by the Python fuzzers (test_fuzz_*.py, docs/reliability.md): how long they run.

In every pytest run they run a bounded number of cases (a few seconds). `make fuzz` sets
INTENTBUS_FUZZ_SECONDS (the most time each may take) and INTENTBUS_FUZZ_CASES (the cases
each should reach, default 10^6); they then run until they reach the cases or run out of
time, whichever comes first, and print the cases they ran."""

import os
import time


def _env_number(name, low, high):
    text = os.environ.get(name)
    if not text:
        return None
    value = float(text)
    if not low <= value <= high:
        raise ValueError(f"{name} must be within {low}…{high}, got {text}")
    return value


def budget_seconds():
    """The time `make fuzz` gives each Python fuzzer, or None in an ordinary test run."""
    return _env_number("INTENTBUS_FUZZ_SECONDS", 1, 86_400)


def goal_cases():
    """The cases `make fuzz` wants from each fuzzer (default 10^6)."""
    return int(_env_number("INTENTBUS_FUZZ_CASES", 1, 10**10) or 1_000_000)


class Rounds:
    """Runs `round()` once in a test run, or again and again until the goal or the budget."""

    def __init__(self, name):
        self.name = name
        self.cases = 0
        self.started = time.monotonic()

    @property
    def fuzzing(self):
        """Whether this is a `make fuzz` run (not an ordinary test run)."""
        return budget_seconds() is not None

    def run(self, round_fn):
        budget = budget_seconds()
        if budget is None:
            round_fn(0)
        else:
            deadline = self.started + budget
            goal = goal_cases()
            seed = 0
            while time.monotonic() < deadline and self.cases < goal:
                round_fn(seed)
                seed += 1
        seconds = time.monotonic() - self.started
        print(f"\n{self.name + ':':<20} {self.cases:>10} cases   0 crashes  ({seconds:.0f}s)")
