import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// The short form of `make scale-out` (docs/scale-out.md): the real harness, three hosts on
/// one PostgreSQL server the run starts itself, two remote plugins connected to all three,
/// four clients, hosts SIGKILLed by pid while requests run; its line counts what happened.
@Suite("Scale-out run, short form", .serialized)
struct ScaleOutTests {
    @Test("600 requests on one PostgreSQL with remote plugins on every host, while hosts are killed and restarted: every one gets a final, none runs twice (a resent one neither), no acknowledged write is lost")
    func sharedStateRemotePlugins() throws {
        let result = run(["--postgres", "--remote"])
        try check(result)
        #expect(result.stdout.contains("remote plugins alpha, beta on all 3 hosts, up throughout; state on the run's own PostgreSQL"), "\(result.stdout)")
    }

    func run(_ extra: [String]) -> CommandResult {
        runCommand(Products.path("intentbus-scale-out"), ["--requests", "600", "--seconds", "60"] + extra, timeout: 120)
    }

    func check(_ run: CommandResult) throws {
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("600 requests, 600 finals, 0 lost, 0 doubled, 0 acknowledged writes lost"), "\(run.stdout)")
        // The chaos really happened, the plugins really counted, writes were acknowledged.
        let kills = run.stdout.firstMatch(of: /hosts SIGKILLed and restarted: (\d+)/).flatMap { Int($0.1) } ?? 0
        #expect(kills >= 1, "\(run.stdout)")
        let logged = run.stdout.firstMatch(of: /plugin runs logged: (\d+)/).flatMap { Int($0.1) } ?? 0
        #expect(logged >= 500, "\(run.stdout)")
        let writes = run.stdout.firstMatch(of: /acknowledged writes (\d+)/).flatMap { Int($0.1) } ?? 0
        #expect(writes >= 30, "\(run.stdout)")
    }
}
