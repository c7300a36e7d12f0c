import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// What an App Intents plugin tells a client about presenting an intent, through a real
/// host and the NewStyleTest plugin (Tests/Plugins/NewStyleTest/PresentationIntents.swift):
/// `parameterSummary` (with `When`) in HELLO, filled in the host's questions and shown by
/// `describe`; `controlStyle` and `inputOptions` in the metadata and in value PROMPTs;
/// IntentDialog's supporting text and image in the REPLY; `isDiscoverable`; entity images.
@Suite("App Intents presentation end to end", .serialized)
struct AppIntentsPresentationTests {
    static let intents = ["PlanSessionIntent", "ContactIntent", "ReadBookIntent"]
    static let env = ["NEWSTYLE_PRESENTATION": "1", "NEWSTYLE_APPINTENTS": "1"]

    @Test("the host's question carries the summary with the values so far, the When branch the values pick, and the control style")
    func summaryInPrompts() throws {
        let host = try TestHost(TestManifest(.newStyle("present", intents: Self.intents, env: Self.env)), waitReady: ["present"])
        defer { host.stop() }
        let client = try host.client()
        var prompts: [Prompt] = []
        let labelled = try client.send("PlanSessionIntent", parameters: ["label": "Website"]) { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": 30]
        }
        #expect(prompts.count == 1)
        #expect(prompts.first?.parameter == "minutes")
        #expect(prompts.first?.raw["summary"] == "Plane [Dauer] Minuten für Website", "\(String(describing: prompts.first?.raw))")
        #expect(prompts.first?.raw["control_style"] == "slider")
        #expect(labelled.body["dialog"] == "Geplant: 30 Minuten für Website.")
        #expect(labelled.body["supporting_dialog"] == "Geplant.")
        #expect(labelled.body["dialog_image"] == "calendar")

        prompts = []
        _ = try client.send("PlanSessionIntent", parameters: [:]) { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": 45]
        }
        #expect(prompts.first?.raw["summary"] == "Plane [Dauer] Minuten", "no label: the otherwise branch")
        // The range still holds for the answer to a question that carries a summary.
        let out = busError {
            _ = try client.send("PlanSessionIntent", parameters: [:]) { event in
                guard case .prompt = event else { return nil }
                return ["value": 500]
            }
        }
        #expect(out?.code == .invalidParameters)
    }

    @Test("input options go in the host's question and in the plugin's own requestValue; an equalTo branch picks by value")
    func inputOptions() throws {
        let host = try TestHost(TestManifest(.newStyle("present", intents: Self.intents, env: Self.env)), waitReady: ["present"])
        defer { host.stop() }
        let client = try host.client()
        var prompts: [Prompt] = []
        let reply = try client.send("ContactIntent", parameters: ["channel": "mail"]) { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": .string(prompts.count == 1 ? "ada@example.org" : "grace@example.org")]
        }
        #expect(prompts.count == 2)
        let expected: JSON = ["keyboard_type": "email_address", "capitalization": "none", "multiline": false,
                              "autocorrect": false, "smart_quotes": true, "smart_dashes": true]
        #expect(prompts.first?.raw["input_options"] == expected, "the host's question")
        #expect(prompts.first?.raw["summary"] == "Schreibe an [E-Mail]", "channel == mail")
        #expect(prompts.last?.dialog == "Und eine Kopie an?")
        #expect(prompts.last?.raw["input_options"] == expected, "the plugin's requestValue")
        #expect(reply.body["dialog"] == "An ada@example.org, Kopie an grace@example.org")

        prompts = []
        _ = try client.send("ContactIntent", parameters: ["channel": "Brief", "address": "x"]) { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": "y"]
        }
        #expect(prompts.first?.raw["summary"] == nil, "the plugin's own question has no summary")

        // An entity's image goes with it.
        let all = try client.control("ib.entities", ["entity": "BookEntity", "query": "all"])
        #expect(all["results"]?.arrayValue?.first?["image"] == ["system_name": "book"])
    }

    @Test("describe shows the summary's sentences, control style, input options and that an intent is not discoverable")
    func describe() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = dir.write("plugins.yaml", TestManifest(.newStyle("present", intents: Self.intents, env: Self.env)).yaml)
        let text = runCommand(Products.path("intentbus"), ["describe", "PlanSessionIntent", "--config", manifest])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("summary: “Plane ${minutes} Minuten für ${label}”"), "\(text.stdout)")
        #expect(text.stdout.contains("summary: “Plane ${minutes} Minuten”"), "\(text.stdout)")
        #expect(text.stdout.contains("not discoverable"), "\(text.stdout)")
        let json = runCommand(Products.path("intentbus"), ["describe", "PlanSessionIntent", "--config", manifest, "--json"])
        let handler = (try JSON.parse(Data(json.stdout.utf8)))["handlers"]?.arrayValue?.first
        #expect(handler?["discoverable"] == false)
        #expect(handler?["summary"]?["when"] == ["parameter": "label", "comparison": "has_any_value"])
        #expect(handler?["summary"]?["then"]?["parameters"] == ["note"])
        let parameters = handler?["parameters"]?.arrayValue ?? []
        #expect(parameters.first { $0["name"] == "minutes" }?["control_style"] == "slider")
        #expect(parameters.first { $0["name"] == "note" }?["input_options"]?["multiline"] == true)
        let contact = runCommand(Products.path("intentbus"), ["describe", "ContactIntent", "--config", manifest])
        #expect(!contact.stdout.contains("not discoverable"), "discoverable unless declared: \(contact.stdout)")
    }

    @Test("a summary that names no parameter and a control style on text fail validate and the handshake")
    func brokenDeclarations() throws {
        let messages = [
            "PlanSessionIntent: parameter summary names ${stunden}, which is not a parameter of PlanSessionIntent (it has: minutes, label, note)",
            "PlanSessionIntent: parameter summary lists notiz, which is not a parameter",
            "PlanSessionIntent.label: control_style is for integer and decimal parameters, not",
        ]
        let env = Self.env.merging(["NEWSTYLE_BROKEN": "summary"]) { $1 }
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = dir.write("plugins.yaml", TestManifest(.newStyle("broken", intents: Self.intents, env: env)).yaml)
        let result = runCommand(Products.path("intentbus"), ["validate", "--config", manifest, "broken"])
        #expect(result.status == 1, "\(result.stdout)")
        for message in messages { #expect(result.stderr.contains(message), "\(result.stderr)") }

        let host = try TestHost(TestManifest(.newStyle("broken", intents: Self.intents, env: env)))
        defer { host.stop() }
        let reason = try host.waitForPlugin("broken", state: "failed")["reason"]?.stringValue ?? ""
        #expect(reason.hasPrefix("handshake rejected: "), "\(reason)")
        for message in messages { #expect(reason.contains(message), "\(reason)") }
    }
}
