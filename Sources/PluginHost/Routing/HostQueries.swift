import Foundation
import IntentBusCore
import IntentBusWire

/// Requests the host sends a plugin on its own behalf, for an extension (the shortcuts
/// extension's entity lists, docs/sentences.md): no client, no exchange. The plugin sees an
/// ordinary REQUEST whose id starts with `h-` (exchange ids are base 36, without `-`),
/// answers it like any other, and the answer goes to the extensions' `finished(id:result:)`.
///
/// This table owns the open queries and reads their answers; the core sends the REQUEST
/// and a CANCEL, and tells the extensions (Routing/RouterCore+HostQueries.swift).
struct HostQueries {
    /// At most this many open at once: a plugin that never answers can't grow the table.
    static let maximum = 256

    /// Wire id (`h-ID`) → the extension's id.
    private var open: [String: UInt64] = [:]

    var isEmpty: Bool { open.isEmpty }
    var count: Int { open.count }

    /// The extension's id of the open query with this wire id.
    subscript(wireId: String) -> UInt64? { open[wireId] }

    /// Opens query `id`: its wire id, or nil when `maximum` are open.
    mutating func open(id: UInt64) -> String? {
        guard open.count < Self.maximum else { return nil }
        let wireId = "h-\(id)"
        open[wireId] = id
        return wireId
    }

    /// Forgets a query the extension gave up on (no answer in time): a late answer is then
    /// dropped like any stray one, and the table can't fill with dead queries.
    mutating func forget(id: UInt64) {
        open.removeValue(forKey: "h-\(id)")
    }

    /// What the plugin's answer to an open query means: the result for the extension, and
    /// whether the plugin must be told CANCEL (it asked a question, which the host's own
    /// query can't answer). Nil for PROGRESS (or anything else), which changes nothing.
    mutating func answered(_ msg: WireMessage, pluginId: String) -> (id: UInt64, result: Result<JSON, BusError>, cancel: Bool)? {
        guard let id = open[msg.requestId] else { return nil }
        let result: Result<JSON, BusError>
        switch msg.kind {
        case .reply:
            do { result = .success(try msg.bodyJSON()) } catch {
                result = .failure(BusError(.pluginError, "plugin \(pluginId) answered with a body that is not JSON: \(error.message)"))
            }
        case .error:
            let body = (try? msg.bodyJSON()) ?? .object([:])
            result = .failure(BusError(.pluginError, body["message"]?.stringValue ?? "plugin \(pluginId) failed the host's query"))
        case .prompt:
            result = .failure(BusError(.pluginError, "plugin \(pluginId) asked a question in reply to the host's query"))
        default:
            return nil
        }
        open.removeValue(forKey: msg.requestId)
        return (id, result, msg.kind == .prompt)
    }
}
