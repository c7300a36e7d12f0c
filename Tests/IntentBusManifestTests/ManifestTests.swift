import Foundation
import Testing
@testable import IntentBusManifest
import IntentBusTestSupport


@Suite("Manifest loading")
struct ManifestTests {
    @Test func minimalManifestGetsDefaults() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let manifest = try dir.load("""
            plugins:
              - id: echo
                exec: .build/debug/plugin-echo
                IntentsSupported: [EchoIntent]
            """)
        #expect(manifest.path == "\(dir.path)/plugins.yaml")
        #expect(manifest.files == ["\(dir.path)/plugins.yaml"])
        #expect(manifest.host.stateDirectory == "\(dir.path)/.intentbus")
        #expect(manifest.host.frontend == "ipc://\(dir.path)/.intentbus/frontend.sock")
        #expect(manifest.host.backend == "ipc://\(dir.path)/.intentbus/backend.sock")
        #expect(manifest.host.conversationTimeout == .seconds(120))
        #expect(manifest.host.clientCredential == nil)

        let echo = try #require(manifest.plugins.first)
        #expect(manifest.plugins.count == 1)
        #expect(echo.id == "echo")
        #expect(echo.name == "echo")
        #expect(echo.exec == PluginExec(path: "\(dir.path)/.build/debug/plugin-echo", arguments: []))
        #expect(echo.intentsSupported == ["EchoIntent"])
        #expect(echo.intentsRestrictedWhileLocked.isEmpty)
        #expect(echo.environment.isEmpty)
        #expect(echo.timeout == .seconds(10))
        #expect(echo.priority == 0)
        #expect(echo.definitions.isEmpty)
        #expect(echo.maxInFlight == 256)
        #expect(echo.mark == SourceMark(file: "\(dir.path)/plugins.yaml", line: 2, column: 5))
        #expect(echo.intentMarks == [SourceMark(file: "\(dir.path)/plugins.yaml", line: 4, column: 24)])
        // The executable isn't built in the temporary directory: a warning, not an error.
        #expect(manifest.warnings.map(\.message) == [
            "plugins[0].exec: \(dir.path)/.build/debug/plugin-echo does not exist (yet); the host will report this plugin as unavailable",
        ])
    }

    @Test("a client credential file other users can read is warned about, with its mode")
    func credentialFileMode() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let path = try dir.write("credential", "s3cret\n")
        chmod(path, 0o644)
        let manifest = try dir.load("host:\n  client_credential_file: credential\nplugins: []\n")
        #expect(manifest.host.clientCredential == "s3cret")
        #expect(manifest.warnings.contains { $0.message.contains("can be read by other users (mode 644)") }, "\(manifest.warnings)")
        chmod(path, 0o600)
        let private600 = try dir.load("host:\n  client_credential_file: credential\nplugins: []\n")
        #expect(!private600.warnings.contains { $0.message.contains("can be read by other users") }, "\(private600.warnings)")
    }

    @Test func everyFieldIsRead() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        chmod(try dir.write("secrets/credential", "  s3cret\n"), 0o600)  // 0644 is warned about (below)
        let manifest = try dir.load("""
            host:
              state_dir: run/state
              frontend: tcp://127.0.0.1:5555
              backend: ipc://sockets/backend.sock
              conversation_timeout: 2m
              client_credential_file: secrets/credential
            plugins:
              - id: balance
                name: FONIC Guthaben
                exec: bin/plugin-balance --region "DE Nord" -v
                IntentsSupported: [StatusIntent, SwitchContractIntent]
                IntentsRestrictedWhileLocked: [SwitchContractIntent]
                env: {PORT: 8080, NAME: "x", EMPTY: , FLAG: true}
                timeout: 250ms
                priority: -3
                definitions: [defs/balance.yaml, /etc/intentbus/shared.yaml]
                max_in_flight: 8
              - id: messenger
                exec: [/usr/bin/env, "plugin messenger"]
                IntentsSupported:
                  - INSendMessageIntent
                timeout: 1.5
            """)
        #expect(manifest.host.stateDirectory == "\(dir.path)/run/state")
        #expect(manifest.host.frontend == "tcp://127.0.0.1:5555")
        #expect(manifest.host.backend == "ipc://\(dir.path)/sockets/backend.sock")
        #expect(manifest.host.conversationTimeout == .seconds(120))
        #expect(manifest.host.clientCredential == "s3cret")

        let balance = manifest.plugins[0]
        #expect(balance.name == "FONIC Guthaben")
        #expect(balance.exec == PluginExec(
            path: "\(dir.path)/bin/plugin-balance", arguments: ["--region", "DE Nord", "-v"]))
        #expect(balance.intentsSupported == ["StatusIntent", "SwitchContractIntent"])
        #expect(balance.intentsRestrictedWhileLocked == ["SwitchContractIntent"])
        #expect(balance.environment == ["PORT": "8080", "NAME": "x", "EMPTY": "", "FLAG": "true"])
        #expect(balance.timeout == .milliseconds(250))
        #expect(balance.priority == -3)
        #expect(balance.definitions == ["\(dir.path)/defs/balance.yaml", "/etc/intentbus/shared.yaml"])
        #expect(balance.maxInFlight == 8)
        #expect(balance.intentMarks.map(\.line) == [11, 11])
        #expect(balance.intentMarks.map(\.column) == [24, 38])

        let messenger = manifest.plugins[1]
        #expect(messenger.name == "messenger")
        #expect(messenger.exec == PluginExec(path: "/usr/bin/env", arguments: ["plugin messenger"]))
        #expect(messenger.timeout == .milliseconds(1500))
        #expect(messenger.intentMarks == [SourceMark(file: "\(dir.path)/plugins.yaml", line: 21, column: 9)])
    }

    @Test func hostSectionMayBeEmpty() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let manifest = try dir.load("host:\nplugins:\n  - {id: e, exec: /bin/true, IntentsSupported: [E]}\n")
        #expect(manifest.host.stateDirectory == "\(dir.path)/.intentbus")
        #expect(manifest.warnings.isEmpty)
    }

    @Test func stateDirectoryMovesTheDefaultEndpoints() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let manifest = try dir.load("""
            host: {state_dir: /run/ib, conversation_timeout: 30}
            plugins: [{id: e, exec: /bin/true, IntentsSupported: [E]}]
            """)
        #expect(manifest.host.frontend == "ipc:///run/ib/frontend.sock")
        #expect(manifest.host.backend == "ipc:///run/ib/backend.sock")
        #expect(manifest.host.conversationTimeout == .seconds(30))
    }

    @Test func inlineCredentialAndBareProgramName() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let manifest = try dir.load("""
            host: {client_credential: "hunter2"}
            plugins: [{id: e, exec: "true --flag", IntentsSupported: [E]}]
            """)
        #expect(manifest.host.clientCredential == "hunter2")
        // A bare name is looked up on PATH.
        #expect(manifest.plugins[0].exec.path.hasSuffix("/true"))
        #expect(manifest.plugins[0].exec.path.hasPrefix("/"))
        #expect(manifest.plugins[0].exec.arguments == ["--flag"])
    }

    @Test func mergeKeysShareSettings() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let manifest = try dir.load("""
            plugins:
              - &slow {id: a, exec: /bin/true, IntentsSupported: [A], timeout: 30s, max_in_flight: 4}
              - {<<: *slow, id: b, IntentsSupported: [B]}
            """)
        let b = manifest.plugins[1]
        #expect(b.id == "b")
        #expect(b.intentsSupported == ["B"])
        #expect(b.timeout == .seconds(30))
        #expect(b.maxInFlight == 4)
        #expect(b.exec.path == "/bin/true")
    }

    // MARK: - Errors, each at its exact line and column

    @Test func unknownKeySuggestsTheClosest() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            plugins:
              - id: echo
                exec: /bin/true
                IntentsSupported: [EchoIntent]
                timout: 5s
            """, [
            "$DIR/plugins.yaml:5:5: error: plugins[0]: unknown key 'timout'; did you mean 'timeout'? (allowed: id, name, remote, public_key, mdp_worker, exec, IntentsSupported, IntentsRestrictedWhileLocked, env, inherit_env, timeout, priority, definitions, max_in_flight, enabled, activation, idle_timeout, heartbeat, crash_limit, crash_window, breaker_cooldown, synonyms, instances, idempotent, memory_limit, cpu_limit, sha256)",
        ])
    }

    @Test func unknownTopLevelAndHostKeys() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            host:
              frontend_endpoint: tcp://127.0.0.1:1
            plugin: []
            """, [
            "$DIR/plugins.yaml:1:1: error: missing required key 'plugins'",
            "$DIR/plugins.yaml:2:3: error: host: unknown key 'frontend_endpoint' (allowed: state_dir, state, frontend, backend, conversation_timeout, client_credential, client_credential_file, metrics_file, metrics_interval, peers, defaults, limits, insecure, clients, choice_context, drain_timeout, socket_group, mdp, mdp_heartbeat, mdp_liveness, mdp_reply, mdp_intents, mdp_queue, mdp_only_idempotent, wyoming)",
            "$DIR/plugins.yaml:3:1: error: unknown key 'plugin'; did you mean 'plugins'? (allowed: host, plugins)",
        ])
    }

    @Test func enabledIsAnOptionalBoolean() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let manifest = try dir.load("""
            plugins:
              - {id: on, exec: /bin/true, IntentsSupported: [A]}
              - {id: off, exec: /bin/true, IntentsSupported: [A], enabled: false}
            """)
        #expect(manifest.plugins.map(\.enabled) == [true, false])
        try dir.expectErrors("""
            plugins:
              - id: echo
                exec: /bin/true
                IntentsSupported: [EchoIntent]
                enabled: "false"
              - {id: two, exec: /bin/true, IntentsSupported: [EchoIntent], enabled: no}
            """, [
            "$DIR/plugins.yaml:5:14: error: plugins[0].enabled: expected a boolean (true or false), got the string \"false\"",
            "$DIR/plugins.yaml:6:73: error: plugins[1].enabled: expected true or false, got 'no' (YAML 1.1 spelling)",
        ])
    }

    @Test func wrongTypes() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            plugins:
              - id: echo
                name: [Echo]
                exec: {path: /bin/true}
                IntentsSupported: EchoIntent
                priority: "10"
                env: [A, B]
            """, [
            "$DIR/plugins.yaml:3:11: error: plugins[0].name: expected a string, got a list",
            "$DIR/plugins.yaml:4:11: error: plugins[0].exec: expected a string or a list, got a mapping",
            "$DIR/plugins.yaml:5:23: error: plugins[0].IntentsSupported: expected a list, got the string \"EchoIntent\"; write [EchoIntent] for a list of one",
            "$DIR/plugins.yaml:6:15: error: plugins[0].priority: expected an integer, got the string \"10\"",
            "$DIR/plugins.yaml:7:10: error: plugins[0].env: expected a mapping, got a list",
        ])
    }

    @Test func pluginsMustBeAListOfMappings() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("plugins:\n  echo: {}\n", [
            "$DIR/plugins.yaml:2:3: error: plugins: expected a list, got a mapping",
        ])
        try dir.expectErrors("plugins:\n  - echo\n", [
            "$DIR/plugins.yaml:2:5: error: plugins[0]: expected a mapping, got the string \"echo\"",
        ])
        try dir.expectErrors("- id: echo\n", [
            "$DIR/plugins.yaml:1:1: error: expected a mapping, got a list",
        ])
    }

    @Test func duplicateIDPointsAtTheFirst() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            plugins:
              - id: echo
                exec: /bin/true
                IntentsSupported: [EchoIntent]
              - id: echo
                exec: /bin/true
                IntentsSupported: [OtherIntent]
            """, [
            "$DIR/plugins.yaml:5:9: error: plugins[1].id: duplicate plugin id 'echo' (first declared at line 2)",
        ])
    }

    @Test func missingRequiredFieldsPointAtThePlugin() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            plugins:
              - id: echo
                IntentsSupported: [EchoIntent]
              - name: Nameless
                exec: /bin/true
                IntentsSupported:
            """, [
            "$DIR/plugins.yaml:2:5: error: plugins[0]: missing required key 'exec'",
            "$DIR/plugins.yaml:4:5: error: plugins[1]: missing required key 'id'",
            "$DIR/plugins.yaml:6:5: error: plugins[1].IntentsSupported: needs a value (a list)",
        ])
    }

    @Test func invalidValues() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            host:
              conversation_timeout: 0
              frontend: localhost:5555
            plugins:
              - id: "echo plugin"
                exec: 'bin/echo "unterminated'
                IntentsSupported: [EchoIntent, ib.ping, "Two Words", EchoIntent, ""]
                IntentsRestrictedWhileLocked: [EchoIntent, SwitchContractIntent]
                timeout: 10 sec
                max_in_flight: 0
                env: {INTENTBUS_TOKEN: x}
              - id: other
                exec: []
                IntentsSupported: []
                timeout: -1
            """, [
            "$DIR/plugins.yaml:2:25: error: host.conversation_timeout: must be within 1ms…24h, got 0s",
            "$DIR/plugins.yaml:3:13: error: host.frontend: invalid endpoint 'localhost:5555'; expected transport://address, e.g. ipc:///run/intentbus/frontend.sock or tcp://127.0.0.1:5555",
            "$DIR/plugins.yaml:5:9: error: plugins[0].id: invalid plugin id 'echo plugin'; use only letters, digits, '.', '_' and '-'",
            "$DIR/plugins.yaml:6:11: error: plugins[0].exec: unterminated double quote in the command line",
            "$DIR/plugins.yaml:7:36: error: plugins[0].IntentsSupported[1]: intent name 'ib.ping' is reserved: names starting with 'ib.' are answered by the host",
            "$DIR/plugins.yaml:7:45: error: plugins[0].IntentsSupported[2]: intent name 'Two Words' contains whitespace",
            "$DIR/plugins.yaml:7:58: error: plugins[0].IntentsSupported[3]: 'EchoIntent' is listed twice (first at line 7)",
            "$DIR/plugins.yaml:7:70: error: plugins[0].IntentsSupported[4]: intent names must not be empty",
            "$DIR/plugins.yaml:8:48: error: plugins[0].IntentsRestrictedWhileLocked[1]: 'SwitchContractIntent' is not in IntentsSupported; a plugin can only restrict intents it supports",
            "$DIR/plugins.yaml:9:14: error: plugins[0].timeout: invalid duration '10 sec'; expected a number of seconds, or a number with a unit: 250ms, 10s, 2m, 1h",
            "$DIR/plugins.yaml:10:20: error: plugins[0].max_in_flight: must be within 1…100000, got 0",
            "$DIR/plugins.yaml:11:11: error: plugins[0].env: INTENTBUS_TOKEN is set by the host; INTENTBUS_* names are reserved",
            "$DIR/plugins.yaml:13:11: error: plugins[1].exec: the command is empty; give the plugin's executable",
            "$DIR/plugins.yaml:14:23: error: plugins[1].IntentsSupported: must list at least one intent",
            "$DIR/plugins.yaml:15:14: error: plugins[1].timeout: invalid duration '-1'; expected a number of seconds, or a number with a unit: 250ms, 10s, 2m, 1h",
        ])
    }

    @Test func credentialProblems() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let plugins = "plugins: [{id: e, exec: /bin/true, IntentsSupported: [E]}]\n"
        try dir.expectErrors("host: {client_credential: a, client_credential_file: b}\n" + plugins, [
            "$DIR/plugins.yaml:1:54: error: host.client_credential_file: set client_credential or client_credential_file, not both",
        ])
        try dir.expectErrors("host:\n  client_credential_file: nope.txt\n" + plugins, [
            "$DIR/plugins.yaml:2:27: error: host.client_credential_file: cannot read $DIR/nope.txt: no such file",
        ])
        try dir.write("blank", " \n")
        try dir.expectErrors("host:\n  client_credential_file: blank\n" + plugins, [
            "$DIR/plugins.yaml:2:27: error: host.client_credential_file: $DIR/blank is empty",
        ])
    }

    @Test func identicalEndpointsAreRejected() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            host:
              frontend: tcp://127.0.0.1:7000
              backend: tcp://127.0.0.1:7000
              bogus: ftp://x
            plugins: []
            """, [
            "$DIR/plugins.yaml:3:12: error: host.backend: the frontend and backend endpoints must differ (both are tcp://127.0.0.1:7000)",
            "$DIR/plugins.yaml:4:3: error: host: unknown key 'bogus' (allowed: state_dir, state, frontend, backend, conversation_timeout, client_credential, client_credential_file, metrics_file, metrics_interval, peers, defaults, limits, insecure, clients, choice_context, drain_timeout, socket_group, mdp, mdp_heartbeat, mdp_liveness, mdp_reply, mdp_intents, mdp_queue, mdp_only_idempotent, wyoming)",
        ])
    }
}
