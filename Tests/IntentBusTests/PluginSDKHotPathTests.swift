import Foundation
import Testing
@testable import IntentBus
@testable import IntentBusPlugin
@testable import IntentBusAppIntents

/// An intent with parameters between other stored properties, to check that the cached
/// parameter table finds exactly what `Mirror` finds.
private struct TableTestIntent: AppIntent {
    static let title: LocalizedStringResource = "Table test"
    let before = 42
    @Parameter(title: "Text") var text: String
    var note = "not a parameter"
    @Parameter(title: "Count", default: 3) var count: Int
    @Parameter(title: "Flag") var flag: Bool?

    func perform() async throws -> some IntentResult { .result(dialog: "\(text)") }
}

/// The benchmark-driven changes to the plugin SDK's hot path keep their behaviour
/// (docs/performance.md).
@Suite struct PluginSDKHotPathTests {
    @Test func parameterTableFindsWhatMirrorFinds() throws {
        let intent = TableTestIntent()
        let table = try #require(IntentParameterTable.of(TableTestIntent.self))
        let fast = table.parameters(of: intent)
        let slow = IntentReflection.parameters(of: intent)
        #expect(fast.map(\.0) == ["text", "count", "flag"])
        #expect(fast.map(\.0) == slow.map(\.0))
        // The same parameter objects: binding through the table binds the intent's own.
        for (a, b) in zip(fast, slow) { #expect(a.1 === b.1) }
        // A second lookup is the cached table.
        #expect(IntentParameterTable.of(TableTestIntent.self)?.fields.map(\.offset) == table.fields.map(\.offset))
    }

    @Test func jsonStringsWithAndWithoutEscapesAreCanonical() throws {
        let cases: [(JSON, String)] = [
            (.string("plain ascii"), #""plain ascii""#),
            (.string("Grüße, 東京 🚀"), "\"Grüße, 東京 🚀\""),
            (.string("quote \" backslash \\ slash /"), #""quote \" backslash \\ slash /""#),
            (.string("line\nfeed\ttab\u{01}"), #""line\nfeed\ttab\u0001""#),
            (["k\"ey": "v", "a": ["x", 1]], #"{"a":["x",1],"k\"ey":"v"}"#),
        ]
        for (value, text) in cases {
            #expect(value.canonicalString == text)
            #expect(try JSON.parse(text) == value)
        }
    }

    @Test func receiveIntoReusesFramesButNeverOneThatIsStillHeld() throws {
        let context = ZMQContext()
        let endpoint = "inproc://sdk-receive-into-\(UUID().uuidString)"
        let pull = try ZMQSocket(context, .pull)
        try pull.bind(endpoint)
        let push = try ZMQSocket(context, .push)
        try push.connect(endpoint)
        try pull.setReceiveTimeout(milliseconds: 5_000)

        var frames: [Frame] = []
        #expect(try pull.receive(into: &frames, dontWait: true) == false)
        #expect(frames.isEmpty)
        try push.send([Frame("a"), Frame("bb"), Frame("ccc")])
        #expect(try pull.receive(into: &frames))
        #expect(frames.map(\.string) == ["a", "bb", "ccc"])
        let first = frames[0]
        let kept = frames[1]  // someone still holds this one
        try push.send([Frame("x"), Frame("y")])
        #expect(try pull.receive(into: &frames))
        #expect(frames.map(\.string) == ["x", "y"])
        #expect(kept.string == "bb")
        #expect(frames[1] !== kept)
        #expect(frames[0] !== first)
        // A weak reference does not count: the frame is reused, so it stays alive.
        weak var reused = frames[0]
        try push.send([Frame("again")])
        #expect(try pull.receive(into: &frames))
        #expect(frames.count == 1 && frames[0].string == "again")
        #expect(reused != nil && frames[0] === reused)
    }

    @Test("a REQUEST header with the bytes of the last one is its value; any other is parsed")
    func requestHeaderCache() throws {
        let state = PluginLoopState(rawHandlers: [:], syncHandlers: [:], asyncHandlers: [:], pluginId: "p")
        #expect(try state.requestHeader(Frame("{\"style\":\"new\"}")) == ["style": "new"])
        let serial = state.lastHeaderSerial
        #expect(try state.requestHeader(Frame("{\"style\":\"new\"}")) == ["style": "new"])
        #expect(serial != 0 && state.lastHeaderSerial == serial, "the same header keeps its serial")
        // Same length, other bytes: not the kept value.
        #expect(try state.requestHeader(Frame("{\"style\":\"old\"}")) == ["style": "old"])
        #expect(state.lastHeaderSerial != 0 && state.lastHeaderSerial != serial, "another header, another serial")
        #expect(try state.requestHeader(Frame()) == .object([:]))
        #expect(try state.requestHeader(Frame("{\"locale\":\"de-DE\"}")) == ["locale": "de-DE"])
        // Broken JSON still throws, and leaves the kept value as it was.
        #expect(throws: JSONParseError.self) { try state.requestHeader(Frame("{\"locale\":")) }
        #expect(try state.requestHeader(Frame("{\"locale\":\"de-DE\"}")) == ["locale": "de-DE"])
        // A header over the limit is parsed each time and not kept.
        let long = "{\"pad\":\"" + String(repeating: "x", count: PluginLoopState.cachedHeaderLimit) + "\"}"
        #expect(try state.requestHeader(Frame(long))["pad"]?.stringValue?.count == PluginLoopState.cachedHeaderLimit)
        #expect(state.lastHeaderSerial == 0, "a header not kept has no serial")
        #expect(try state.requestHeader(Frame("{\"locale\":\"fr\"}")) == ["locale": "fr"])
    }

    @Test("the immediate conversion of scalar parameter values gives what the async one gives, errors included")
    func immediateValuesMatchTheAsyncConversion() async throws {
        func same<V: IntentValue & Equatable>(_ type: V.Type, _ json: JSON) async {
            let now = Result { try V.immediateIntentValue(from: json, parameter: "p") }
            var later: Result<V, any Error>
            do { later = .success(try await V.intentValue(from: json, parameter: "p", context: nil)) } catch { later = .failure(error) }
            switch (now, later) {
            case (.success(let a?), .success(let b)): #expect(a == b, "\(V.self) \(json.canonicalString)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(V.self) \(json.canonicalString)")
            default: Issue.record("\(V.self) \(json.canonicalString): immediate \(now), async \(later)")
            }
        }
        let inputs: [JSON] = ["text", 7, 2.5, true, .null, ["a": 1], [1], "2026-12-04", "https://example.org/x", "12"]
        for json in inputs {
            await same(String.self, json)
            await same(Int.self, json)
            await same(Double.self, json)
            await same(Bool.self, json)
            await same(String?.self, json)
            await same(Int?.self, json)
            await same(Date.self, json)
            await same(URL.self, json)
        }
        // A type without an immediate conversion (entities, enums, lists) says so.
        #expect(try [String].immediateIntentValue(from: ["a"], parameter: "p") == nil)
    }

    @Test("a result's canonical body, written member by member, is the bytes its JSON gives, for every mix of parts")
    func resultBodyIsItsJSONsCanonicalText() throws {
        let dialogs: [IntentDialog?] = [nil, "Done: \"quoted\" ü \u{1F600}", IntentDialog(full: "Full", supporting: "Short"),
                                        IntentDialog(full: "Full", systemImageName: "checkmark")]
        let values: [JSON?] = [nil, .null, 42, "text\n", ["b": 1, "a": [true, 2.5]]]
        let snippets: [JSON?] = [nil, ["z": "last", "a": "first"]]
        let views: [SnippetView?] = [nil, SnippetView(title: "Rows", rows: [.init("one", subtitle: "1")])]
        let opened: [OpenedIntent?] = [nil, OpenedIntent(TableTestIntent())]
        var checked = 0
        for dialog in dialogs { for value in values { for snippet in snippets { for view in views { for opens in opened {
            let parts = IntentResultParts(value: value, opens: opens, dialog: dialog, view: view, snippet: snippet)
            for continueInApp in [false, true] {
                // The body as an object, each part where docs/results.md puts it.
                var o: [String: JSON] = [:]
                if let dialog {
                    o["dialog"] = .string(dialog.text)
                    if let supporting = dialog.supporting { o["supporting_dialog"] = .string(supporting.resolved()) }
                    if let image = dialog.systemImageName { o["dialog_image"] = .string(image) }
                }
                if let value, !value.isNull { o["value"] = value }
                if let snippet { o["snippet"] = snippet }
                if let opens { o["opens_intent"] = opens.json }
                if let view { o["view"] = view.json }
                if continueInApp { o["continue_in_app"] = true }
                let expected = JSON.object(o)
                let written = parts.canonicalBody(continueInApp: continueInApp)
                #expect(written == expected.canonicalBytes, "\(String(decoding: written, as: UTF8.self))")
                // And the reply made of them reads back as that JSON.
                #expect(PluginReply(status: .success, canonicalBody: written).body == expected)
                checked += 1
            }
        } } } } }
        #expect(checked == 4 * 5 * 2 * 2 * 2 * 2)
    }
}
