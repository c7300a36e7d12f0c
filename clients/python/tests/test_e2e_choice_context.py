"""End to end: remembered choices per request context (docs/choices.md "Per context"):
with `host.choice_context: satellite`, each satellite named in a request's context is
asked once and keeps its own "always" default, whichever client relays it; requests
without it keep the per-client choices. Real host, two real Swift plugins."""

import pytest

from intentbus import Answer, ChoiceRequired

from conftest import swift_test_plugin


@pytest.fixture
def host(start_host):
    return start_host([swift_test_plugin("zulu", ["SharedIntent"]), swift_test_plugin("alpha", ["SharedIntent"])],
                      wait_ready=["zulu", "alpha"], host_extra="  choice_context: satellite\n")


def test_each_satellite_remembers_its_own_default(host):
    client = host.client()
    prompts = []

    def choose(plugin):
        def answer(p):
            prompts.append(p)
            return Answer(plugin, remember="always")
        return answer
    kitchen, office = {"satellite": "kitchen-1", "area": "Kitchen"}, {"satellite": "office-2"}
    assert client.send("SharedIntent", context=kitchen, on_prompt=choose("zulu")).plugin == "zulu"
    assert client.send("SharedIntent", context=office, on_prompt=choose("alpha")).plugin == "alpha"
    assert [p.kind for p in prompts] == ["plugin_choice", "plugin_choice"]
    # Remembered per satellite: no prompt (on_prompt=None would raise), from any client.
    other = host.client()
    assert other.send("SharedIntent", context={"satellite": "kitchen-1"}, client_id="wyoming").plugin == "zulu"
    assert client.send("SharedIntent", context=office).plugin == "alpha"
    # A request without a satellite has no default yet: it is asked (here: refused).
    with pytest.raises(ChoiceRequired):
        client.send("SharedIntent", choice="fail")
    with pytest.raises(ChoiceRequired):
        client.send("SharedIntent", context={"satellite": "garage-3"}, choice="fail")
    # The choices are listed under the satellite's key, and ib.explain says whose applies.
    listed = {c["client"]: c["plugin"] for c in client.send("ib.choices.list", {}).body["choices"]}
    assert listed == {"satellite=kitchen-1": "zulu", "satellite=office-2": "alpha"}
    explained = client.send("ib.explain", {"intent": "SharedIntent"}, context=kitchen).body
    assert explained["client"] == "satellite=kitchen-1"
