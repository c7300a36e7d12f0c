"""Example plugins. Run one with `python -m intentbus.examples.<name>` (under `intentbus host`)."""
