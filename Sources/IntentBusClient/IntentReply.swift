import Foundation
import IntentBusCore

/// A final REPLY.
public struct IntentReply: Sendable {
    /// `success` or `failure`, from the REPLY header.
    public let status: String
    /// The plugin that answered, when the header names it.
    public let plugin: String?
    public let header: JSON
    public let body: JSON
    /// The endpoint of the host that answered (with several hosts, the one that held the
    /// request last).
    public var host: String = ""
    /// How many times the request was sent again to another host after its host was lost
    /// (0: the first host answered).
    public var resent: Int = 0
    /// The results of the intents that opened this one, oldest first (RESULT messages,
    /// docs/results.md); empty when the request ran one intent.
    public var earlier: [IntentReply] = []

    public var succeeded: Bool { status == "success" }
}

/// A question from the host (PROMPT body), as a client sees it.
public struct Prompt: Sendable {
    public let kind: String
    public let parameter: String?
    public let dialog: String
    public let options: [JSON]
    /// The whole PROMPT body, for fields this type doesn't name.
    public let raw: JSON

    public init(_ body: JSON) {
        raw = body
        kind = body["kind"]?.stringValue ?? "value"
        parameter = body["parameter"]?.stringValue
        dialog = body["dialog"]?.stringValue ?? ""
        options = body["options"]?.arrayValue ?? []
    }
}

/// What a client is told before the final answer.
public enum ClientEvent: Sendable {
    case progress(JSON)
    case prompt(Prompt)
}
