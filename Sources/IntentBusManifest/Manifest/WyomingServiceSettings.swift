import Foundation

/// `host.wyoming`: the Wyoming service for Home Assistant's voice pipeline, which the host
/// starts and supervises as a child process of its own (docs/wyoming.md, "Started by the
/// host"). The service is the Python package's `intentbus.wyoming_service`; these are its
/// options, checked here, and how to start it.
package struct WyomingServiceSettings: Sendable, Equatable {
    /// Where Wyoming clients connect: `tcp://HOST:PORT` or `unix://PATH` (absolute).
    package var uri: String
    /// The languages `info` lists (`--language`).
    package var languages: [String] = ["en"]
    /// `handle` (run the intent) or `recognize` (name it) for a transcript.
    package var transcript = "handle"
    /// How long each request to the host may take.
    package var timeout: Duration = .seconds(10)
    /// Context every request gets (`--context KEY=VALUE`), by key.
    package var context: [String: String] = [:]
    /// Connections the service takes at once.
    package var maxConnections = 64
    /// `ask` a plugin's question back, or `end` the request.
    package var questions = "ask"
    /// How long an asked question waits for its answer.
    package var questionTimeout: Duration = .seconds(60)
    /// How long a connection may go without a complete event.
    package var idleTimeout: Duration = .seconds(300)
    /// The program and its leading arguments; the host appends the options.
    package var command: PluginExec
    /// Where `command` came from, for the log: `command`, or how the default was found.
    package var commandOrigin: String
    /// The endpoint the service connects to: the host's frontend (a wildcard tcp address
    /// as loopback).
    package var endpoint: String
    /// On a CURVE frontend: the service's secret key file (`client_key`, a client of
    /// `host.clients`) and the host's public key file (`host.pub` in the state directory).
    package var clientKey: String?
    package var serverKey: String?

    /// The options the host passes to the service, after `command`'s own arguments.
    package var serviceArguments: [String] {
        var out = ["--uri", uri, "--endpoint", endpoint]
        for language in languages { out += ["--language", language] }
        out += ["--transcript", transcript, "--timeout", Self.seconds(timeout),
                "--max-connections", String(maxConnections), "--questions", questions,
                "--question-timeout", Self.seconds(questionTimeout), "--idle-timeout", Self.seconds(idleTimeout)]
        for (key, value) in context.sorted(by: { $0.key < $1.key }) { out += ["--context", "\(key)=\(value)"] }
        return out
    }

    /// The environment the host adds for the service: the CURVE key files, when any.
    package var serviceEnvironment: [String: String] {
        var out: [String: String] = ["PYTHONUNBUFFERED": "1"]
        if let clientKey { out["INTENTBUS_CLIENT_KEY"] = clientKey }
        if let serverKey { out["INTENTBUS_SERVER_KEY"] = serverKey }
        return out
    }

    /// A duration as the service's options take it: seconds, in decimal.
    static func seconds(_ duration: Duration) -> String {
        let (whole, atto) = duration.components
        let millis = atto / 1_000_000_000_000_000
        return millis == 0 ? "\(whole)" : "\(whole).\(String(format: "%03lld", millis))"
    }

    /// The service's ranges (its `main()` refuses the same values).
    static let timeoutRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(3_600)
    static let maxConnectionsRange = 1...10_000
    static let questionTimeoutRange: ClosedRange<Duration> = .seconds(1) ... .seconds(3_600)
    static let idleTimeoutRange: ClosedRange<Duration> = .seconds(1) ... .seconds(86_400)
    /// At most this many languages and context entries (the host takes 16 context entries).
    static let maximumLanguages = 32
    static let maximumContext = 16
}

