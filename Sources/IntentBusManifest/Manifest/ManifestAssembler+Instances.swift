import Foundation

extension ManifestAssembler {
    /// `instances`: processes of one plugin (docs/lifecycle.md, "Instances").
    static let instancesRange = 1...64

    /// Decodes `instances` and `idempotent` (`true`, `false`, or a list of intents from
    /// `IntentsSupported`): how many processes run, and which intents' requests may be
    /// retried once when the instance handling them dies.
    func decodeInstances(_ m: YAMLMapping, intents: [Marked<String>]?) -> (Int, Set<String>) {
        let instances = m.optional("instances", as: Marked<Int>.self)
        checkRange(instances, key: "instances", within: Self.instancesRange)
        let count = instances.map { Self.instancesRange.contains($0.value) ? $0.value : 1 } ?? 1
        guard let node = m.node(for: "idempotent"), !node.isNull else { return (count, []) }
        let supported = Set((intents ?? []).map(\.value))
        if node.sequence != nil {
            guard let listed = m.optional("idempotent", as: [Marked<String>].self) else { return (count, []) }
            var out: Set<String> = []
            for intent in listed {
                if intents != nil, !supported.contains(intent.value) {
                    error("\(intent.value) is not in this plugin's IntentsSupported", key: "idempotent", at: intent.mark)
                } else {
                    out.insert(intent.value)
                }
            }
            return (count, out)
        }
        guard let all = m.optional("idempotent", as: Bool.self) else { return (count, []) }
        return (count, all ? supported : [])
    }
}
