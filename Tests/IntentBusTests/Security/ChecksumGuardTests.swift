import Foundation
import IntentBusProcess
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

    /// A directory of its own, removed by the caller.
    private static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ibexec-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        return dir
    }

    @Test("the file that was hashed is the one that runs: a program renamed over the path after the check does not")
    func hashedDescriptorRuns() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("plugin").path
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: path)
        let sum = try #require(ProcessGuards.digest(of: "/bin/true"))
        let guards = ProcessGuards()
        guard case .verified(let file) = guards.openChecked(path: path, expected: sum) else {
            Issue.record("the right digest was refused")
            return
        }
        defer { close(file.descriptor) }
        #expect(!file.isScript)
        // Between the check and the exec, another program takes the path (a rename, as
        // an update or an attacker would do it): /bin/false, which exits 1.
        let other = dir.appendingPathComponent("other").path
        try FileManager.default.copyItem(atPath: "/bin/false", toPath: other)
        #expect(rename(other, path) == 0)
        var spec = ProcessSpec(executable: path)
        spec.executableDescriptor = file.descriptor
        #expect(try ChildProcess.spawn(spec).wait() == .exited(0), "the checked /bin/true must run")
        // By path, as the host did before: the swapped program runs.
        #expect(try ChildProcess.spawn(ProcessSpec(executable: path)).wait() == .exited(1))
        // And the next start checks the new file, and refuses it.
        #expect(guards.checksumProblem(path: path, expected: sum)?.contains("not the manifest's sha256") == true)
    }

    @Test("a #! script is recognised (it runs by path: its interpreter opens it by name)")
    func scriptsAreRecognised() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("plugin.sh").path
        try "#!/bin/sh\nexit 3\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o700)
        let sum = try #require(ProcessGuards.digest(of: path))
        guard case .verified(let file) = ProcessGuards().openChecked(path: path, expected: sum) else {
            Issue.record("the right digest was refused")
            return
        }
        close(file.descriptor)
        #expect(file.isScript)
    }
}
