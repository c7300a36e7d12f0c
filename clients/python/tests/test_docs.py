"""The documentation's examples run: the ten-line client of docs/python.md against a
real host with the coffee plugin, and the demo manifest's coffee entry."""

import re
import subprocess
import sys

from conftest import REPO, coffee_plugin


def _doc_block(marker):
    text = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    m = re.search(re.escape(marker) + r".*?\n```python\n(.*?)```", text, re.S)
    assert m, f"no python block after {marker!r} in docs/python.md"
    return m.group(1)


def test_the_ten_line_client_of_the_guide_works(start_host, tmp_path):
    script = _doc_block("<!-- ten-line-client")
    assert len(script.strip().splitlines()) <= 12
    (tmp_path / "order.py").write_text(script)
    host = start_host([coffee_plugin()])
    r = subprocess.run([sys.executable, str(tmp_path / "order.py"), host.frontend], capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r"Your order C-\d+ is on its way: 2 × large latte, €8\.40\.\n", r.stdout)


def test_the_demo_manifests_coffee_entry_starts(start_host):
    """The coffee entry of the repository's plugins.yaml, as written, with its relative
    exec resolved against the repository (the host resolves it against the manifest)."""
    text = (REPO / "plugins.yaml").read_text(encoding="utf-8")
    m = re.search(r"^  - id: coffee\n(?:    .*\n)+", text, re.M)
    assert m, "no coffee entry in plugins.yaml"
    entry = m.group(0).rstrip("\n")
    exec_line = re.search(r"^    exec: (\S+)(.*)$", entry, re.M)
    program = REPO / exec_line.group(1)
    assert program.exists(), f"{program} does not exist: `make run`/`make test` create the venv"
    entry = entry.replace(exec_line.group(0), f"    exec: {program}{exec_line.group(2)}")
    definitions = re.search(r"^    definitions: \[(\S+)\]$", entry, re.M)
    assert definitions and definitions.group(1) == "definitions/coffee.yaml", "the coffee entry lists its definition"
    entry = entry.replace(definitions.group(0), f"    definitions: [{REPO / definitions.group(1)}]")
    host = start_host([entry], wait_ready=["coffee"])
    reply = host.client().send("OrderCoffeeIntent", {"beverage": "espresso", "size": "small"})
    assert reply.plugin == "coffee" and reply.body["response"]["price"] == {"amount": 1.8, "currency": "EUR"}
    assert reply.body["parameters"]["quantity"] == 1  # the definition's default
