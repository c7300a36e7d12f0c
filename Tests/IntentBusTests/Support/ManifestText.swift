import Foundation
import IntentBusTestSupport

// Transitional: the text helpers the suites used before TestManifest.

extension TestHost {
    convenience init(plugins: String, hostExtra: String = "", dir: TempDir = TempDir(), waitReady: [String] = []) throws {
        try self.init(yaml: "host:\n  state_dir: state\n\(hostExtra)\nplugins:\n\(plugins)\n", dir: dir, waitReady: waitReady)
    }
}

func testPlugin(_ id: String, intents: [String] = ["TestIntent"], timeout: String = "10s", env: [String: String] = [:],
                extra: [String] = []) -> String {
    var lines = [
        "  - id: \(id)",
        "    name: Test \(id)",
        "    exec: \(Products.path("plugin-testplugin"))",
        "    IntentsSupported: [\(intents.joined(separator: ", "))]",
        "    timeout: \(timeout)",
        "    env:",
        "      TEST_INTENTS: \(intents.joined(separator: ","))",
    ]
    for (k, v) in env.sorted(by: { $0.key < $1.key }) { lines.append("      \(k): \"\(v)\"") }
    lines += extra.map { "    " + $0 }
    return lines.joined(separator: "\n")
}

func coreManifest(_ plugins: [(id: String, intents: [String])], host: String = "") -> String {
    var out = "host:\n  state_dir: /nonexistent/core-test/state\n\(host)\nplugins:\n"
    for p in plugins {
        out += "  - id: \(p.id)\n    exec: /bin/true\n    IntentsSupported: [\(p.intents.joined(separator: ", "))]\n    timeout: 2s\n"
    }
    return out
}
