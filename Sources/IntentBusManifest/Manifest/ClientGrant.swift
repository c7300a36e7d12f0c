import IntentBusCore

/// A client the manifest knows by its CURVE public key (`host.clients`), and what it may
/// do (docs/security.md).
package struct ClientGrant: Sendable, Equatable {
    /// The name its requests carry as their client identity (remembered choices, logs).
    package var name: String
    /// Its CURVE public key, Z85.
    package var publicKey: String
    /// Intents it may call: exact names, or a prefix ending in `*` (`*` alone: all).
    package var intents: [String] = ["*"]
    /// Whether it may call intents restricted while locked (`IntentsRestrictedWhileLocked`).
    package var restricted = false
    /// Whether it may change remembered choices for every client (`ib.choices.set/reset`
    /// without a client, or for another client's name).
    package var manageChoices = false
    /// Its request rate: at most this many a second, with this burst (nil: no limit).
    package var ratePerSecond: Int?
    package var rateBurst: Int?

    /// The host's own helpers on the internal endpoint (systemd watchdog, metrics file):
    /// they ask for the host's figures and nothing else.
    package static let hostInternal = ClientGrant(name: "ib.host", publicKey: "", intents: ["ib.ping", "ib.metrics", "ib.status"])

    /// Host intents that change or reveal the host itself (stop and start plugins, reload
    /// the manifest, read plugins' output): a grant must name them (exactly, or by a prefix
    /// such as `ib.plugins.*`); `*`, and so a grant without `intents`, does not reach them.
    package static let administrative: Set<String> = ["ib.plugins.disable", "ib.plugins.enable", "ib.plugins.restart",
                                                     "ib.reload", "ib.logs"]

    /// Whether it may call `intent`.
    package func allows(_ intent: String) -> Bool {
        let explicit = Self.administrative.contains(intent)
        return intents.contains { pattern in
            (pattern == "*" && !explicit) || pattern == intent
                || (pattern.hasSuffix("*") && pattern != "*" && intent.hasPrefix(pattern.dropLast()))
        }
    }
}

extension HostSectionReader {
    /// Decodes `host.clients`: a list of `{name, public_key, intents?, restricted?,
    /// manage_choices?, rate?: {per_second, burst}}`.
    func decodeClients(_ node: YAMLNode?) -> [ClientGrant] {
        guard let node, !node.isNull else { return [] }
        guard let items = node.sequence else {
            context.withPath(.key("clients")) { context.typeMismatch(expected: "a list of clients", got: node) }
            return []
        }
        var out: [ClientGrant] = []
        var names: Set<String> = [], keys: Set<String> = []
        context.withPath(.key("clients")) {
            for (i, item) in items.enumerated() {
                context.withPath(.index(i)) {
                    context.mapping(item) { m -> Void in
                        let name = m.require("name", as: Marked<String>.self)
                        let key = m.require("public_key", as: Marked<String>.self)
                        let intents = m.optional("intents", as: [String].self)
                        let restricted = m.optional("restricted", as: Bool.self, default: false)
                        let manage = m.optional("manage_choices", as: Bool.self, default: false)
                        let rate = m.node(for: "rate")
                        guard let name, let key else { return }
                        if name.value.isEmpty || name.value.utf8.count > 255 {
                            return error("must be 1 to 255 bytes", key: "name", at: name.mark)
                        }
                        guard CurveKeyText.isKey(key.value) else {
                            return error("must be a CURVE public key: 40 characters of Z85 (intentbus keygen writes one)", key: "public_key", at: key.mark)
                        }
                        if !names.insert(name.value).inserted { error("duplicate client name '\(name.value)'", key: "name", at: name.mark) }
                        if !keys.insert(key.value).inserted { error("this key is already listed for another client", key: "public_key", at: key.mark) }
                        var grant = ClientGrant(name: name.value, publicKey: key.value)
                        if let intents { grant.intents = intents }
                        grant.restricted = restricted
                        grant.manageChoices = manage
                        if let rate { (grant.ratePerSecond, grant.rateBurst) = decodeRate(rate) }
                        out.append(grant)
                    }
                }
            }
        }
        return out
    }

    private func decodeRate(_ node: YAMLNode) -> (Int?, Int?) {
        var result: (Int?, Int?) = (nil, nil)
        context.withPath(.key("rate")) {
            context.mapping(node) { m -> Void in
                let perSecond = m.require("per_second", as: Marked<Int>.self)
                let burst = m.optional("burst", as: Marked<Int>.self)
                if let perSecond {
                    if (1...1_000_000).contains(perSecond.value) { result.0 = perSecond.value } else {
                        error("must be an integer from 1 to 1000000, got \(perSecond.value)", key: "per_second", at: perSecond.mark)
                    }
                }
                if let burst {
                    if (1...1_000_000).contains(burst.value) { result.1 = burst.value } else {
                        error("must be an integer from 1 to 1000000, got \(burst.value)", key: "burst", at: burst.mark)
                    }
                }
            }
        }
        if result.0 != nil, result.1 == nil { result.1 = result.0 }
        return result
    }
}

extension ClientGrant {
    /// A grant for `name` with every default (all intents but the administrative ones), for
    /// the host's own clients of another kind (Majordomo's): in an extension, so that the
    /// memberwise initializer stays for this module.
    package init(name: String, publicKey: String) {
        self.name = name
        self.publicKey = publicKey
    }
}
