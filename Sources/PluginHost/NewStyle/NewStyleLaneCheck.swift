import Foundation
import IntentBusCore
import IntentBusMetadata

/// The relay lane's check for a new-style intent (docs/design.md "The relay lane"): the
/// requests `NewStyleFlow` would send on unchanged, whose `perform()` then costs the
/// host what a plain request does (docs/performance.md, "`perform()` on the relay lane").
///
/// `NewStyleExtension.laneCheck` makes one per intent at each routing change, only for an
/// intent the flow handles the same whatever the request's header and the host's
/// settings: declared under its own identifier (not a migration, not an assistant
/// schema), `always_allowed`. `passes` then makes the flow's own decisions on the body
/// (NewStyleFlow.start): a JSON object, no unknown parameter, every given value its own
/// checked value (`ParameterCheck`), no null, no default to add, no required parameter
/// missing. Anything else is the general path's, which answers it as always.
final class NewStyleLaneCheck: LaneRequestCheck {
    /// `{"style":"new"}`: the flow's REQUEST header when the client sent no options.
    static let header = styleHeader(client: nil, locale: nil)

    private let intent: NewStyleIntent
    private let catalog: NewStyleCatalog
    private let access: AuthenticationPolicy.Access
    /// The body's first reading, in place (nil for an intent with more than 64 parameters).
    private let scan: NewStyleBodyScan?

    init(intent: NewStyleIntent, catalog: NewStyleCatalog, access: AuthenticationPolicy.Access) {
        self.intent = intent
        self.catalog = catalog
        self.access = access
        scan = NewStyleBodyScan(intent.parameters)
    }

    /// The check for `name` in `catalog`, or nil when its requests need the flow.
    static func make(_ name: String, catalog: NewStyleCatalog, access: AuthenticationPolicy.Access) -> NewStyleLaneCheck? {
        guard let intent = catalog.intents[name], intent.authentication == .alwaysAllowed,
              catalog.migrations[name] == nil, catalog.schemas[name] == nil else { return nil }
        return NewStyleLaneCheck(intent: intent, catalog: catalog, access: access)
    }

    var pluginHeader: [UInt8] { Self.header }

    /// `NewStyleFlow`'s header for a request with no context, run key or migration: the
    /// style, the client's name and its locale.
    func pluginHeader(client: String?, locale: String?) -> [UInt8]? { Self.styleHeader(client: client, locale: locale) }

    private static func styleHeader(client: String?, locale: String?) -> [UInt8] {
        var header: [String: JSON] = ["style": "new"]
        if let client { header["client"] = .string(client) }
        if let locale { header["locale"] = .string(locale) }
        return JSON.object(header).canonicalBytes
    }

    /// The scan's verdict when it has one (most bodies: no tree, no allocation), else the
    /// parse's (`passesParsed`); the two agree wherever the scan answers (NewStyleBodyScanTests).
    /// Nothing is kept: the flow reads no parameter after its REQUEST.
    func passes(body: UnsafeRawBufferPointer) -> LanePass? {
        guard body.count > 0 else { return nil }
        let verdict = scan?.passes(body) ?? passesParsed(body: body)
        return verdict ? .unread : nil
    }

    /// The flow's decisions on the parsed body: what `passes` falls back to.
    func passesParsed(body: UnsafeRawBufferPointer) -> Bool {
        guard body.count > 0, let parsed = try? JSON.parse(bytes: body), let given = parsed.objectValue else { return false }
        var known = 0
        for p in intent.parameters {
            if let value = given[p.name] {
                guard !value.isNull, case .success(let checked) = ParameterCheck.check(value, p, catalog: catalog),
                      checked == value else { return false }
                known += 1
            } else if p.defaultValue != nil || !p.optional {
                return false
            }
        }
        // Every key a declared parameter (the names are unique: a JSON object's keys).
        return known == given.count
    }

    /// The flow's `finish(forwarding:)` reads a REPLY body only when its bytes may hold a
    /// `view` or an `opens_intent` (`LeadOn`): such a result goes to the general path.
    func forwards(replyBody: UnsafeRawBufferPointer) -> Bool { !LeadOn.mayLeadOn(bytes: replyBody) }

    func deliveredFlow(body: UnsafeRawBufferPointer, passed: LanePass) -> any ExchangeFlow {
        NewStyleFlow(intent: intent, catalog: catalog, migratedFrom: nil, access: access)
    }
}
