import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusTestSupport

// Shared by the choice end-to-end suites (ChoiceEndToEndTests, ChoiceCommandsEndToEndTests).

/// Test plugins that all claim `intent`, some with a `priority`.
func claimants(_ ids: [String], intent: String = "SharedIntent", priority: [String: Int] = [:]) -> [TestManifest.Plugin] {
    ids.map { id in TestManifest.Plugin.test(id, intents: [intent]).with { $0.priority = priority[id] } }
}

/// Sends `intent` and answers every prompt with `answer`; returns the reply and the
/// prompts that were asked.
func send(_ client: IntentClient, _ intent: String = "SharedIntent", options: RequestOptions = RequestOptions(),
                  answer: (Prompt) -> JSON? = { _ in nil }) throws -> (IntentReply, [Prompt]) {
    var prompts: [Prompt] = []
    let reply = try client.send(intent, parameters: ["n": 1], options: options) { event in
        guard case .prompt(let p) = event else { return nil }
        prompts.append(p)
        return answer(p)
    }
    return (reply, prompts)
}

/// Sends and expects an ERROR; returns it.
func sendExpectingError(_ client: IntentClient, _ intent: String = "SharedIntent",
                                options: RequestOptions = RequestOptions(),
                                answer: (Prompt) -> JSON? = { _ in nil }) throws -> BusError {
    do {
        let (reply, _) = try send(client, intent, options: options, answer: answer)
        throw TestFailure("expected an error, got a reply from \(reply.plugin ?? "?"): \(reply.body.canonicalString)")
    } catch ClientError.bus(let e) {
        return e
    }
}

func options(client: String? = nil, plugin: String? = nil, remember: Bool = false, choice: String? = nil) -> RequestOptions {
    var o = RequestOptions()
    o.clientIdentity = client
    o.plugin = plugin
    o.remember = remember
    o.choicePolicy = choice
    return o
}

/// Ends the host process with `sig` and reaps it, keeping its directory (state and
/// manifest) for the next host.
func end(_ host: TestHost, with sig: Int32) {
    kill(host.process.processIdentifier, sig)
    host.process.waitUntilExit()
}

/// Runs the built CLI against `host`.
func cli(_ host: TestHost, _ args: [String]) -> CommandResult {
    runCommand(Products.path("intentbus"), args + ["--endpoint", host.frontend])
}
