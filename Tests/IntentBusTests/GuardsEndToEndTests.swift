import Foundation
import IntentBus
@testable import PluginHost
@testable import IntentBusManifest
import Testing
import IntentBusTestSupport

/// `memory_limit`, `cpu_limit` and `sha256` with the real host and real plugin processes
/// (docs/lifecycle.md, "Limits and checksums"), and the SHA-256 itself.
@Suite("Limits and checksums", .serialized)
struct GuardsEndToEndTests {
    /// The ERROR a request ends with, or nil when it succeeded or failed otherwise.
    private func busError(_ client: IntentClient, _ intent: String, _ parameters: JSON = [:]) -> BusError? {
        do {
            _ = try client.send(intent, parameters: parameters) { _ in nil }
            return nil
        } catch .bus(let e) {
            return e
        } catch {
            return nil
        }
    }

    @Test("SHA-256: FIPS 180-4 vectors, and sha256sum's digest of a multi-megabyte file")
    func digest() throws {
        func hex(_ text: String) -> String {
            var h = SHA256()
            h.update(Data(text.utf8))
            return h.finish()
        }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Pieces of every size give the same digest as one piece.
        let text = String(repeating: "0123456789abcdef", count: 20)
        var pieces = SHA256()
        var offset = 0
        for size in [1, 63, 64, 65, 7] { pieces.update(Data(text.utf8.dropFirst(offset).prefix(size))); offset += size }
        pieces.update(Data(text.utf8.dropFirst(offset)))
        #expect(pieces.finish() == hex(text))
        let plugin = Products.path("plugin-testplugin")
        let expected = runCommand("/usr/bin/sha256sum", [plugin]).stdout.split(separator: " ").first.map(String.init)
        #expect(ProcessGuards.digest(of: plugin) == expected)
    }

    @Test("sha256: the right digest starts the plugin; a wrong one leaves it failed, named, and its requests unavailable")
    func checksum() throws {
        let plugin = Products.path("plugin-testplugin")
        let sum = try #require(ProcessGuards.digest(of: plugin))
        let wrong = String(repeating: "0", count: 64)
        let host = try TestHost(TestManifest(.test("good").extra("sha256: \(sum.uppercased())"),
                                             .test("bad", intents: ["BadIntent"]).extra("sha256: \(wrong)")),
                                waitReady: ["good"])
        defer { host.stop() }
        let failed = try host.waitForPlugin("bad", state: "failed")
        #expect(failed["reason"]?.stringValue?.contains("has SHA-256 \(sum), not the manifest's sha256 \(wrong); not started") == true,
                "\(failed.canonicalString)")
        #expect(failed["pid"] == nil)
        let e = try #require(busError(try host.client(), "BadIntent"))
        #expect(e.code == .pluginUnavailable)
        #expect(e.message.contains("not the manifest's sha256"), "\(e.message)")
        #expect(try host.client().send("TestIntent") { _ in nil }.plugin == "good")
    }

    @Test("memory_limit: a process above it is killed within a heartbeat; its request says memory_limit exceeded")
    func memoryLimit() throws {
        let host = try TestHost(TestManifest(.test("greedy", timeout: "20s").heartbeat("300ms").extra("memory_limit: 96M")),
                                waitReady: ["greedy"])
        defer { host.stop() }
        let before = try #require(try host.plugin("greedy")?["pid"]?.intValue)
        #expect(try host.client().send("TestIntent", parameters: ["allocate_mb": 8]) { _ in nil }.succeeded)
        let e = try #require(busError(try host.client(), "TestIntent", ["allocate_mb": 400, "sleep_ms": 5_000]))
        #expect(e.code == .pluginCrashed)
        #expect(e.message.contains("memory_limit exceeded:"), "\(e.message)")
        #expect(e.message.contains("the limit is 96.0 MiB"), "\(e.message)")
        let after = try host.waitForPlugin("greedy", state: "ready", notPid: before)
        #expect(after["last_error"]?.stringValue?.contains("memory_limit exceeded") == true, "\(after.canonicalString)")
    }

    @Test("cpu_limit: a process that burns more CPU time gets SIGXCPU, reported as cpu_limit exceeded")
    func cpuLimit() throws {
        let host = try TestHost(TestManifest(.test("burner", timeout: "30s").extra("cpu_limit: 1s")),
                                waitReady: ["burner"])
        defer { host.stop() }
        let e = try #require(busError(try host.client(), "TestIntent", ["spin_ms": 20_000]))
        #expect(e.code == .pluginCrashed)
        #expect(e.message.contains("SIGXCPU"), "\(e.message)")
        #expect(e.message.contains("cpu_limit exceeded (1 s of CPU time)"), "\(e.message)")
    }

    @Test("the keys are checked: sizes, ranges and hex digits")
    func manifestChecks() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.write("plugins.yaml", """
        plugins:
          - id: a
            exec: /bin/true
            IntentsSupported: [A]
            memory_limit: 12 bananas
            cpu_limit: 0s
            sha256: xyz
        """)
        do {
            _ = try ManifestLoader.load(path: path)
            Issue.record("loaded")
        } catch {
            #expect(error.description.contains("plugins[0].memory_limit: must be a size from 1M to 1T"), "\(error)")
            #expect(error.description.contains("plugins[0].cpu_limit: must be within 1s…24h"), "\(error)")
            #expect(error.description.contains("plugins[0].sha256: must be 64 hexadecimal digits"), "\(error)")
        }
        #expect(ManifestAssembler.byteCount("512M") == 512 << 20)
        #expect(ManifestAssembler.byteCount("2GiB") == 2 << 30)
        #expect(ManifestAssembler.byteCount("1048576") == 1 << 20)
        #expect(ManifestAssembler.byteCount("99999999999T") == nil)
    }
}
