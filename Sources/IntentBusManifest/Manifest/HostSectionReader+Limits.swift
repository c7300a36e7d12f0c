extension HostSectionReader {
    /// Decodes `host.limits:`; absent means every default. Each value must be an integer
    /// within its range (HostLimits.ranges), reported with the key and the range.
    func decodeLimits(_ node: YAMLNode?) -> HostLimits {
        var limits = HostLimits()
        guard let node, !node.isNull else { return limits }
        context.withPath(.key("limits")) {
            context.mapping(node) { m -> Void in
                for (key, range) in HostLimits.ranges {
                    guard let value = m.optional(key, as: Marked<Int>.self) else { continue }
                    guard range.contains(value.value) else {
                        error("must be an integer from \(range.lowerBound) to \(range.upperBound), got \(value.value)",
                              key: key, at: value.mark)
                        continue
                    }
                    limits.set(key, value.value)
                }
            }
        }
        if limits.maxOpenPerClient > limits.maxOpenExchanges {
            limits.maxOpenPerClient = limits.maxOpenExchanges
        }
        return limits
    }
}
