import Foundation
import Testing
import PluginHost

/// A fresh directory per test, so that tests can run in parallel.
package struct ManifestDirectory {
    package let path: String

    package init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("intentbus-manifest-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` (which may contain subdirectories) and returns the path.
    @discardableResult
    package func write(_ name: String, _ text: String) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Writes `manifest` as `plugins.yaml` and loads it.
    package func load(_ manifest: TestManifest) throws -> Manifest { try load(manifest.yaml) }

    /// Writes `plugins.yaml` and loads it.
    package func load(_ manifest: String) throws -> Manifest {
        try ManifestLoader.load(path: write("plugins.yaml", manifest))
    }

    /// Writes `plugins.yaml`, expects loading to fail, and returns the diagnostics with
    /// the directory replaced by `$DIR`.
    package func errors(_ manifest: String) throws -> [String] {
        let file = try write("plugins.yaml", manifest)
        do {
            _ = try ManifestLoader.load(path: file)
            Issue.record("expected the manifest to be rejected")
            return []
        } catch {
            return error.diagnostics.map { $0.description.replacingOccurrences(of: path, with: "$DIR") }
        }
    }

    /// Expects loading `manifest` to fail with exactly `expected` (see `errors`).
    package func expectErrors(
        _ manifest: String, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let actual = try errors(manifest)
        #expect(actual == expected, sourceLocation: sourceLocation)
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
