import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Results that lead on (docs/results.md): a new-style result with `opens_intent` (App
/// Intents' `OpensIntent`) or a legacy `continueInApp` response naming an intent ends
/// its exchange with a non-final `RESULT`, and the host starts the opened intent as an
/// ordinary request under the client's request id, like `ib.say` hands a request on: the
/// usual admission, rights, plugin choice, flows and prompts, and one final answer.
///
/// Runs on the router thread; `finish` calls `resultTakesOver` for every flow's REPLY.
extension RouterCore {
    /// Checks a flow's final result for a `view` and an `opens_intent`. Returns true when
    /// it has ended the exchange itself: a bad view or opening (`plugin_error`), a chain
    /// that is too long, or an opened intent now under way.
    /// Whether a REPLY body may hold what `resultTakesOver` reads (`view`,
    /// `opens_intent`): a scan of its bytes, so that the usual result moves on unparsed.
    /// A backslash may spell a key in escapes, so a body with one is read.
    static func mayLeadOn(_ body: Frame) -> Bool {
        body.withBytes { $0.contains("view") || $0.contains("opens_intent") || $0.contains("\\") }
    }

    func resultTakesOver(_ exchange: Exchange, header: JSON, body: JSON) -> Bool {
        guard case .object(let fields) = body, fields["view"] != nil || fields["opens_intent"] != nil else { return false }
        let pluginId = slots[exchange.pluginIndex].spec.id
        func pluginFault(_ why: String) -> Bool {
            fail(exchange, BusError(.pluginError, "plugin \(pluginId) answered \(exchange.intent) with \(why)",
                                    details: ["plugin": .string(pluginId)]))
            return true
        }
        if let view = fields["view"], let problem = ResultCheck.viewProblem(view) {
            return pluginFault("an unusable view: \(problem)")
        }
        guard let opens = fields["opens_intent"] else { return false }
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
        let step: JSON = ["intent": .string(exchange.intent), "plugin": .string(pluginId)]
        let chain = exchange.openedBy + [step]
        if chain.count >= ResultCheck.maximumChain {
            let path = (chain.compactMap { $0["intent"]?.stringValue } + [opened.intent]).joined(separator: " → ")
            fail(exchange, BusError(.pluginError,
                "\(path): one request may run at most \(ResultCheck.maximumChain) intents that open one another; the last one was not opened",
                details: ["plugin": .string(pluginId), "chain": .array(chain)]))
            return true
        }
        var resultHeader = header.objectValue ?? [:]
        resultHeader[.opens] = .string(opened.intent)
        if !exchange.openedBy.isEmpty { resultHeader[.openedBy] = .array(exchange.openedBy) }
        logger.info("request \(exchange.clientRequestId): \(exchange.intent) (\(pluginId)) opens \(opened.intent)",
                    [("request", exchange.clientRequestId)])
        complete(exchange, WireMessage(kind: .result, requestId: exchange.clientRequestId, intent: exchange.intent,
                                       header: .object(resultHeader), body: body))
        startRequest(exchange.client, WireMessage(kind: .request, requestId: exchange.clientRequestId, intent: opened.intent,
                                                  header: openedHeader(exchange, opened, pluginId: pluginId),
                                                  body: opened.parameters))
        if let next = book.open(client: exchange.client.identity, requestId: exchange.clientRequestId) {
            next.openedBy = chain
        }
        return true
    }

    /// The opened request's header: the client's own (client, credential, timeout,
    /// choice policy), on the same plugin when it claims the opened intent too (an app
    /// opens its own intent), else routed as usual. A remembered choice is never stored
    /// on the client's behalf for an intent it did not name.
    private func openedHeader(_ exchange: Exchange, _ opened: ResultCheck.Opened, pluginId: String) -> JSON {
        var header = exchange.options.objectValue ?? [:]
        header.removeValue(forKey: "remember")
        if routes[opened.intent]?.contains(exchange.pluginIndex) == true {
            header["plugin"] = .string(pluginId)
        } else {
            header.removeValue(forKey: "plugin")
        }
        return .object(header)
    }

    /// The final REPLY of an opened request names the intents that led to it
    /// (`opened_by`), so that a REQ client, which never sees a RESULT, knows too.
    func noteChain(_ exchange: Exchange, _ final: WireMessage) {
        guard final.kind == .reply else { return }
        // The header was checked on its way in (a JSON object, or empty).
        var header = final.header.count == 0 ? [:] : ((try? final.headerJSON())?.objectValue ?? [:])
        header[.openedBy] = .array(exchange.openedBy)
        final.header = Frame(data: JSON.object(header).canonicalData)
    }
}
