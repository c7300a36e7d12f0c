import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusStore

/// Donations and suggestions: `ib.donate`, `ib.donations.list`, `ib.donations.delete`,
/// `ib.suggestions`, and the donations the host records itself.
extension ShortcutCenter {
    /// Keeps the parameters of a legacy or new-style request as the client sent them: the
    /// bytes, which the writer's thread parses (the flow has parsed them on this thread
    /// already: a second parse here was a share of every request). No larger than a
    /// donation's parameters may be.
    func flowStarting(_ exchange: Exchange, body: Frame) {
        guard writer != nil, body.count <= Self.maximumParametersBytes else { return }
        openParameters[exchange.hostId] = body.data
    }

    /// Records what a finished exchange donates: a donation the plugin put in its REPLY
    /// header (`donation`), deletions it asked for (`delete_donations`), and, when the
    /// request succeeded through a multi-phase flow and the intent needs no
    /// authentication (restricted while locked, `requires_authentication`), the host's
    /// own donation of the intent with its parameters.
    func exchangeEnded(_ exchange: Exchange, final: WireMessage) {
        noteEntitiesChanged(exchange, final: final)
        let parameters = openParameters.isEmpty ? nil : openParameters.removeValue(forKey: exchange.hostId)
        guard let writer, final.kind == .reply, exchange.choosing == nil else { return }
        // The plain path's header is parsed only when it may carry a donation: a scan of
        // its bytes, without copying them (the hot path, docs/performance.md).
        let mentionsDonation = Self.mentionsDonation(final.header)
        guard parameters != nil || mentionsDonation else { return }
        // A header that names no donation is parsed only when it may say "failure" (or
        // holds an escape that could spell it): the REPLY of a new-style or legacy request
        // is written by the host, so a successful one is not parsed again here.
        let header: JSON
        if mentionsDonation || Self.contains(final.header, "failure") || Self.contains(final.header, "\\") {
            guard let parsed = try? final.headerJSON(), parsed[.status]?.stringValue != "failure" else { return }
            header = parsed
        } else {
            header = .object([:])
        }
        let plugin = view.plugins[exchange.pluginIndex].spec
        let client = exchange.options["client"]?.stringValue
        if let deletion = header[.deleteDonations] {
            switch DonationForms.selector(deletion) {
            case .success(let selector): writer.submit(.deleteDonations(selector, plugin: plugin.id))
            case .failure(let e): logger.warning("plugin \(plugin.id): delete_donations ignored: \(e.message)")
            }
        }
        if var given = header[.donation]?.objectValue {
            if given["parameters"] == nil, let parameters, let parsed = try? JSON.parse(parameters), parsed.objectValue != nil {
                given["parameters"] = parsed
            }
            switch donation(from: .object(given), intent: exchange.intent, plugin: plugin.id, client: client, source: .plugin) {
            case .success(let d): writer.submit(.donate(d))
            case .failure(let e): logger.warning("plugin \(plugin.id): donation ignored: \(e.message)")
            }
        } else if let parameters, !plugin.intentsRestrictedWhileLocked.contains(exchange.intent),
                  !(authenticated[plugin.id]?.contains(exchange.intent) ?? false) {
            writer.submit(.hostDonation(HostDonation(intent: exchange.intent, plugin: plugin.id, client: client,
                                                     parameters: parameters, at: clock())))
        }
    }

    /// A new-style request the relay lane served ended with a successful REPLY forwarded as
    /// is (a status other than failure, no donation named: RelayLane+Checked.swift): the
    /// host's own donation, as `flowStarting` and `exchangeEnded` record it for the flow.
    func laneRequestSucceeded(intent: String, plugin index: Int, client: String?, body: UnsafeRawBufferPointer) {
        guard let writer, body.count <= Self.maximumParametersBytes else { return }
        // The plugin's id and restriction, not a copy of its spec nor of the plugin list.
        let plugin = view.plugin(at: index)
        let id = plugin.id
        guard !plugin.restrictsWhileLocked(intent), authenticated.isEmpty || !(authenticated[id]?.contains(intent) ?? false)
        else { return }
        writer.gather(intent: intent, plugin: id, client: client, body: body, at: clock())
    }

    /// Whether the frame's bytes contain `donation` (also in `delete_donations`).
    static func mentionsDonation(_ frame: Frame) -> Bool { contains(frame, "donation") }

    /// The same for bytes (the relay lane reads REPLY headers without a `Frame`).
    static func mentionsDonation(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes.contains("donation") }

    /// Whether the frame's bytes contain `text`'s (ASCII).
    static func contains(_ frame: Frame, _ text: StaticString) -> Bool { frame.withBytes { $0.contains(text) } }

