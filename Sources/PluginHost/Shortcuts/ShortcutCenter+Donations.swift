import Foundation
import IntentBus

/// Donations and suggestions: `ib.donate`, `ib.donations.list`, `ib.donations.delete`,
/// `ib.suggestions`, and the donations the host records itself.
extension ShortcutCenter {
    /// Most identifiers one delete may name.
    static let maximumIdentifiers = 100

    /// Keeps the parameters of a legacy or new-style request as the client sent them.
    func flowStarting(_ exchange: Exchange, body: Frame) {
        guard store != nil, let parsed = try? JSON.parse(body.data), parsed.objectValue != nil else { return }
        openParameters[exchange.hostId] = parsed
    }

    /// Records what a finished exchange donates: a donation the plugin put in its REPLY
    /// header (`donation`), deletions it asked for (`delete_donations`), and, when the
    /// request succeeded through a multi-phase flow and the intent needs no
    /// authentication (restricted while locked, `requires_authentication`), the host's
    /// own donation of the intent with its parameters.
    func exchangeEnded(_ exchange: Exchange, final: WireMessage) {
        let parameters = openParameters.isEmpty ? nil : openParameters.removeValue(forKey: exchange.hostId)
        guard let store, final.kind == .reply, exchange.choosing == nil else { return }
        let plugin = view.plugins[exchange.pluginIndex].spec
        // The plain path's header is parsed only when it may carry a donation: a scan of
        // its bytes, without copying them (the hot path, docs/performance.md).
        guard parameters != nil || Self.mentionsDonation(final.header) else { return }
        guard let header = try? final.headerJSON(), header["status"]?.stringValue != "failure" else { return }
        let client = exchange.options["client"]?.stringValue
        do {
            if let deletion = header["delete_donations"], case .success(let selector) = Self.selector(deletion) {
                let removed = try store.deleteDonations(selector, plugin: plugin.id)
                logger.info("plugin \(plugin.id) deleted \(removed) donation(s)")
            }
            if var given = header["donation"]?.objectValue {
                if given["parameters"] == nil, let parameters { given["parameters"] = parameters }
                switch donation(from: .object(given), intent: exchange.intent, plugin: plugin.id, client: client, source: .plugin) {
                case .success(let d): try store.donate(d)
                case .failure(let e): logger.warning("plugin \(plugin.id): donation ignored: \(e.message)")
                }
            } else if let parameters, !plugin.intentsRestrictedWhileLocked.contains(exchange.intent),
                      !(authenticated[plugin.id]?.contains(exchange.intent) ?? false) {
                try store.donate(Donation(intent: exchange.intent, parameters: parameters, plugin: plugin.id, client: client,
                                          source: .host, at: clock()))
            }
        } catch {
            logger.error("shortcut store: \(error)")
        }
    }

