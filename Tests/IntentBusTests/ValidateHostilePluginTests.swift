import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// `intentbus validate --exec` against programs that are no well-behaved plugin: they
/// flood their output, hang, or fail; each gets a clear error within its bounds, and
/// nothing is left running (the spawner's run-to-completion, IntentBusProcess).
@Suite("validate against hostile plugins")
struct ValidateHostilePluginTests {
    let intentbus = Products.path("intentbus")

    /// A shell script `name` in `dir`, executable.
    private func script(_ dir: TempDir, _ name: String, _ body: String) -> String {
        let path = dir.write(name, "#!/bin/sh\n\(body)\n")
        chmod(path, 0o755)
        return path
    }

    /// Runs `validate --exec` on a script made of `body`, which starts by writing its pid:
    /// the result, how long it took, and whether that process was gone afterwards.
    private func validateScript(_ body: String) throws -> (result: CommandResult, took: Duration, gone: Bool) {
        let dir = TempDir()
        defer { dir.remove() }
        let path = script(dir, "plugin.sh", "echo $$ > \(dir.path)/pid\n\(body)")
        let start = ContinuousClock.now
        let result = runCommand(intentbus, ["validate", "--exec", path])
        let took = ContinuousClock.now - start
        let text = try String(contentsOfFile: "\(dir.path)/pid", encoding: .utf8)
        let pid = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        return (result, took, kill(pid, 0) != 0)
    }

    @Test("a plugin printing without end is stopped once it passes the 4 MiB cap, and the error says so")
    func flood() throws {
        let (result, took, gone) = try validateScript("exec yes 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'")
        #expect(result.status != 0)
        #expect(result.stderr.contains("describe mode wrote more than 4 MiB on its output (declarations are a few kB); stopped it"),
                "\(result.stderr)")
        #expect(took < .seconds(9), "stopped at the cap, before the 10 s timeout")
        #expect(gone, "the flooding plugin is gone")
    }

    @Test("a plugin that never exits (and ignores SIGTERM) is stopped after the timeout")
    func hang() throws {
        let (result, took, gone) = try validateScript("trap '' TERM; echo starting >&2; exec sleep 60")
        #expect(result.status != 0)
        #expect(result.stderr.contains("describe mode did not exit within 10.0 seconds"), "\(result.stderr)")
        #expect(result.stderr.contains("starting"))
        #expect(took >= .seconds(10) && took < .seconds(30), "\(took)")
        #expect(gone, "the hanging plugin is gone")
    }

    @Test("a failing plugin's exit status or signal and its stderr are shown; a missing one is named")
    func failures() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let fails = runCommand(intentbus, ["validate", "--exec", script(dir, "fails.sh", "echo 'no config' >&2; exit 3")])
        #expect(fails.status != 0)
        #expect(fails.stderr.contains("describe mode exited with status 3:\nno config"), "\(fails.stderr)")
        let crashes = runCommand(intentbus, ["validate", "--exec", script(dir, "crashes.sh", "kill -SEGV $$")])
        #expect(crashes.stderr.contains("describe mode was killed by signal 11 (SIGSEGV)"), "\(crashes.stderr)")
        let missing = runCommand(intentbus, ["validate", "--exec", "\(dir.path)/not-built"])
        #expect(missing.stderr.contains("\(dir.path)/not-built is not an executable file (build it first: swift build)"),
                "\(missing.stderr)")
    }
}
