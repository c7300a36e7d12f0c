import Foundation
import Testing
@testable import IntentBusManifest
import IntentBusTestSupport

/// `host.wyoming` (docs/wyoming.md, "Started by the host"): every key checked at load.
@Suite("Manifest host.wyoming")
struct WyomingManifestTests {
    @Test("absent: no service; uri alone: the service's defaults, pointed at the frontend")
    func defaults() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        #expect(try dir.load("plugins: []\n").host.wyoming == nil)
        let w = try #require(try dir.load("host:\n  wyoming: {uri: \"tcp://127.0.0.1:10700\"}\nplugins: []\n").host.wyoming)
        #expect(w.uri == "tcp://127.0.0.1:10700")
        #expect(w.endpoint == "ipc://\(dir.path)/.intentbus/frontend.sock")
        #expect(w.languages == ["en"] && w.transcript == "handle" && w.questions == "ask")
        #expect(w.timeout == .seconds(10) && w.maxConnections == 64)
        #expect(w.clientKey == nil && w.serverKey == nil)
        #expect(w.serviceArguments == [
            "--uri", "tcp://127.0.0.1:10700", "--endpoint", "ipc://\(dir.path)/.intentbus/frontend.sock",
            "--language", "en", "--transcript", "handle", "--timeout", "10", "--max-connections", "64",
            "--questions", "ask", "--question-timeout", "60", "--idle-timeout", "300",
        ])
    }

    @Test("every key is passed on as the service's option")
    func everyKey() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let w = try #require(try dir.load("""
            host:
              wyoming:
                uri: unix://wy.sock
                languages: [en, de-DE]
                transcript: recognize
                timeout: 2500ms
                context: {area: Kitchen, floor: 2}
                max_connections: 8
                questions: end
                question_timeout: 30s
                idle_timeout: 2m
                command: [/bin/echo, -n]
            plugins: []
            """).host.wyoming)
        #expect(w.command == PluginExec(path: "/bin/echo", arguments: ["-n"]))
        #expect(w.commandOrigin == "host.wyoming.command")
        #expect(w.serviceArguments == [
            "--uri", "unix://\(dir.path)/wy.sock", "--endpoint", "ipc://\(dir.path)/.intentbus/frontend.sock",
            "--language", "en", "--language", "de-DE", "--transcript", "recognize", "--timeout", "2.500",
            "--max-connections", "8", "--questions", "end", "--question-timeout", "30", "--idle-timeout", "120",
            "--context", "area=Kitchen", "--context", "floor=2",
        ])
    }

    @Test("the default command: the .venv beside the manifest, with -m intentbus.wyoming_service")
    func venvCommand() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        let python = try dir.write(".venv/bin/python", "#!/bin/sh\n")
        chmod(python, 0o755)
        let w = try #require(try dir.load("host:\n  wyoming: {uri: \"tcp://127.0.0.1:10700\"}\nplugins: []\n").host.wyoming)
        #expect(w.command == PluginExec(path: python, arguments: ["-m", "intentbus.wyoming_service"]))
        #expect(w.commandOrigin == "the .venv beside the manifest")
    }

    @Test("a wildcard tcp frontend is reached on loopback; CURVE needs client_key, and host.pub is the server key")
    func curveFrontend() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            host:
              frontend: tcp://0.0.0.0:7301
              wyoming: {uri: "tcp://127.0.0.1:10700"}
            plugins: []
            """, [
            "$DIR/plugins.yaml:3:12: error: host.wyoming: the frontend tcp://0.0.0.0:7301 takes CURVE clients only: set client_key to the service's secret key file (its public key listed in host.clients)",
        ])
        let key = try dir.write("wyoming.key", "secret\n")
        let w = try #require(try dir.load("""
            host:
              frontend: tcp://0.0.0.0:7301
              wyoming: {uri: "tcp://127.0.0.1:10700", client_key: wyoming.key}
            plugins: []
            """).host.wyoming)
        #expect(w.endpoint == "tcp://127.0.0.1:7301")
        #expect(w.serviceEnvironment["INTENTBUS_CLIENT_KEY"] == key)
        #expect(w.serviceEnvironment["INTENTBUS_SERVER_KEY"] == "\(dir.path)/.intentbus/host.pub")
        let plain = try dir.load("host:\n  frontend: tcp://127.0.0.1:7301\n  insecure: true\n  wyoming: {uri: \"tcp://127.0.0.1:10700\", client_key: wyoming.key}\nplugins: []\n")
        #expect(plain.host.wyoming?.serviceEnvironment["INTENTBUS_CLIENT_KEY"] == nil)
        #expect(plain.warnings.map(\.message).filter { $0.hasPrefix("host.wyoming") } == ["host.wyoming.client_key: does nothing: the frontend tcp://127.0.0.1:7301 takes no CURVE keys"])
    }

    @Test("each bad key is an error at its value, numbers with their range")
    func errors() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        try dir.expectErrors("""
            host:
              wyoming:
                uri: http://127.0.0.1:10700
                languages: [en, "de DE"]
                transcript: run
                timeout: 50ms
                context: {"a=b": x}
                max_connections: 0
                questions: maybe
                question_timeout: 2h
                idle_timeout: 0s
                command: ""
                colour: red
            plugins: []
            """, [
            "$DIR/plugins.yaml:3:10: error: host.wyoming.uri: must be tcp://HOST:PORT or unix://PATH, got 'http://127.0.0.1:10700'",
            "$DIR/plugins.yaml:4:16: error: host.wyoming.languages: 'de DE' is not a language tag (1 to 35 ASCII letters, digits, '-' or '_': en, de-DE)",
            "$DIR/plugins.yaml:5:17: error: host.wyoming.transcript: must be handle or recognize, got 'run'",
            "$DIR/plugins.yaml:6:14: error: host.wyoming.timeout: must be within 100ms…1h, got 50ms",
            "$DIR/plugins.yaml:7:14: error: host.wyoming.context: key 'a=b' must be 1 to 64 bytes without '='",
            "$DIR/plugins.yaml:8:22: error: host.wyoming.max_connections: must be within 1…10000, got 0",
            "$DIR/plugins.yaml:9:16: error: host.wyoming.questions: must be ask or end, got 'maybe'",
            "$DIR/plugins.yaml:10:23: error: host.wyoming.question_timeout: must be within 1s…1h, got 2h",
            "$DIR/plugins.yaml:11:19: error: host.wyoming.idle_timeout: must be within 1s…24h, got 0s",
            "$DIR/plugins.yaml:12:14: error: host.wyoming.command: the command is empty; give the plugin's executable",
            "$DIR/plugins.yaml:13:5: error: host.wyoming: unknown key 'colour' (allowed: uri, languages, transcript, timeout, context, max_connections, questions, question_timeout, idle_timeout, command, client_key)",
        ])
    }

    @Test("uri: a port within 1…65535, a host, a unix path short enough; required; an inproc frontend is refused")
    func uriAndFrontend() throws {
        let dir = try ManifestDirectory()
        defer { dir.remove() }
        for (uri, message) in [
            ("tcp://127.0.0.1:70000", "the port must be within 1…65535, got 70000"),
            ("tcp://127.0.0.1", "a tcp URI needs a host and a port, e.g. tcp://127.0.0.1:10700, got 'tcp://127.0.0.1'"),
            ("tcp://:10700", "a tcp URI needs a host and a port, e.g. tcp://127.0.0.1:10700, got 'tcp://:10700'"),
            ("unix://", "a unix URI needs a path, e.g. unix://wyoming.sock"),
            ("unix:///" + String(repeating: "x", count: 120), "the socket path /\(String(repeating: "x", count: 120)) is longer than 107 bytes"),
        ] {
            try dir.expectErrors("host:\n  wyoming:\n    uri: \"\(uri)\"\nplugins: []\n",
                                 ["$DIR/plugins.yaml:3:10: error: host.wyoming.uri: \(message)"])
        }
        try dir.expectErrors("host:\n  wyoming: {languages: [en]}\nplugins: []\n",
                             ["$DIR/plugins.yaml:2:12: error: host.wyoming: missing required key 'uri'"])
        try dir.expectErrors("host:\n  frontend: inproc://bus\n  wyoming: {uri: \"tcp://127.0.0.1:1\"}\nplugins: []\n", [
            "$DIR/plugins.yaml:3:12: error: host.wyoming: the service connects to the host's frontend from its own process, so the frontend must be ipc:// or tcp://, not inproc://bus",
        ])
        try dir.expectErrors("host:\n  wyoming: {uri: \"tcp://127.0.0.1:1\", context: {k: \(String(repeating: "v", count: 256))}}\nplugins: []\n", [
            "$DIR/plugins.yaml:2:48: error: host.wyoming.context: the value of 'k' is 256 bytes; at most 255",
        ])
    }
}
