import Foundation
import IntentBusCore
import IntentBusPlugin

/// A `run` REPLY body (docs/protocol.md §8.9): `resolutions`, and `confirm` and `handle` as
/// far as the run got. `canonicalBody` writes it member by member in canonical key order,
/// the bytes `canonicalBytes` gives for that object, with no dictionary built and sorted for
/// the reply, its resolutions or its `handle`, and its constant parts (keys, punctuation,
/// the two confirm answers that go on) each copied in one piece (LegacyRunReplyUnitTests
/// compares the two).
struct LegacyRunReply {
    var resolutions: [String: ResolutionResult]
    var confirm: LegacyConfirmBody? = nil
    var handle: LegacyHandled? = nil

    /// The REPLY that carries it, its body already written.
    var pluginReply: PluginReply { PluginReply(status: .success, canonicalBody: canonicalBody) }

    var canonicalBody: [UInt8] {
        var w = JSONWriter(capacity: 256)
        if let confirm { w.text(#"{"confirm":"#); confirm.write(to: &w) }
        if let handle { w.text(confirm == nil ? #"{"handle":"# : #","handle":"#); handle.write(to: &w) }
        w.text(confirm == nil && handle == nil ? #"{"resolutions":{"# : #","resolutions":{"#)
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
        w.text(#"{"code":"#)
        w.writeString(code)
        if let opens { w.text(#","opens_intent":"#); w.write(opens) }
        w.text(#","response":"#)
        w.write(.object(response))
        w.raw(UInt8(ascii: "}"))
    }
}

/// confirm's answer in a `run` REPLY (or the confirm phase's body, `json`): the two answers
/// that go on to handle, which are constants, or what the handler answered.
enum LegacyConfirmBody {
    /// The handler has no confirm step.
    case notImplemented
    /// `ConfirmOutcome.ready`.
    case ready
    /// A response the handler confirmed with (`ConfirmOutcome.failure`).
    case answered(JSON)

    var json: JSON {
        switch self {
        case .notImplemented: ["implemented": false]
        case .ready: ["code": "ready"]
        case .answered(let body): body
        }
    }

    /// `json`'s canonical text.
    func write(to w: inout JSONWriter) {
        switch self {
        case .notImplemented: w.text(#"{"implemented":false}"#)
        case .ready: w.text(#"{"code":"ready"}"#)
        case .answered(let body): w.write(body)
        }
    }
}

extension ResolutionResult {
    /// `json`, written: the common answers (a value settled, nothing needed) member by
    /// member, the others through their `JSON`.
    func write(to w: inout JSONWriter) {
        switch self {
        case .success(let value):
            w.text(#"{"result":"success","value":"#)
            w.write(value)
            w.raw(UInt8(ascii: "}"))
        default:
            w.write(json)
        }
    }
}
