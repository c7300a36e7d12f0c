extension TestManifest {
    /// One entry of `plugins:`. The fixtures (`.test`, `.newStyle`, `.flow`, `.legacy`, the
    /// examples: TestManifest+Fixtures.swift) fill in the built plugin and its usual keys;
    /// the modifiers below change one key each, and `extra` takes any other key as a line.
    package struct Plugin {
        package var id: String
        package var name: String?
        package var synonyms: [String]
        package var exec: String
        package var intents: [String]
        package var definitions: [String]
        package var timeout: String?
        package var priority: Int?
        package var instances: Int?
        package var heartbeat: String?
        package var maxInFlight: Int?
        package var enabled: Bool?
        /// `env:`, written sorted by name, every value quoted.
        package var env: [String: String]
        /// Further keys of the entry as they are (`idempotent: true`, `activation: on-demand`).
        package var extra: [String]

        package init(id: String, name: String? = nil, synonyms: [String] = [], exec: String, intents: [String],
                     definitions: [String] = [], timeout: String? = nil, env: [String: String] = [:],
                     extra: [String] = []) {
            self.id = id
            self.name = name
            self.synonyms = synonyms
            self.exec = exec
            self.intents = intents
            self.definitions = definitions
            self.timeout = timeout
            self.env = env
            self.extra = extra
        }

        /// The entry as lines of a list item, not yet indented for `plugins:`.
        var lines: [String] {
            var lines = ["- id: \(YAMLScalar.render(id))"]
            func key(_ name: String, _ value: String?) { if let value { lines.append("  \(name): \(value)") } }
            key("name", name.map(YAMLScalar.render))
            key("synonyms", synonyms.isEmpty ? nil : YAMLScalar.flowList(synonyms))
            key("exec", YAMLScalar.render(exec))
            key("IntentsSupported", YAMLScalar.flowList(intents))
            key("definitions", definitions.isEmpty ? nil : YAMLScalar.flowList(definitions))
            key("timeout", timeout)
            key("priority", priority.map(String.init))
            key("instances", instances.map(String.init))
            key("heartbeat", heartbeat)
            key("max_in_flight", maxInFlight.map(String.init))
            key("enabled", enabled.map(String.init))
            if !env.isEmpty {
                lines.append("  env:")
                for (name, value) in env.sorted(by: { $0.key < $1.key }) {
                    lines.append("    \(name): \(YAMLScalar.quoted(value))")
                }
            }
            return lines + extra.flatMap { $0.split(separator: "\n").map { "  " + $0 } }
        }

        /// The entry as a drop-in file of its own (`plugins.d/NAME.yaml`): the same keys, as
        /// a mapping rather than a list item.
        package var dropIn: String {
            lines.map { String($0.dropFirst(2)) }.joined(separator: "\n") + "\n"
        }

        // MARK: Modifiers (each returns a changed copy)

        package func with(_ change: (inout Plugin) -> Void) -> Plugin {
            var copy = self
            change(&copy)
            return copy
        }
        package func named(_ name: String?) -> Plugin { with { $0.name = name } }
        package func priority(_ value: Int) -> Plugin { with { $0.priority = value } }
        package func instances(_ count: Int) -> Plugin { with { $0.instances = count } }
        package func heartbeat(_ interval: String) -> Plugin { with { $0.heartbeat = interval } }
        package func timeout(_ value: String?) -> Plugin { with { $0.timeout = value } }
        package func maxInFlight(_ count: Int) -> Plugin { with { $0.maxInFlight = count } }
        package func enabled(_ on: Bool) -> Plugin { with { $0.enabled = on } }
        package func definitions(_ paths: [String]) -> Plugin { with { $0.definitions = paths } }
        /// Adds (or replaces) environment variables.
        package func env(_ values: [String: String]) -> Plugin { with { $0.env.merge(values) { $1 } } }
        /// Adds keys as they are, one line each.
        package func extra(_ lines: String...) -> Plugin { with { $0.extra += lines } }
    }
}
