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

    public init(id: String, intent: String, header: JSON, parameters: JSON) {
        self.id = id
        self.intent = intent
        self.header = header
        self.parameters = parameters
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
    public var body: JSON
    /// Extra header fields beside `status` and `plugin`.
    public var header: [String: JSON]

    public init(status: Status, body: JSON, header: [String: JSON] = [:]) {
        self.status = status
        self.body = body
        self.header = header
    }

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
