import Foundation
import Testing
import IntentBus
@testable import PluginHost

/// The new-style flow moves bodies on when its checks change nothing (docs/performance.md,
/// "perform() again"): the client's request body goes to the plugin as the frame it
/// came in, the plugin's REPLY to the client as the message it sent. Anything the host
/// changes (a coerced value, a default, a dropped null, a missing status, a migration
/// note) is written again, as before.
@Suite("New-style flow: unchanged bodies move on unparsed and unwritten")
struct NewStyleForwardingTests {
    /// What the flow asks of the router, recorded.
    final class Operations: FlowOperations {
        var requests: [(header: JSON?, body: Frame, forwarded: Bool)] = []
        var finals: [WireMessage] = []
        var errors: [BusError] = []
        var prompts: [JSON] = []
        let spec: PluginSpec
        let logger = Logger(label: "flow", minimumLevel: .error) { _ in }

        init(spec: PluginSpec) { self.spec = spec }

        func sendToPlugin(_ exchange: Exchange, kind: MessageKind, header: JSON?, body: JSON?) {
            requests.append((header, Frame(json: body ?? .object([:])), false))
        }
        func sendToPlugin(_ exchange: Exchange, kind: MessageKind, header: JSON?, forwarding body: Frame) {
            requests.append((header, body, true))
        }
        func promptClient(_ exchange: Exchange, prompt: JSON) { prompts.append(prompt) }
        func progressToClient(_ exchange: Exchange, body: JSON) {}
        func finish(_ exchange: Exchange, header: JSON, body: JSON) {
            finals.append(WireMessage(kind: .reply, header: header, body: body))
        }
        func finish(_ exchange: Exchange, forwarding message: WireMessage) { finals.append(message) }
        func fail(_ exchange: Exchange, _ error: BusError) { errors.append(error) }
        func pluginSpec(of exchange: Exchange) -> PluginSpec { spec }
    }

    static let manifest = """
        host:
          state_dir: /nonexistent/forwarding/state
        plugins:
          - id: notes
            exec: /bin/true
            IntentsSupported: [NoteIntent]
        """

    let operations: Operations
    let flow: NewStyleFlow
    let exchange: Exchange

    init() throws {
        let manifest = try ManifestLoader.load(text: Self.manifest, path: "/nonexistent/forwarding/plugins.yaml")
        operations = Operations(spec: manifest.plugins[0])
        let intent = NewStyleIntent(identifier: "NoteIntent", title: "Note", parameters: [
            NewStyleParameter(name: "text", title: "Text", type: .string),
            NewStyleParameter(name: "count", title: "Count", type: .integer, optional: true),
            NewStyleParameter(name: "minutes", title: "Minutes", type: .integer, defaultValue: 30),
        ])
        flow = NewStyleFlow(intent: intent, catalog: NewStyleCatalog(), migratedFrom: nil,
                            access: AuthenticationPolicy.Access(host: manifest.host, clientKeysRequired: false))
        exchange = Exchange(hostId: 1, client: RoutingEnvelope(identity: Data("c".utf8), isRequestReply: false),
                            clientState: ClientState(identity: Data("c".utf8)), clientRequestId: "r1", intent: "NoteIntent",
                            pluginIndex: 0, timeout: 1_000_000_000, options: ["client": "kim"], stage: .delivered)
    }

    private func bytes(_ frame: Frame) -> String { String(decoding: frame.data, as: UTF8.self) }

    @Test("a body whose every value checks to itself is the frame the client sent")
    func unchangedRequest() throws {
        let text = #"{ "minutes" : 5, "text":"buy tea",  "count": 2 }"#
        let body = Frame(text)
        flow.start(exchange, body: body, operations)
        #expect(operations.errors.isEmpty)
        let sent = try #require(operations.requests.first)
        #expect(sent.forwarded)
        #expect(sent.body === body, "the received frame itself, not a copy")
        #expect(bytes(sent.body) == text, "not parsed into a dictionary and written again")
        #expect(sent.header?["style"] == "new" && sent.header?["client"] == "kim")
    }

    @Test("a coerced value, a default and a dropped null are written again",
          arguments: [#"{"text": "a", "count": "7", "minutes": 1}"#, #"{"text": "a"}"#, #"{"text": "a", "count": null, "minutes": 1}"#])
    func changedRequest(_ text: String) throws {
        flow.start(exchange, body: Frame(text), operations)
        let sent = try #require(operations.requests.first)
        #expect(!sent.forwarded)
        let parameters = try sent.body.parseJSON()
        let minutes: JSON = text.contains("minutes") ? 1 : 30
        let count: JSON? = text.contains("\"7\"") ? 7 : nil
        #expect(parameters["text"] == "a")
        #expect(parameters["minutes"] == minutes)
        #expect(parameters["count"] == count, "a string 7 is the integer 7; null is left out")
    }

    @Test("a missing required value is asked for; the answer's body is written, not the client's first one")
    func askedRequest() throws {
        flow.start(exchange, body: Frame(#"{"minutes": 2}"#), operations)
        #expect(operations.requests.isEmpty)
        #expect(operations.prompts.first?["parameter"] == "text")
        flow.clientAnswer(WireMessage(kind: .answer, header: nil, body: ["value": "later"]), exchange, operations)
        let sent = try #require(operations.requests.first)
        #expect(!sent.forwarded)
        #expect(try sent.body.parseJSON() == ["text": "later", "minutes": 2])
    }

    @Test("the plugin's REPLY with a status goes on as it came; one without gets the status, its body still unread")
    func reply() throws {
        flow.start(exchange, body: Frame(#"{"text": "a"}"#), operations)
        let result = #"{"dialog": "Noted.",  "value": {"id": 3}}"#
        let reply = WireMessage(kind: .reply, requestId: "h1", intent: "NoteIntent",
                                header: Frame(#"{"status": "success", "locale": "de"}"#), body: Frame(result))
        flow.pluginMessage(reply, exchange, operations)
        let final = try #require(operations.finals.first)
        #expect(final === reply)
        #expect(bytes(final.body) == result && bytes(final.header) == #"{"status": "success", "locale": "de"}"#)

        let bare = WireMessage(kind: .reply, requestId: "h1", intent: "NoteIntent", header: Frame(), body: Frame(result))
        flow.pluginMessage(bare, exchange, operations)
        let second = try #require(operations.finals.last)
        #expect(try second.headerJSON() == ["status": "success"])
        #expect(bytes(second.body) == result)
    }

    @Test("a REPLY body is read for a view or an opened intent only when its bytes may hold one")
    func leadOnScan() {
        #expect(LeadOn.mayLeadOn(Frame(#"{"view": {"kind": "text"}}"#)))
        #expect(LeadOn.mayLeadOn(Frame(#"{"opens_intent": {"intent": "X"}}"#)))
        #expect(LeadOn.mayLeadOn(Frame(#"{"\u0076iew": 1}"#)), "an escape may spell the key")
        #expect(!LeadOn.mayLeadOn(Frame(#"{"dialog": "Noted.", "value": 3}"#)))
        #expect(!LeadOn.mayLeadOn(Frame(#"{"dialog": "a view that opens_intent"}"#)), "the words inside a text are no key")
        #expect(LeadOn.mayLeadOn(Frame(#"{"a": {"b": "x", "view": 1}}"#)), "nested: read (the flow decides)")
        #expect(LeadOn.mayLeadOn(Frame(#"{"dialog": "opens_intent"}"#)), "a text that is a key's spelling: read")
        #expect(!LeadOn.mayLeadOn(Frame()))
    }
}
