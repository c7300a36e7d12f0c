import Foundation
import IntentBusCore
import IntentBusPlugin

/// A `run` REPLY body (docs/protocol.md §8.9): `resolutions`, and `confirm` and `handle` as
/// far as the run got. `canonicalBody` writes it member by member in canonical key order,
/// the bytes `canonicalBytes` gives for that object, with no dictionary built and sorted for
/// the reply, its resolutions or its `handle` (LegacyRunReplyUnitTests compares the two).
struct LegacyRunReply {
    var resolutions: [String: ResolutionResult]
    var confirm: JSON? = nil
    var handle: LegacyHandled? = nil

    /// The REPLY that carries it, its body already written.
    var pluginReply: PluginReply { PluginReply(status: .success, canonicalBody: canonicalBody) }

    var canonicalBody: [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw(UInt8(ascii: "{"))
        if let confirm { w.key("confirm"); w.write(confirm); w.raw(UInt8(ascii: ",")) }
        if let handle { w.key("handle"); handle.write(to: &w); w.raw(UInt8(ascii: ",")) }
        w.key("resolutions")
        w.raw(UInt8(ascii: "{"))
        // By the names' UTF-8 bytes, as `JSONWriter.write` sorts keys.
        let names = resolutions.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for (i, name) in names.enumerated() {
            if i > 0 { w.raw(UInt8(ascii: ",")) }
            w.writeString(name)
            w.raw(UInt8(ascii: ":"))
            resolutions[name]!.write(to: &w)
        }
        w.raw(UInt8(ascii: "}"))
        w.raw(UInt8(ascii: "}"))
        return w.bytes
    }
}

/// A handle (or confirm failure) answer: its response code, the response's parameters and
/// the intent it opens.
struct LegacyHandled {
    let code: String
    let response: [String: JSON]
    let opens: JSON?

    var json: JSON {
        var body: [String: JSON] = ["code": .string(code), "response": .object(response)]
        if let opens { body["opens_intent"] = opens }
        return .object(body)
    }

    func write(to w: inout JSONWriter) {
        w.raw(UInt8(ascii: "{"))
        w.key("code")
        w.writeString(code)
        if let opens { w.raw(UInt8(ascii: ",")); w.key("opens_intent"); w.write(opens) }
        w.raw(UInt8(ascii: ","))
        w.key("response")
        w.write(.object(response))
        w.raw(UInt8(ascii: "}"))
    }
}

extension ResolutionResult {
    /// `json`, written: the common answers (a value settled, nothing needed) member by
    /// member, the others through their `JSON`.
    func write(to w: inout JSONWriter) {
        switch self {
        case .success(let value):
            w.raw(UInt8(ascii: "{"))
            w.key("result")
            w.write(ResolutionKind.success.json)
            w.raw(UInt8(ascii: ","))
            w.key("value")
            w.write(value)
            w.raw(UInt8(ascii: "}"))
        default:
            w.write(json)
        }
    }
}
