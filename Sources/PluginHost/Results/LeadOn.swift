import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Results that lead on (docs/results.md), decided as a value: a new-style result with
/// `opens_intent` (App Intents' `OpensIntent`) or a legacy `continueInApp` response naming
/// an intent ends its exchange with a non-final `RESULT`, and the host starts the opened
/// intent as an ordinary request under the client's request id, like `ib.say` hands a
/// request on. This type reads the result and says which; the core carries it out
/// (Results/RouterCore+LeadOn.swift): it fails the exchange, or completes it with the
/// RESULT and starts the opened request.
struct LeadOn {
    /// The exchange whose result is read, as far as leading on needs it.
    let intent: String
    let pluginId: String
    /// The client's header (`Exchange.options`).
    let options: JSON
    /// The intents that led to this exchange (`Exchange.openedBy`).
    let openedBy: [JSON]
    /// Whether the answering plugin claims `intent` too (it then serves the opened one).
    let pluginClaims: (String) -> Bool

    enum Outcome {
        /// An ordinary result: the flow finishes the exchange as usual.
        case ordinary
        /// The plugin's fault (`plugin_error`), or a chain that is too long: the exchange fails.
        case fault(BusError)
        /// The exchange ends with a RESULT under `resultHeader`, and `request` starts;
        /// the new exchange keeps `chain` in `openedBy`.
        case opens(intent: String, resultHeader: [String: JSON], request: (header: JSON, parameters: JSON), chain: [JSON])
    }

    /// Whether a REPLY body may hold what `decide` reads (`view`, `opens_intent`): a scan of
    /// its bytes, so that the usual result moves on unparsed. A backslash may spell a key
    /// in escapes, so a body with one is read.
    static func mayLeadOn(_ body: Frame) -> Bool { body.withBytes { mayLeadOn(bytes: $0) } }

    /// The same for bytes (the relay lane reads a REPLY body without a `Frame`). A key is
    /// written `"view"` or `"opens_intent"` unless escapes spell it: the scan looks for a
    /// backslash, then after each quote (both with memchr(3), which reads many bytes a step:
    /// three substring searches of every body were a share of a `perform()` on the lane).
    static func mayLeadOn(bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        if memchr(base, Int32(UInt8(ascii: "\\")), bytes.count) != nil { return true }
        let end = base + bytes.count
        var from = base
        while from < end, let quote = memchr(from, Int32(UInt8(ascii: "\"")), end - from) {
            let after = UnsafeRawPointer(quote) + 1
            if startsKey(after, end, "view\"") || startsKey(after, end, "opens_intent\"") { return true }
            from = after
        }
        return false
    }

    private static func startsKey(_ at: UnsafeRawPointer, _ end: UnsafeRawPointer, _ key: StaticString) -> Bool {
        let n = key.utf8CodeUnitCount
        return end - at >= n && memcmp(at, key.utf8Start, n) == 0
    }

    /// Checks a flow's final result for a `view` and an `opens_intent`.
    func decide(header: JSON, body: JSON) -> Outcome {
        guard case .object(let fields) = body, fields["view"] != nil || fields["opens_intent"] != nil else { return .ordinary }
        func pluginFault(_ why: String) -> Outcome {
            .fault(BusError(.pluginError, "plugin \(pluginId) answered \(intent) with \(why)", details: ["plugin": .string(pluginId)]))
        }
        if let view = fields["view"], let problem = ResultCheck.viewProblem(view) {
            return pluginFault("an unusable view: \(problem)")
        }
        guard let opens = fields["opens_intent"] else { return .ordinary }
        let opened: ResultCheck.Opened
        switch ResultCheck.opened(opens) {
        case .success(let o): opened = o
        case .failure(let problem): return pluginFault("an unusable opens_intent: \(problem)")
        }
        if header[.status]?.stringValue == "failure" {
            return pluginFault("a failed result that opens \(opened.intent); only a successful result may open an intent")
        }
        if let code = header[.code]?.stringValue, code != "continueInApp" {
            return pluginFault("response code \(code) and opens_intent; a legacy handler hands over with continueInApp")
        }
        let step: JSON = ["intent": .string(intent), "plugin": .string(pluginId)]
        let chain = openedBy + [step]
        if chain.count >= ResultCheck.maximumChain {
            let path = (chain.compactMap { $0["intent"]?.stringValue } + [opened.intent]).joined(separator: " → ")
            return .fault(BusError(.pluginError,
                "\(path): one request may run at most \(ResultCheck.maximumChain) intents that open one another; the last one was not opened",
                details: ["plugin": .string(pluginId), "chain": .array(chain)]))
        }
        var resultHeader = header.objectValue ?? [:]
        resultHeader[.opens] = .string(opened.intent)
        if !openedBy.isEmpty { resultHeader[.openedBy] = .array(openedBy) }
        return .opens(intent: opened.intent, resultHeader: resultHeader,
                      request: (openedHeader(opened), opened.parameters), chain: chain)
    }

    /// The opened request's header: the client's own (client, credential, timeout,
    /// choice policy), on the same plugin when it claims the opened intent too (an app
    /// opens its own intent), else routed as usual. A remembered choice is never stored
    /// on the client's behalf for an intent it did not name.
    private func openedHeader(_ opened: ResultCheck.Opened) -> JSON {
        var header = options.objectValue ?? [:]
        header.removeValue(forKey: "remember")
        if pluginClaims(opened.intent) {
            header["plugin"] = .string(pluginId)
        } else {
            header.removeValue(forKey: "plugin")
        }
        return .object(header)
    }

    /// The final REPLY of an opened request names the intents that led to it
    /// (`opened_by`), so that a REQ client, which never sees a RESULT, knows too.
    static func noteChain(_ openedBy: [JSON], _ final: WireMessage) {
        guard final.kind == .reply else { return }
        // The header was checked on its way in (a JSON object, or empty).
        var header = final.header.count == 0 ? [:] : ((try? final.headerJSON())?.objectValue ?? [:])
        header[.openedBy] = .array(openedBy)
        final.header = Frame(data: JSON.object(header).canonicalData)
    }
}
