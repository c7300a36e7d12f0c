import Foundation
import IntentBusCore

extension ManifestAssembler {
    static let defaultTimeout = Duration.seconds(10)
    static let defaultMaxInFlight = 256
    /// Environment variables the host sets for every plugin (docs/protocol.md §5).
    static let reservedEnvironmentPrefix = "INTENTBUS_"

    /// Decodes one plugin mapping. Returns nil, after reporting, when it has errors.
    func decodePlugin(_ node: YAMLNode) -> PluginSpec? {
        context.mapping(node) { m -> PluginSpec? in
            let errorsBefore = context.errorCount
            // Read every key before any early return, so that none is taken as unknown.
            let id = m.require("id", as: Marked<String>.self)
            let name = m.optional("name", as: Marked<String>.self)
            let remote = m.optional("remote", as: Bool.self, default: false)
            let publicKey = m.optional("public_key", as: Marked<String>.self)
            let mdpWorker = m.optional("mdp_worker", as: Bool.self, default: false)
            let command = remote || mdpWorker ? m.optional("exec", as: Marked<ExecCommandLine>.self)
                                              : m.require("exec", as: Marked<ExecCommandLine>.self)
            let intents = m.require("IntentsSupported", as: [Marked<String>].self)
            let restricted = m.optional("IntentsRestrictedWhileLocked", as: [Marked<String>].self)
            let environment = decodeEnvironment(m.node(for: "env"))
            let inherited = m.optional("inherit_env", as: [Marked<String>].self, default: [])
            let timeout = m.optional("timeout", as: Marked<Duration>.self)
            let priority = m.optional("priority", as: Marked<Int>.self)
            let definitions = m.optional("definitions", as: [String].self, default: [])
            let maxInFlight = m.optional("max_in_flight", as: Marked<Int>.self)
            let enabled = m.optional("enabled", as: Bool.self, default: true)
            let lifecycle = decodeLifecycle(m)
            let synonyms = m.optional("synonyms", as: [Marked<String>].self, default: [])
            let replicas = decodeInstances(m, intents: intents)
            let guards = decodeGuards(m)

            if let id { checkID(id) }
            for name in inherited {
                if let problem = Self.environmentNameProblem(name.value) { error(problem, key: "inherit_env", at: name.mark) }
            }
            if let name, name.value.isEmpty {
                error("must not be empty (leave 'name' out to show the id)", key: "name", at: name.mark)
            }
            if let intents, let intentsNode = m.node(for: "IntentsSupported") {
                checkIntents(intents, listMark: intentsNode.mark)
                if let restricted { checkRestricted(restricted, supported: intents) }
            }
            checkRange(timeout, key: "timeout", within: ManifestLimits.timeout)
            checkRange(priority, key: "priority", within: ManifestLimits.priority)
            checkRange(maxInFlight, key: "max_in_flight", within: ManifestLimits.maxInFlight)
            for synonym in synonyms where PhraseText.words(synonym.value).isEmpty {
                error("a synonym needs at least one letter or digit", key: "synonyms", at: synonym.mark)
            }
            var exec = command.map { executable(for: $0) }
            if mdpWorker {
                exec = checkMajordomoWorker(m, remote: remote, command: command, publicKey: publicKey)
            } else if remote {
                if let command { error("a remote plugin is never started by the host: leave 'exec' out", key: "exec", at: command.mark) }
                if let publicKey {
                    if !CurveKeyText.isKey(publicKey.value) {
                        error("must be a CURVE public key: 40 characters of Z85", key: "public_key", at: publicKey.mark)
                    }
                } else {
                    error("a remote plugin needs 'public_key': the CURVE key it connects with", key: "remote", at: m.mark)
                }
                exec = PluginExec(path: "(remote)", arguments: [])
            } else if let publicKey {
                error("'public_key' is for remote plugins (remote: true)", key: "public_key", at: publicKey.mark)
            }

            guard context.errorCount == errorsBefore, let id, let exec, let intents else { return nil }
            var spec = PluginSpec(
                id: id.value,
                name: name?.value ?? id.value,
                exec: exec,
                intentsSupported: intents.map(\.value),
                intentsRestrictedWhileLocked: restricted?.map(\.value) ?? [],
                environment: environment ?? [:],
                timeout: timeout?.value ?? Self.defaultTimeout,
                priority: priority?.value ?? 0,
                definitions: definitions.map { resolve($0) },
                maxInFlight: maxInFlight?.value ?? Self.defaultMaxInFlight,
                mark: m.mark,
                intentMarks: intents.map(\.mark),
                enabled: enabled)
            spec.lifecycle = lifecycle
            if remote { spec.remoteKey = publicKey?.value }
            spec.mdpWorker = mdpWorker
            if mdpWorker { spec.mdpWorkerKey = publicKey?.value }
            spec.synonyms = synonyms.map(\.value)
            (spec.instances, spec.idempotentIntents) = replicas
            spec.guards = guards
            spec.inheritedEnvironment = inherited.map(\.value)
            return spec
        }
    }

