import Foundation
import Testing
@testable import IntentBusManifest

/// Loading time must grow with the manifest, not with its square (docs/reliability.md,
/// "Manifest loading").
@Suite("Manifest loading at scale")
struct ManifestScaleTests {
    @Test("20,000 entries whose exec is missing load in linear time (13 s when errors were filtered per entry)")
    func manyMissingExecs() throws {
        var text = "host:\n  state_dir: state\nplugins:\n"
        for i in 0..<20_000 {
            text += "  - id: p\(i)\n    exec: [/nonexistent/plugin-\(i)]\n    IntentsSupported: [Intent\(i)]\n"
        }
        // CPU time of this thread: the machine's other load does not count.
        let started = Self.threadCPUSeconds()
        let manifest = try ManifestLoader.load(text: text, path: "/tmp/scale/plugins.yaml")
        let took = Self.threadCPUSeconds() - started
        #expect(manifest.plugins.count == 20_000)
        #expect(manifest.warnings.count == 20_000)
        print("20,000 entries with a missing exec: loaded in \(took) s of CPU")
        #expect(took < 6, "\(took) s")
    }

    private static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
