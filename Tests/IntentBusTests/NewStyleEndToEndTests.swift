import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Sends a request and returns the bus error it ends with (or records an issue).
func busError(_ body: () throws -> Void) -> BusError? {
    do {
        try body()
        Issue.record("expected a bus error, got a reply")
    } catch ClientError.bus(let e) {
        return e
    } catch {
        Issue.record("expected a bus error, got \(error)")
    }
    return nil
}

/// End-to-end: new-style intents through the real host and the real plugin process.
@Suite("New-style handlers end to end", .serialized)
struct NewStyleTests {
    static let allIntents = TestManifest.Plugin.newStyleIntents

    @Test("defaults are applied by the host, given values are checked against type and range")
    func defaultsAndRanges() throws {
        let host = try TestHost(TestManifest(.newStyle("ns")))
        defer { host.stop() }
        let client = try host.client()
        let plain = try client.send("DefaultsIntent") { _ in nil }
        #expect(plain.status == "success")
        #expect(plain.body["snippet"]?["minutes"] == 25)
        #expect(plain.body["snippet"]?["ratio"] == 0.5)
        #expect(plain.body["snippet"]?["label"] == .null)
        #expect(plain.body["snippet"]?["loud"] == false)
        #expect(plain.body["dialog"] == "25 minutes")

        // In range, at the bounds, and from text: accepted and normalised.
        let given = try client.send("DefaultsIntent", parameters: ["minutes": 180, "ratio": 0, "label": "deep", "loud": "yes"]) { _ in nil }
        #expect(given.body["snippet"]?["minutes"] == 180)
        #expect(given.body["snippet"]?["ratio"]?.doubleValue == 0)
        #expect(given.body["snippet"]?["label"] == "deep")
        #expect(given.body["snippet"]?["loud"] == true)

        // Outside the range: invalid_parameters naming the parameter; the plugin is not called.
        let tooLong = busError { _ = try client.send("DefaultsIntent", parameters: ["minutes": 181]) { _ in nil } }
        #expect(tooLong?.code == .invalidParameters)
        #expect(tooLong?.details["parameter"] == "minutes")
        #expect(tooLong?.message.contains("5…180") == true)
        let tooShort = busError { _ = try client.send("DefaultsIntent", parameters: ["minutes": 4]) { _ in nil } }
        #expect(tooShort?.details["parameter"] == "minutes")
        let ratio = busError { _ = try client.send("DefaultsIntent", parameters: ["ratio": 1.5]) { _ in nil } }
        #expect(ratio?.details["parameter"] == "ratio")

        // The wrong type, and a parameter the intent doesn't declare.
        let wrongType = busError { _ = try client.send("DefaultsIntent", parameters: ["minutes": "lots"]) { _ in nil } }
        #expect(wrongType?.code == .invalidParameters)
        #expect(wrongType?.message.contains("expected an integer") == true)
        let unknown = busError { _ = try client.send("DefaultsIntent", parameters: ["minuets": 20]) { _ in nil } }
        #expect(unknown?.code == .invalidParameters)
        #expect(unknown?.details["parameter"] == "minuets")
    }

    @Test("a required parameter without a value is asked for first, with its dialog; a bad answer is refused")
    func requiredAskedFirst() throws {
        let host = try TestHost(TestManifest(.newStyle("ns")))
        defer { host.stop() }
        let client = try host.client()
        var prompts: [Prompt] = []
        let reply = try client.send("RequiredIntent", parameters: ["count": 3]) { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": "Ada"]
        }
        #expect(prompts.count == 1)
        #expect(prompts.first?.kind == "value")
        #expect(prompts.first?.parameter == "name")
        #expect(prompts.first?.dialog == "Who is it for?")
        #expect(prompts.first?.raw["type"] == "String")
        #expect(reply.body["snippet"]?["name"] == "Ada")
        #expect(reply.body["snippet"]?["count"] == 3)

        // Given: no question at all.
        var asked = false
        let direct = try client.send("RequiredIntent", parameters: ["name": "Grace"]) { _ in asked = true; return nil }
        #expect(!asked)
        #expect(direct.body["dialog"] == "For Grace, 1 times")

        // An answer of the wrong type ends the request with invalid_parameters.
        let e = busError {
            _ = try client.send("QuestionsIntent", parameters: [:]) { event in
                guard case .prompt(let p) = event else { return nil }
                #expect(p.parameter == "ask")
                let ids = p.options.compactMap { $0["id"]?.stringValue }
                #expect(ids.contains("needs_value"))
                return ["value": "shout"]
            }
        }
        #expect(e?.code == .invalidParameters)
        #expect(e?.details["parameter"] == "ask")
    }

