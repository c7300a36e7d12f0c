import Foundation
import Testing
@testable import PluginHost
import IntentBusTestSupport

/// Numbers from manifests and definition files are range-checked where they are decoded
/// (issue 10): `timeout: 5124096h` used to load and crash the host on the first request.
@Suite("Manifest and definition ranges")
struct ConfigRangeTests {
    func manifestErrors(_ dir: TempDir, _ text: String) -> [String] {
        let path = dir.write("plugins.yaml", text)
        do {
            _ = try ManifestLoader.load(path: path)
            return []
        } catch {
            return error.diagnostics.map { $0.description.replacingOccurrences(of: dir.path, with: "$DIR") }
        }
    }

    @Test("durations and limits outside their range name the key, the range and the position")
    func manifestRanges() {
        let dir = TempDir()
        defer { dir.remove() }
        #expect(manifestErrors(dir, """
            host:
              conversation_timeout: 25h
            plugins:
              - id: a
                exec: /bin/true
                IntentsSupported: [AIntent]
                timeout: 5124096h
                priority: 2000000
                max_in_flight: 100001
              - id: b
                exec: /bin/true
                IntentsSupported: [BIntent]
                timeout: 9223372036854775807ms
                priority: -1000001
              - id: c
                exec: /bin/true
                IntentsSupported: [CIntent]
                timeout: 0.0001
            """) == [
            "$DIR/plugins.yaml:2:25: error: host.conversation_timeout: must be within 1ms…24h, got 25h",
            "$DIR/plugins.yaml:7:14: error: plugins[0].timeout: must be within 1ms…24h, got 5124096h",
            "$DIR/plugins.yaml:8:15: error: plugins[0].priority: must be within -1000000…1000000, got 2000000",
            "$DIR/plugins.yaml:9:20: error: plugins[0].max_in_flight: must be within 1…100000, got 100001",
            "$DIR/plugins.yaml:13:14: error: plugins[1].timeout: must be within 1ms…24h, got 9223372036854775.807s",
            "$DIR/plugins.yaml:14:15: error: plugins[1].priority: must be within -1000000…1000000, got -1000001",
            "$DIR/plugins.yaml:18:14: error: plugins[2].timeout: must be within 1ms…24h, got 0.0001s",
        ])
    }

    @Test("the bounds themselves are accepted")
    func manifestBoundsAccepted() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.write("plugins.yaml", """
            host:
              conversation_timeout: 24h
            plugins:
              - {id: a, exec: /bin/true, IntentsSupported: [AIntent], timeout: 1ms, priority: -1000000, max_in_flight: 100000}
              - {id: b, exec: /bin/true, IntentsSupported: [BIntent], timeout: 86400, priority: 1000000, max_in_flight: 1}
            """)
        let manifest = try ManifestLoader.load(path: path)
        #expect(manifest.host.conversationTimeout == .seconds(86_400))
        #expect(manifest.plugins.map(\.timeout) == [.milliseconds(1), .seconds(86_400)])
        #expect(manifest.plugins.map(\.priority) == [-1_000_000, 1_000_000])
        #expect(manifest.plugins.map(\.maxInFlight) == [100_000, 1])
    }

    @Test("the host refuses a manifest with a huge timeout: exit 6 with file:line:column")
    func hostRefusesHugeTimeout() {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.write("plugins.yaml", """
            host:
              state_dir: \(dir.path)/state
            plugins:
              - id: a
                exec: /bin/true
                IntentsSupported: [AIntent]
                timeout: 5124096h
            """)
        let r = runCommand(Products.path("intentbus"), ["host", "--config", path], timeout: 30)
        #expect(r.status == 6)
        #expect(r.stderr.contains("\(path):7:14: error: plugins[0].timeout: must be within 1ms…24h, got 5124096h"), "\(r.stderr)")
    }

    @Test("definition bounds and response code numbers outside their range")
    func definitionRanges() {
        let result = DefinitionLoader.decode(text: """
            intents:
              - name: BigIntent
                parameters:
                  - {name: a, type: Integer, minimum: -1e300, maximum: 1e16}
                  - {name: b, type: Decimal, minimum: -1000000000000000, maximum: 1000000000000000}
            """, file: "defs.yaml")
        #expect(result.errors.map(\.description) == [
            "defs.yaml:4:43: error: intents[0].parameters[0].minimum: must be within -1e15…1e15, got -1e+300",
            "defs.yaml:4:60: error: intents[0].parameters[0].maximum: must be within -1e15…1e15, got 1e+16",
        ])
        let standard = DefinitionLoader.decode(text: """
            intents:
              - name: INBigIntent
                response:
                  codes:
                    - {name: failureHuge, value: 9223372036854775807}
                    - {name: failureNegative, value: -1}
            """, file: "std.yaml", standard: true)
        #expect(standard.errors.map(\.description) == [
            "std.yaml:5:38: error: intents[0].response.codes[0].value: must be within 0…1000000, got 9223372036854775807",
            "std.yaml:6:42: error: intents[0].response.codes[1].value: must be within 0…1000000, got -1",
        ])
    }
}