    /// `ib.donate`: a client donates an interaction or an activity; answered after the
    /// commit.
    func donate(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        guard case .success(let intent?) = ShortcutInput.text(request.body, "intent", required: true) else {
            return then(.failure(BusError(.invalidParameters, "ib.donate needs \"intent\": a non-empty string")))
        }
        guard !claimants(intent).isEmpty else {
            return then(.failure(BusError(.unknownIntent, "no plugin claims intent \"\(intent)\"")))
        }
        // The authenticated client, never the body's (ShortcutCenter+Ownership.swift).
        let client = requester(request)
        switch donation(from: request.body, intent: intent, plugin: nil, client: client, source: .client) {
        case .failure(let e): then(.failure(e))
        case .success(let d):
            if let plugin = d.plugin, !serves(plugin, intent) {
                return then(.failure(BusError(.unknownPlugin, "plugin \(plugin) does not serve \(intent)")))
            }
            submit({ store in
                do { return .success(["donation": try store.donate(d).json]) } catch { return .failure(Self.failure(error)) }
            }, then: then)
        }
    }

    /// `ib.donations.list {"plugin"?}`: newest first.
    func listDonations(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        switch ShortcutInput.text(request.body, "plugin") {
        case .failure(let e): then(.failure(e))
        case .success(let plugin):
            let scope = ownerScope(request)
            submit({ store in
                do {
                    let own = try store.donations(plugin: plugin).filter { scope == nil || $0.client == scope }
                    return .success(["donations": .array(own.map(\.json)),
                                     "maximum": .int(Int64(ShortcutStore.maximumDonations))])
                } catch { return .failure(Self.failure(error)) }
            }, then: then)
        }
    }

    /// `ib.donations.delete`: `{"identifiers": […]}`, `{"group": …}`, `{"plugin": …}` or
    /// `{"all": true}`; answered after the commit.
    func deleteDonations(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        switch DonationForms.selector(request.body) {
        case .failure(let e): then(.failure(e))
        case .success(let selector):
            let logger = logger
            let scope = ownerScope(request)
            submit({ store in
                do {
                    let removed = try store.deleteDonations(selector, client: scope)
                    logger.info("deleted \(removed) donation(s) (\(selector))")
                    return .success(["removed": .int(Int64(removed))])
                } catch { return .failure(Self.failure(error)) }
            }, then: then)
        }
    }

    /// `ib.suggestions {"limit"?, "now"?}`: what the user is likely to want now. Ranked on
    /// the store's thread; the phrase to say is added here, from the phrases.
    func suggestions(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        let limit: Int64, now: Date
        switch ShortcutInput.integer(request.body, "limit", in: 1...50, fallback: 5) {
        case .failure(let e): return then(.failure(e))
        case .success(let l): limit = l
        }
        if let text = request.body["now"]?.stringValue {
            guard let parsed = ShortcutTime.parse(text) else {
                return then(.failure(BusError(.invalidParameters, "\"now\" must be an ISO 8601 time (2026-11-30T08:00:00Z), got \(text)")))
            }
            now = parsed
        } else if let given = request.body["now"], !given.isNull {
            return then(.failure(BusError(.invalidParameters, "\"now\" must be an ISO 8601 time, got \(given.typeName)")))
        } else {
            now = clock()
        }
        let scope = ownerScope(request)
        submit({ store in
            do {
                let own = try store.donations().filter { scope == nil || $0.client == scope }
                let ranked = SuggestionRanker().rank(own, now: now, limit: Int(limit))
                return .success(.array(ranked.map(DonationForms.json)))
            } catch { return .failure(Self.failure(error)) }
        }, then: { [unowned self] result in
            then(result.map { ranked in
                let list = (ranked.arrayValue ?? []).map { s -> JSON in
                    var o = s.objectValue ?? [:]
                    let suggested = o.removeValue(forKey: "suggested_phrase")?.stringValue
                    let said = phrase(scope: scope, intent: o["intent"]?.stringValue ?? "", parameters: o["parameters"] ?? .object([:]),
                                      plugin: o["plugin"]?.stringValue, suggested: suggested)
                    o["phrase"] = said.map { .string($0.0) } ?? .null
                    o["phrase_source"] = said.map { .string($0.1) } ?? .null
                    if said == nil { o["add_to_siri"] = DonationForms.addToSiri(o, suggested: suggested) }
                    return .object(o)
                }
                return ["suggestions": .array(list), "now": .string(ShortcutTime.text(now))]
            })
        })
    }

    /// What to say for a suggestion: the user's own phrase for it, the donation's
    /// suggested phrase, or a plugin phrase of the intent with its slots filled; only a
    /// phrase that, said, runs this intent with these parameters (`resolve` is asked, so
    /// a phrase whose words mean other values, or no values, is never offered).
    private func phrase(scope: String?, intent: String, parameters: JSON, plugin: String?, suggested: String?) -> (String, String)? {
        var tried: [(String, String)] = []
        if let user = phrases.first(intent: intent, parameters: parameters, scope: scope) {
            tried.append((user.phrase, "user"))
        }
        if let suggested { tried.append((suggested, "suggested")) }
        for app in catalog.all where app.intent == intent && (plugin == nil || app.plugin == plugin) {
            if let said = app.said(with: parameters.objectValue ?? [:], applicationName: catalog.applicationName(app.plugin)) {
                tried.append((said, app.source.rawValue))
            }
        }
        return tried.first { said, _ in
            guard case .success(let (handOn, _)) = resolve(said, scope: scope) else { return false }
            return handOn.intent == intent && (plugin == nil || handOn.plugin == nil || handOn.plugin == plugin)
                && SuggestionPhrase.sameValues(handOn.parameters, parameters)
        }
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
}