    @Test("mid-perform questions: value, confirmation of a parameter and of the intent, disambiguation")
    func midPerformQuestions() throws {
        let host = try TestHost(TestManifest(.newStyle("ns")))
        defer { host.stop() }
        let client = try host.client()

        var seen: [Prompt] = []
        let value = try client.send("QuestionsIntent", parameters: ["ask": "value"]) { event in
            guard case .prompt(let p) = event else { return nil }
            seen.append(p)
            return ["value": 90]
        }
        #expect(seen.last?.kind == "value")
        #expect(seen.last?.parameter == "minutes")
        #expect(seen.last?.dialog == "How many minutes instead?")
        #expect(value.body["snippet"]?["minutes"] == 90)

        // The host checks the answer to the plugin's question against the parameter's range.
        let outOfRange = busError {
            _ = try client.send("QuestionsIntent", parameters: ["ask": "value"]) { _ in ["value": 999] }
        }
        #expect(outOfRange?.code == .invalidParameters)
        #expect(outOfRange?.details["parameter"] == "minutes")

        let confirmParam = try client.send("QuestionsIntent", parameters: ["ask": "confirm_parameter", "minutes": 120]) { event in
            guard case .prompt(let p) = event else { return nil }
            seen.append(p)
            return ["value": true]
        }
        #expect(seen.last?.kind == "confirmation")
        #expect(seen.last?.parameter == "minutes")
        #expect(seen.last?.raw["value"] == 120)
        #expect(seen.last?.dialog == "Really 120 minutes?")
        #expect(confirmParam.body["snippet"]?["confirmed"] == true)

        let confirmIntent = try client.send("QuestionsIntent", parameters: ["ask": "confirm_intent"]) { event in
            guard case .prompt(let p) = event else { return nil }
            seen.append(p)
            return ["value": false]
        }
        #expect(seen.last?.kind == "confirmation")
        #expect(seen.last?.parameter == nil)
        #expect(seen.last?.dialog == "Run the questions intent?")
        #expect(confirmIntent.body["snippet"]?["confirmed"] == false)

        let pick = try client.send("QuestionsIntent", parameters: ["ask": "disambiguation"]) { event in
            guard case .prompt(let p) = event else { return nil }
            seen.append(p)
            return ["value": "45"]
        }
        #expect(seen.last?.kind == "disambiguation")
        #expect(seen.last?.options.compactMap { $0["id"]?.stringValue } == ["15", "30", "45"])
        #expect(pick.body["snippet"]?["minutes"] == 45)

        // An answer that isn't one of the options is refused by the host.
        let notAnOption = busError {
            _ = try client.send("QuestionsIntent", parameters: ["ask": "disambiguation"]) { _ in ["value": "50"] }
        }
        #expect(notAnOption?.code == .invalidParameters)
        #expect(notAnOption?.message.contains("15, 30, 45") == true)
    }

    @Test("a needs-value error asks for the value and runs perform() again from the start")
    func needsValueRestart() throws {
        let host = try TestHost(TestManifest(.newStyle("ns")))
        defer { host.stop() }
        let client = try host.client()
        var prompts: [Prompt] = []
        let answers: [JSON] = [50, 150]  // the first answer still won't do: a second restart
        let reply = try client.send("QuestionsIntent", parameters: ["ask": "needs_value", "code": 7, "token": "nv1"]) { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": answers[min(prompts.count - 1, answers.count - 1)]]
        }
        #expect(prompts.count == 2)
        #expect(prompts.allSatisfy { $0.kind == "value" && $0.parameter == "code" })
        #expect(prompts.first?.dialog == "Give a code of at least 100.")
        #expect(prompts.first?.raw["reason"] == "needs_value")
        #expect(reply.body["snippet"]?["code"] == 150)
        // perform() ran three times: with 7, with 50, with 150.
        #expect(reply.body["snippet"]?["attempt"] == 3)
    }

    @Test("requiresAuthentication: refused without the credential, served with it")
    func authentication() throws {
        let host = try TestHost(TestManifest(.newStyle("ns"), host: .init(clientCredential: "s3cret")))
        defer { host.stop() }
        let client = try host.client()
        let refused = busError { _ = try client.send("SecretIntent") { _ in nil } }
        #expect(refused?.code == .authenticationRequired)
        #expect(refused?.message.contains("SecretIntent") == true)
        var options = RequestOptions()
        options.credential = "s3cret"
        let ok = try client.send("SecretIntent", options: options) { _ in nil }
        #expect(ok.body["dialog"] == "the secret is 42")
    }
}
