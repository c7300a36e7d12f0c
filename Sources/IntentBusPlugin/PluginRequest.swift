import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// A request as a plugin handler sees it.
public struct PluginRequest: Sendable {
    /// The host's request id. Use it in everything sent about this request.
    public let id: String
    public let intent: String
    /// The delivery header (`phase`, `client`, `style`, …).
    public let header: JSON
    /// The parameters (the request body).
    public let parameters: JSON
    /// Nonzero when the loop kept `header` by its bytes: every request with this serial
    /// carries this same header value (`PluginLoopState.lastHeaderSerial`), so what a layer
    /// derives from it may be kept by the serial (the legacy layer's `LegacyHeaderWords`).
    package private(set) var headerSerial: UInt64 = 0

    public init(id: String, intent: String, header: JSON, parameters: JSON) {
        self.id = id
        self.intent = intent
        self.header = header
        self.parameters = parameters
    }

    /// A request whose header the loop kept, with its serial.
    package init(id: String, intent: String, header: JSON, parameters: JSON, headerSerial: UInt64) {
        self.init(id: id, intent: intent, header: header, parameters: parameters)
        self.headerSerial = headerSerial
    }

    /// The legacy phase (`resolve`, `confirm`, `handle`), if any.
    public var phase: String? { header["phase"]?.stringValue }
    /// The client identity the client gave, if any.
    public var client: String? { header["client"]?.stringValue }
}

/// A handler's final answer: a REPLY with a status, or an ERROR.
public struct PluginReply: Sendable {
    public enum Status: String, Sendable { case success, failure }

    public var status: Status
    /// The body. A reply made from its canonical text (`init(status:canonicalBody:header:)`)
    /// parses it when this is read; the SDK sends that text as it is.
    public var body: JSON {
        get { canonicalBody.map { bytes in bytes.withUnsafeBytes { (try? JSON.parse(bytes: $0)) ?? .null } } ?? storedBody }
        set { storedBody = newValue; canonicalBody = nil }
    }
    private var storedBody: JSON
    /// The body's canonical text, when the handler's layer wrote it itself (App Intents'
    /// result: docs/performance.md): no `JSON` tree is built for it, nor written again.
    package private(set) var canonicalBody: [UInt8]?
    /// Extra header fields beside `status` and `plugin`.
    public var header: [String: JSON]

    public init(status: Status, body: JSON, header: [String: JSON] = [:]) {
        self.status = status
        storedBody = body
        canonicalBody = nil
        self.header = header
    }

    /// A reply whose body is `canonicalBody`, the canonical text of a JSON object
    /// (`JSON.canonicalBytes`' bytes; the caller vouches for that).
    package init(status: Status, canonicalBody: [UInt8], header: [String: JSON] = [:]) {
        self.status = status
        storedBody = .null
        self.canonicalBody = canonicalBody
        self.header = header
    }

    /// The body's canonical text.
    var bodyBytes: [UInt8] { canonicalBody ?? storedBody.canonicalBytes }

    public static func success(_ body: JSON = .object([:])) -> PluginReply { PluginReply(status: .success, body: body) }

    /// The REPLY header the SDK sends: the handler's fields, then `status` and `plugin`,
    /// which a handler cannot override.
    static func header(status: Status, pluginId: String, extra: [String: JSON] = [:]) -> JSON {
        var h = extra
        h[.status] = .string(status.rawValue)
        h[.plugin] = .string(pluginId)
        return .object(h)
    }
    public static func failure(_ body: JSON = .object([:])) -> PluginReply { PluginReply(status: .failure, body: body) }
}

/// Thrown out of `PluginContext.prompt` when the request was cancelled or timed out
/// while waiting for the user.
public struct RequestCancelled: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { "request cancelled: \(reason)" }
}