    /// Whether the frame's bytes contain `donation` (also in `delete_donations`).
    static func mentionsDonation(_ frame: Frame) -> Bool {
        guard frame.count >= 8 else { return false }
        let needle = Array("donation".utf8)
        return frame.withBytes { bytes in
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                if (1..<needle.count).allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
            }
            return false
        }
    }

    /// `ib.donate`: a client donates an interaction or an activity.
    func donate(_ request: ControlRequest) -> Result<JSON, BusError> {
        let store: ShortcutStore
        switch requireStore() {
        case .failure(let e): return .failure(e)
        case .success(let s): store = s
        }
        guard case .success(let intent?) = ShortcutInput.text(request.body, "intent", required: true) else {
            return .failure(BusError(.invalidParameters, "ib.donate needs \"intent\": a non-empty string"))
        }
        guard !claimants(intent).isEmpty else {
            return .failure(BusError(.unknownIntent, "no plugin claims intent \"\(intent)\""))
        }
        let client = request.body["client"]?.stringValue ?? request.options["client"]?.stringValue
        switch donation(from: request.body, intent: intent, plugin: nil, client: client, source: .client) {
        case .failure(let e): return .failure(e)
        case .success(let d):
            if let plugin = d.plugin, !serves(plugin, intent) {
                return .failure(BusError(.unknownPlugin, "plugin \(plugin) does not serve \(intent)"))
            }
            do { return .success(["donation": try store.donate(d).json]) } catch { return .failure(storeFailure(error)) }
        }
    }

    /// `ib.donations.list {"plugin"?}`: newest first.
    func listDonations(_ request: ControlRequest) -> Result<JSON, BusError> {
        switch (requireStore(), ShortcutInput.text(request.body, "plugin")) {
        case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
        case (.success(let store), .success(let plugin)):
            do {
                return .success(["donations": .array(try store.donations(plugin: plugin).map(\.json)),
                                 "maximum": .int(Int64(ShortcutStore.maximumDonations))])
            } catch { return .failure(storeFailure(error)) }
        }
    }

    /// `ib.donations.delete`: `{"identifiers": […]}`, `{"group": …}`, `{"plugin": …}` or
    /// `{"all": true}`.
    func deleteDonations(_ request: ControlRequest) -> Result<JSON, BusError> {
        switch (requireStore(), Self.selector(request.body)) {
        case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
        case (.success(let store), .success(let selector)):
            do {
                let removed = try store.deleteDonations(selector)
                logger.info("deleted \(removed) donation(s) (\(selector))")
                return .success(["removed": .int(Int64(removed))])
            } catch { return .failure(storeFailure(error)) }
        }
    }

    /// `ib.suggestions {"limit"?, "now"?}`: what the user is likely to want now.
    func suggestions(_ request: ControlRequest) -> Result<JSON, BusError> {
        let limit: Int64, now: Date
        switch ShortcutInput.integer(request.body, "limit", in: 1...50, fallback: 5) {
        case .failure(let e): return .failure(e)
        case .success(let l): limit = l
        }
        if let text = request.body["now"]?.stringValue {
            guard let parsed = ShortcutTime.parse(text) else {
                return .failure(BusError(.invalidParameters, "\"now\" must be an ISO 8601 time (2026-11-30T08:00:00Z), got \(text)"))
            }
            now = parsed
        } else {
            now = clock()
        }
        let store: ShortcutStore
        switch requireStore() {
        case .failure(let e): return .failure(e)
        case .success(let s): store = s
        }
        let donations: [Donation]
        do { donations = try store.donations() } catch { return .failure(storeFailure(error)) }
        let users = (try? store.userPhrases()) ?? []
        let ranked = SuggestionRanker().rank(donations, now: now, limit: Int(limit))
        return .success(["suggestions": .array(ranked.map { s in
            var o: [String: JSON] = ["intent": .string(s.intent), "parameters": s.parameters,
                                     "plugin": s.plugin.map { .string($0) } ?? .null, "score": .double(s.score),
                                     "count": .int(Int64(s.count)), "last": .string(ShortcutTime.text(s.last))]
            if let t = s.title { o["title"] = .string(t) }
            if let i = s.identifier { o["identifier"] = .string(i) }
            o["phrase"] = phrase(for: s, users: users).map { .string($0.0) } ?? .null
            o["phrase_source"] = phrase(for: s, users: users).map { .string($0.1) } ?? .null
            return .object(o)
        }), "now": .string(ShortcutTime.text(now))])
    }

    /// What to say for a suggestion: the user's own phrase for it, the donation's
    /// suggested phrase, or an app phrase of the intent without slots.
    private func phrase(for s: SuggestionRanker.Suggestion, users: [UserPhrase]) -> (String, String)? {
        if let user = users.first(where: { $0.intent == s.intent && $0.parameters == s.parameters }) { return (user.phrase, "user") }
        if let suggested = s.suggestedPhrase { return (suggested, "suggested") }
        for app in catalog.all where app.intent == s.intent && (s.plugin == nil || app.plugin == s.plugin) {
            if let said = app.said(with: s.parameters.objectValue ?? [:], applicationName: catalog.applicationName(app.plugin)) {
                return (said, app.source.rawValue)
            }
        }
        return nil
    }

    /// A donation from a JSON object: `parameters`, `identifier`, `group`, `title`,
    /// `suggested_phrase`, `eligible_for_prediction`, `plugin`.
    private func donation(from o: JSON, intent: String, plugin: String?, client: String?,
                          source: Donation.Source) -> Result<Donation, BusError> {
        switch (ShortcutInput.parameters(o), ShortcutInput.text(o, "identifier"), ShortcutInput.text(o, "group"),
                ShortcutInput.text(o, "title"), ShortcutInput.text(o, "suggested_phrase"), ShortcutInput.text(o, "plugin"),
                ShortcutInput.flag(o, "eligible_for_prediction", fallback: true)) {
        case (.failure(let e), _, _, _, _, _, _), (_, .failure(let e), _, _, _, _, _), (_, _, .failure(let e), _, _, _, _),
             (_, _, _, .failure(let e), _, _, _), (_, _, _, _, .failure(let e), _, _), (_, _, _, _, _, .failure(let e), _),
             (_, _, _, _, _, _, .failure(let e)):
            return .failure(e)
        case (.success(let params), .success(let id), .success(let group), .success(let title), .success(let phrase),
              .success(let named), .success(let predict)):
            return .success(Donation(identifier: id, group: group, intent: intent, parameters: params, plugin: plugin ?? named,
                                     client: client, title: title, phrase: phrase, eligibleForPrediction: predict,
                                     source: source, at: clock()))
        }
    }

    /// Which donations a delete names; exactly one way.
    static func selector(_ body: JSON) -> Result<DonationSelector, BusError> {
        var found: [DonationSelector] = []
        if let ids = body["identifiers"] {
            guard let list = ids.arrayValue, list.count <= maximumIdentifiers,
                  let strings = Optional(list.compactMap(\.stringValue)), strings.count == list.count, !strings.isEmpty else {
                return .failure(BusError(.invalidParameters, "\"identifiers\" must be 1…\(maximumIdentifiers) strings"))
            }
            found.append(.identifiers(strings))
        }
        switch (ShortcutInput.text(body, "group"), ShortcutInput.text(body, "plugin"), ShortcutInput.flag(body, "all", fallback: false)) {
        case (.failure(let e), _, _), (_, .failure(let e), _), (_, _, .failure(let e)): return .failure(e)
        case (.success(let g), .success(let p), .success(let all)):
            if let g { found.append(.group(g)) }
            if let p { found.append(.plugin(p)) }
            if all { found.append(.all) }
        }
        guard found.count == 1 else {
            return .failure(BusError(.invalidParameters,
                "delete donations by one of {\"identifiers\": […]}, {\"group\": …}, {\"plugin\": …} or {\"all\": true}"))
        }
        return .success(found[0])
    }
}
