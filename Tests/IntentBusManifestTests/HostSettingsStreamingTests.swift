import Foundation
import Testing
@testable import IntentBusManifest

/// Client commands read only `host:`, streaming, so a large manifest costs them neither
/// memory nor time (issue 24 item 5; docs/reliability.md, "Manifest loading").
@Suite("host: read by streaming")
struct HostSettingsStreamingTests {
    /// A manifest of `plugins` entries with `host` before or after them, in a fresh directory.
    private static func manifest(plugins: Int, hostFirst: Bool, extra: String = "") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ib-stream-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let host = "host:\n  frontend: tcp://127.0.0.1:45999\n  peers: [tcp://127.0.0.1:45998]\n"
        var body = "plugins:\n"
        body.reserveCapacity(plugins * 80)
        for i in 0..<plugins {
            body += "  - id: p\(i)\n    exec: [/nonexistent/plugin-\(i)]\n    IntentsSupported: [Intent\(i)]\n"
        }
        let path = directory + "/plugins.yaml"
        try (extra + (hostFirst ? host + body : body + host)).write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    private static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    @Test("host: first in a 100,000-entry manifest: the read stops after it (a few dozen events, not millions)")
    func stopsAfterHost() throws {
        let path = try Self.manifest(plugins: 100_000, hostFirst: true)
        defer { Self.remove(path) }
        guard case .found(let node, let events) = YAMLTopLevelReader.value(forKey: "host", inFile: path) else {
            Issue.record("streaming gave up on a plain manifest")
            return
        }
        #expect(node?.mapping?.count == 2)
        // stream, document, root, key, host's mapping of 2 keys + a list of one: ~14.
        #expect(events < 30, "\(events) events parsed")
        let settings = try ManifestLoader.loadHostSettings(path: path)
        #expect(settings.frontend == "tcp://127.0.0.1:45999")
        #expect(settings.peers == ["tcp://127.0.0.1:45998"])
    }

    @Test("host: last: every event is parsed, but only host:'s tree is built, in bounded CPU time")
    func hostLast() throws {
        let path = try Self.manifest(plugins: 100_000, hostFirst: false)
        defer { Self.remove(path) }
        let started = Self.threadCPUSeconds()
        let settings = try ManifestLoader.loadHostSettings(path: path)
        let took = Self.threadCPUSeconds() - started
        #expect(settings.frontend == "tcp://127.0.0.1:45999")
        guard case .found(_, let events) = YAMLTopLevelReader.value(forKey: "host", inFile: path) else {
            Issue.record("streaming gave up on a plain manifest")
            return
        }
        #expect(events > 1_000_000, "\(events) events: the plugins were skipped, not read")
        print("host: after 100,000 entries (7 MB): \(events) events, \(took) s of CPU")
        // 0.7 s here in a debug build; the full parse of a 50 MB manifest took 17 s (main).
        #expect(took < 3, "\(took) s")
    }

    @Test("what streaming can't decide falls back to the full parse, with the same answer")
    func fallbacks() throws {
        // host: made of an anchor defined before it.
        let anchored = try Self.manifest(plugins: 2, hostFirst: false,
                                         extra: "x-ports: &front tcp://127.0.0.1:45997\n")
        defer { Self.remove(anchored) }
        let text = try String(contentsOfFile: anchored, encoding: .utf8)
            .replacingOccurrences(of: "frontend: tcp://127.0.0.1:45999", with: "frontend: *front")
        try text.write(toFile: anchored, atomically: false, encoding: .utf8)
        guard case .needsFullParse = YAMLTopLevelReader.value(forKey: "host", inFile: anchored) else {
            Issue.record("an alias to an outside anchor must not be decided by streaming")
            return
        }
        #expect(try ManifestLoader.loadHostSettings(path: anchored).frontend == "tcp://127.0.0.1:45997")

        // A merge key at the top level can bring host: in.
        let merged = try Self.manifest(plugins: 0, hostFirst: true)
        defer { Self.remove(merged) }
        try "base: &b\n  host:\n    frontend: tcp://127.0.0.1:45996\n<<: *b\n".write(toFile: merged, atomically: false, encoding: .utf8)
        guard case .needsFullParse = YAMLTopLevelReader.value(forKey: "host", inFile: merged) else {
            Issue.record("a top-level merge key must not be decided by streaming")
            return
        }
        #expect(try ManifestLoader.loadHostSettings(path: merged).frontend == "tcp://127.0.0.1:45996")
    }

    @Test("a syntax error before host: ends is reported; one after it does not stop a client")
    func syntaxErrors() throws {
        let path = try Self.manifest(plugins: 0, hostFirst: true)
        defer { Self.remove(path) }
        try "host:\n  frontend: \"unclosed\nplugins: []\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect {
            _ = try ManifestLoader.loadHostSettings(path: path)
        } throws: { error in
            ((error as? ConfigError)?.diagnostics.first?.mark.line ?? 0) >= 2
        }
        try "host:\n  frontend: tcp://127.0.0.1:45995\nplugins: [unclosed\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try ManifestLoader.loadHostSettings(path: path).frontend == "tcp://127.0.0.1:45995")
        // Not a mapping, not UTF-8: the full parse's own words.
        try "- a list\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try ManifestLoader.loadHostSettings(path: path).frontend.hasPrefix("ipc://"))
        try Data([0x68, 0x6f, 0x73, 0x74, 0x3a, 0x20, 0xff, 0x0a]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ConfigError.self) { _ = try ManifestLoader.loadHostSettings(path: path) }
    }

    private static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
