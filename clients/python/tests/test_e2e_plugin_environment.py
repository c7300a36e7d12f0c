"""Plugins get a minimal environment, not the host's (issue 23; docs/security.md, "Plugin
environment"): the allow-list, what their entry names in `inherit_env:` and `env:`, and the
INTENTBUS_* variables the host sets for them. A real host, a real Python plugin that
reports the environment it was started with."""

import subprocess

from conftest import binary, plugin_entry, py_plugin


def test_a_secret_in_the_hosts_environment_does_not_reach_a_plugin_a_named_one_does(start_host, monkeypatch):
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "the-cloud-key")
    monkeypatch.setenv("INTENTBUS_CREDENTIAL", "the-shared-credential")
    monkeypatch.setenv("PGPASSWORD", "the-database-password")
    monkeypatch.setenv("IB_NAMED_FOR_PLUGIN", "wanted")
    monkeypatch.setenv("LC_TIME", "de_DE.UTF-8")
    monkeypatch.setenv("TZ", "Europe/Berlin")
    host = start_host([
        py_plugin("named", intents=("NamedIntent",), env={"FROM_ENTRY": "set-by-env"},
                  inherit=("PYTHONPATH", "IB_NAMED_FOR_PLUGIN")),
        py_plugin("plain", intents=("PlainIntent",)),
    ], wait_ready=["named", "plain"])
    client = host.client()

    named = client.send("NamedIntent", {"environ": True}, timeout=10).body["environ"]
    plain = client.send("PlainIntent", {"environ": True}, timeout=10).body["environ"]
    for seen in (named, plain):
        for secret in ("AWS_SECRET_ACCESS_KEY", "INTENTBUS_CREDENTIAL", "PGPASSWORD"):
            assert secret not in seen, f"{secret} reached a plugin"
        assert "the-cloud-key" not in seen.values()
        # The allow-list.
        assert seen["PATH"] and seen["LC_TIME"] == "de_DE.UTF-8" and seen["TZ"] == "Europe/Berlin"
        # What the host sets for every plugin.
        assert seen["INTENTBUS_BACKEND"].startswith("ipc://") and seen["INTENTBUS_TOKEN"]
    assert named["IB_NAMED_FOR_PLUGIN"] == "wanted"
    assert named["FROM_ENTRY"] == "set-by-env"
    assert named["INTENTBUS_PLUGIN_ID"] == "named"
    assert "IB_NAMED_FOR_PLUGIN" not in plain and "FROM_ENTRY" not in plain


def test_inherit_env_refuses_the_hosts_own_names(tmp_path):
    manifest = tmp_path / "plugins.yaml"
    manifest.write_text("host:\n  state_dir: state\nplugins:\n"
                        + plugin_entry("p", ["/bin/true"], ["PIntent"], inherit=("INTENTBUS_TOKEN", "A=B")) + "\n")
    r = subprocess.run([binary("intentbus"), "validate", "--config", str(manifest), "p"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode != 0
    assert "INTENTBUS_TOKEN is set by the host" in r.stderr + r.stdout
    assert "invalid environment variable name 'A=B'" in r.stderr + r.stdout