    /// Checks the id's characters and that no earlier plugin (in any file) took it.
    private func checkID(_ id: Marked<String>) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !id.value.isEmpty, id.value.allSatisfy(allowed.contains) else {
            error("invalid plugin id '\(id.value)'; use only letters, digits, '.', '_' and '-'", key: "id", at: id.mark)
            return
        }
        if let first = idMarks[id.value] {
            let place = first.file == id.mark.file ? "line \(first.line)" : first.description
            error("duplicate plugin id '\(id.value)' (first declared at \(place))", key: "id", at: id.mark)
            return
        }
        idMarks[id.value] = id.mark
    }

    private func checkIntents(_ intents: [Marked<String>], listMark: SourceMark) {
        guard !intents.isEmpty else {
            error("must list at least one intent", key: "IntentsSupported", at: listMark)
            return
        }
        var firstMarks: [String: SourceMark] = [:]
        context.withPath(.key("IntentsSupported")) {
            for (index, intent) in intents.enumerated() {
                context.withPath(.index(index)) {
                    if let problem = Self.intentNameProblem(intent.value) {
                        context.error(problem, at: intent.mark)
                    } else if let first = firstMarks[intent.value] {
                        context.error("'\(intent.value)' is listed twice (first at line \(first.line))", at: intent.mark)
                    } else {
                        firstMarks[intent.value] = intent.mark
                    }
                }
            }
        }
    }

    /// What is wrong with an intent name, or nil when it is fine.
    package static func intentNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "intent names must not be empty" }
        if name.contains(where: \.isWhitespace) { return "intent name '\(name)' contains whitespace" }
        if name.hasPrefix("ib.") {
            return "intent name '\(name)' is reserved: names starting with 'ib.' are answered by the host"
        }
        return nil
    }

    /// Each restricted intent must be one the plugin supports (as SiriKit's
    /// `IntentsRestrictedWhileLocked` must be a subset of `IntentsSupported`).
    private func checkRestricted(_ restricted: [Marked<String>], supported: [Marked<String>]) {
        let supportedNames = Set(supported.map(\.value))
        var seen: Set<String> = []
        context.withPath(.key("IntentsRestrictedWhileLocked")) {
            for (index, intent) in restricted.enumerated() {
                context.withPath(.index(index)) {
                    if !supportedNames.contains(intent.value) {
                        context.error(
                            "'\(intent.value)' is not in IntentsSupported; a plugin can only restrict intents it supports",
                            at: intent.mark)
                    } else if !seen.insert(intent.value).inserted {
                        context.warning("'\(intent.value)' is listed twice", at: intent.mark)
                    }
                }
            }
        }
    }

    /// Why `name` can't be an `env:` or `inherit_env:` name, or nil.
    private static func environmentNameProblem(_ name: String) -> String? {
        if name.isEmpty || name.contains("=") || name.contains("\0") { return "invalid environment variable name '\(name)'" }
        if name.hasPrefix(reservedEnvironmentPrefix) {
            return "\(name) is set by the host; \(reservedEnvironmentPrefix)* names are reserved"
        }
        return nil
    }

    /// `env:` is a mapping of names to scalars of any kind, taken as their text
    /// (`PORT: 8080` gives `"8080"`, an empty value gives `""`).
    private func decodeEnvironment(_ node: YAMLNode?) -> [String: String]? {
        guard let node, !node.isNull else { return nil }
        return context.withPath(.key("env")) {
            guard let mapping = YAMLMapping(node, in: context) else { return nil }
            var environment: [String: String] = [:]
            for pair in mapping.pairs {
                guard let name = pair.key.scalar?.text else { continue }
                if let problem = Self.environmentNameProblem(name) {
                    context.error(problem, at: pair.key.mark)
                    continue
                }
                guard let value = pair.value.scalar else {
                    context.withPath(.key(name)) { context.typeMismatch(expected: "a string", got: pair.value) }
                    continue
                }
                environment[name] = pair.value.isNull ? "" : value.text
            }
            return environment
        }
    }

    /// Resolves the program: a path with a `/` against the manifest's directory; a bare
    /// name on `PATH`, else beside the manifest. Warns when it isn't executable (yet):
    /// the host will then report the plugin unavailable.
    private func executable(for command: Marked<ExecCommandLine>) -> PluginExec {
        let program = command.value.program
        let path: String
        if program.contains("/") || program.hasPrefix("~") {
            path = resolve(program)
        } else {
            path = Self.searchPATH(for: program) ?? resolve(program)
        }
        if !FileManager.default.isExecutableFile(atPath: path) {
            let state = FileManager.default.fileExists(atPath: path) ? "is not executable" : "does not exist (yet)"
            context.withPath(.key("exec")) {
                context.warning("\(path) \(state); the host will report this plugin as unavailable", at: command.mark)
            }
        }
        return PluginExec(path: path, arguments: command.value.arguments)
    }
}
