import Testing
import IntentBusCore

/// HELLO's `intents`, read by the host, `intentbus validate` and `describe` through one
/// function and written by the SDK through another (docs/protocol.md §5.1).
@Suite("HELLO intents")
struct HelloIntentsTests {
    @Test("what the SDK writes reads back as the same styles; a bare name and a missing style are plain")
    func roundTrip() throws {
        let written: JSON = .array([HelloIntents.entry("Status", .legacy), HelloIntents.entry("Focus", .new),
                                    "Echo", ["name": "Ping"]])
        #expect(written.arrayValue?.first == ["name": "Status", "style": "legacy"])
        let styles = try HelloIntents.styles(written)
        #expect(styles == ["Status": .legacy, "Focus": .new, "Echo": .plain, "Ping": .plain])
    }

    @Test("an unknown style is refused with the intent and the styles there are")
    func unknownStyle() {
        #expect(throws: HelloIntentsError(intent: "Status", style: "siri")) {
            try HelloIntents.styles(.array([["name": "Status", "style": "siri"]]))
        }
        #expect(HelloIntentsError(intent: "Status", style: "siri").description
            == "intent Status has unknown style \"siri\" (plain, legacy or new)")
    }

    @Test("entries that name nothing declare nothing; no intents at all is an empty table")
    func malformedEntries() throws {
        #expect(try HelloIntents.styles(.array([42, ["style": "legacy"], ["name": 7], .null])).isEmpty)
        #expect(try HelloIntents.styles(nil).isEmpty)
        #expect(try HelloIntents.styles(["name": "Status"]).isEmpty)
    }

    @Test("legacy phases: what the SDK announces reads back; unknown words are skipped; no phases, none (the phased flow)")
    func phases() throws {
        let written: JSON = .array([HelloIntents.entry("Status", .legacy, phases: LegacyPhase.served),
                                    HelloIntents.entry("Old", .legacy),
                                    ["name": "Newer", "style": "legacy", "phases": ["run", "teleport", 7]],
                                    ["name": "Odd", "style": "legacy", "phases": "run"]])
        #expect(written.arrayValue?[1] == ["name": "Old", "style": "legacy"])
        let phases = HelloIntents.phases(written)
        #expect(phases["Status"] == Set(LegacyPhase.allCases))
        #expect(phases["Status"]?.contains(.run) == true)
        #expect(phases["Old"] == nil)
        #expect(phases["Newer"] == [.run])
        #expect(phases["Odd"] == nil)
        #expect(try HelloIntents.styles(written)["Status"] == .legacy, "phases do not change how styles read")
    }
}
