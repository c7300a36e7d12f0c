/// The keys of a REPLY (and RESULT) header that the host, the SDKs and the CLI write or
/// read (docs/protocol.md §4.2, §4.9, §8.5, §9.5, §9.6). One table, so that a key is
/// spelled once: the plugin SDK writes `status` and `plugin`, the legacy and App Intents
/// layers and the Intents module `donation` and `delete_donations`, the host reads them
/// and writes `code`, `opens`, `migrated_from`, …, and the client and `intentbus send`
/// read them back. A header is still a JSON object on the wire: unknown keys pass through.
package enum ReplyHeaderKey: String, CaseIterable, Sendable {
    /// `success` or `failure` (§4.2).
    case status
    /// The id of the plugin that answered (§4.2, §5.3).
    case plugin
    /// A legacy response code (§8.5).
    case code
    /// Deprecation notices of a legacy intent or code, a list of sentences (§8.5).
    case deprecations
    /// On a RESULT: the intent the follow-up request opened (§4.9).
    case opens
    /// The intents that led to this request, oldest first (§4.9).
    case openedBy = "opened_by"
    /// A request for a legacy intent that a new-style intent took over (§9.5).
    case migratedFrom = "migrated_from"
    /// The new-style intent that handled a migrated request (§9.5).
    case handledBy = "handled_by"
    /// The parameters of a migrated request that were not passed on (§9.5).
    case unmappedParameters = "unmapped_parameters"
    /// A donation for the request's intent (§9.6).
    case donation
    /// Which of the plugin's donations to delete (§9.6).
    case deleteDonations = "delete_donations"
    /// The plugin's entities changed: `true` or a list of entity type names (§9.6).
    case entitiesChanged = "entities_changed"

    /// The keys a legacy flow copies from the plugin's handle-phase REPLY into the final
    /// REPLY it writes (§9.6).
    package static let donationKeys: Set<String> = [donation.rawValue, deleteDonations.rawValue]

    /// A header object from typed keys: `ReplyHeaderKey.header([.status: "success", .plugin: "ib"])`.
    package static func header(_ fields: KeyValuePairs<ReplyHeaderKey, JSON>) -> [String: JSON] {
        Dictionary(fields.map { ($0.key.rawValue, $0.value) }) { _, last in last }
    }
}

extension JSON {
    /// The value of a REPLY header's `key`, nil when it is absent or this is no object.
    package subscript(key: ReplyHeaderKey) -> JSON? { self[key.rawValue] }
}

extension Dictionary where Key == String, Value == JSON {
    /// A REPLY header's field `key`.
    package subscript(key: ReplyHeaderKey) -> JSON? {
        get { self[key.rawValue] }
        set { self[key.rawValue] = newValue }
    }
}
