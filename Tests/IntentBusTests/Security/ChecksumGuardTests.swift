import Foundation
@testable import PluginHost
import Testing

/// `sha256` never lets an executable through unchecked (issue 23, docs/security.md).
@Suite("sha256 guard")
struct ChecksumGuardTests {
    @Test("an executable whose digest can't be computed is refused, not started unchecked")
    func unreadableIsRefused() throws {
        // A directory stands for a file that can't be read (the tests run as root, who
        // can read any file): stat succeeds, reading fails.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ibsum-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        let problem = ProcessGuards().checksumProblem(path: dir.path, expected: String(repeating: "0", count: 64))
        #expect(problem?.contains("can't be read to check its sha256") == true, "\(problem ?? "nil")")
    }

    @Test("a missing executable is left to the spawn, which names it")
    func missingIsTheSpawnsToReport() {
        #expect(ProcessGuards().checksumProblem(path: "/nonexistent/ib-plugin", expected: String(repeating: "0", count: 64)) == nil)
    }
}