extension HostSectionReader {
    /// Decodes `host.wyoming` once the frontend, the state directory and `insecure` are
    /// known: nil when absent (or after errors).
    func decodeWyoming(_ node: YAMLNode?, host: HostSettings) -> WyomingServiceSettings? {
        guard let node, !node.isNull else { return nil }
        return context.withPath(.key("wyoming")) {
            context.mapping(node) { m -> WyomingServiceSettings? in
                let before = context.errorCount
                let uri = m.require("uri", as: Marked<String>.self)
                let languages = m.optional("languages", as: Marked<[String]>.self)
                let transcript = m.optional("transcript", as: Marked<String>.self)
                let timeout = m.optional("timeout", as: Marked<Duration>.self)
                let fixed = m.optional("context", as: Marked<[String: String]>.self)
                let connections = m.optional("max_connections", as: Marked<Int>.self)
                let questions = m.optional("questions", as: Marked<String>.self)
                let questionTimeout = m.optional("question_timeout", as: Marked<Duration>.self)
                let idleTimeout = m.optional("idle_timeout", as: Marked<Duration>.self)
                let command = m.optional("command", as: Marked<ExecCommandLine>.self)
                let clientKey = m.optional("client_key", as: Marked<String>.self)
                checkRange(timeout, key: "timeout", within: WyomingServiceSettings.timeoutRange)
                checkRange(connections, key: "max_connections", within: WyomingServiceSettings.maxConnectionsRange)
                checkRange(questionTimeout, key: "question_timeout", within: WyomingServiceSettings.questionTimeoutRange)
                checkRange(idleTimeout, key: "idle_timeout", within: WyomingServiceSettings.idleTimeoutRange)
                for (key, value, allowed) in [("transcript", transcript, ["handle", "recognize"]),
                                              ("questions", questions, ["ask", "end"])] {
                    if let value, !allowed.contains(value.value) {
                        error("must be \(allowed[0]) or \(allowed[1]), got '\(value.value)'", key: key, at: value.mark)
                    }
                }
                checkLanguages(languages)
                checkContext(fixed)
                let endpoint = wyomingEndpoint(host, at: m.mark)
                let keys = wyomingKeys(clientKey, host: host, at: m.mark)
                guard let uri, let serving = wyomingURI(uri), let endpoint, context.errorCount == before else { return nil }
                let (exec, origin) = wyomingCommand(command)
                var settings = WyomingServiceSettings(uri: serving, command: exec, commandOrigin: origin, endpoint: endpoint)
                if let languages, !languages.value.isEmpty { settings.languages = languages.value }
                if let transcript { settings.transcript = transcript.value }
                if let timeout { settings.timeout = timeout.value }
                if let fixed { settings.context = fixed.value }
                if let connections { settings.maxConnections = connections.value }
                if let questions { settings.questions = questions.value }
                if let questionTimeout { settings.questionTimeout = questionTimeout.value }
                if let idleTimeout { settings.idleTimeout = idleTimeout.value }
                (settings.clientKey, settings.serverKey) = keys
                return settings
            }
        }
    }

    /// `uri`: `tcp://HOST:PORT` with a port of 1…65535, or `unix://PATH` (resolved
    /// against the manifest's directory, short enough to bind).
    private func wyomingURI(_ uri: Marked<String>) -> String? {
        let text = uri.value
        if text.hasPrefix("unix://") {
            let path = String(text.dropFirst(7))
            guard !path.isEmpty else {
                error("a unix URI needs a path, e.g. unix://wyoming.sock", key: "uri", at: uri.mark)
                return nil
            }
            let resolved = resolve(path)
            guard resolved.utf8.count <= Self.maximumIPCPathLength else {
                error("the socket path \(resolved) is longer than \(Self.maximumIPCPathLength) bytes", key: "uri", at: uri.mark)
                return nil
            }
            return "unix://\(resolved)"
        }
        guard text.hasPrefix("tcp://") else {
            error("must be tcp://HOST:PORT or unix://PATH, got '\(text)'", key: "uri", at: uri.mark)
            return nil
        }
        let address = text.dropFirst(6)
        guard let colon = address.lastIndex(of: ":"), !address[..<colon].isEmpty,
              let port = Int(address[address.index(after: colon)...]) else {
            error("a tcp URI needs a host and a port, e.g. tcp://127.0.0.1:10700, got '\(text)'", key: "uri", at: uri.mark)
            return nil
        }
        guard (1...65_535).contains(port) else {
            error("the port must be within 1…65535, got \(port)", key: "uri", at: uri.mark)
            return nil
        }
        let hostPart = address[..<colon]
        if hostPart.contains(where: { $0.isWhitespace || $0 == "/" }) {
            error("invalid host '\(hostPart)' in '\(text)'", key: "uri", at: uri.mark)
            return nil
        }
        return text
    }

    /// `languages`: 1 to 32 tags such as `en`, `de-DE`, `pt_BR`.
    private func checkLanguages(_ languages: Marked<[String]>?) {
        guard let languages else { return }
        if languages.value.isEmpty || languages.value.count > WyomingServiceSettings.maximumLanguages {
            error("lists \(languages.value.count) languages; give 1 to \(WyomingServiceSettings.maximumLanguages)",
                  key: "languages", at: languages.mark)
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        for tag in languages.value where tag.isEmpty || tag.utf8.count > 35 || !tag.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) {
            error("'\(tag)' is not a language tag (1 to 35 ASCII letters, digits, '-' or '_': en, de-DE)",
                  key: "languages", at: languages.mark)
        }
    }

    /// `context`: at most 16 entries, keys of 1 to 64 bytes without `=`, values of at most
    /// 255 bytes (what the host takes in a request's context).
    private func checkContext(_ fixed: Marked<[String: String]>?) {
        guard let fixed else { return }
        if fixed.value.count > WyomingServiceSettings.maximumContext {
            error("has \(fixed.value.count) entries; a request's context takes at most \(WyomingServiceSettings.maximumContext)",
                  key: "context", at: fixed.mark)
        }
        for (key, value) in fixed.value.sorted(by: { $0.key < $1.key }) {
            if !(1...64).contains(key.utf8.count) || key.contains("=") {
                error("key '\(key)' must be 1 to 64 bytes without '='", key: "context", at: fixed.mark)
            } else if value.utf8.count > 255 {
                error("the value of '\(key)' is \(value.utf8.count) bytes; at most 255", key: "context", at: fixed.mark)
            }
        }
    }
}
