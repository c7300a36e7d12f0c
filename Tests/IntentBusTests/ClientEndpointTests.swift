import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// Client commands find the host through the manifest's `host:` section only: a broken
/// drop-in or plugin entry is the host's business (docs/manifest.md, "Drop-ins").
@Suite("Client commands and a broken manifest", .serialized)
struct ClientEndpointTests {
    let intentbus = Products.path("intentbus")

    @Test("a drop-in with errors does not stop send or plugins; describe still reports it; a bad host section does")
    func brokenDropIn() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        _ = host.dir.write("plugins.d/broken.yaml", "id: broken\nexec: [\n")
        _ = host.dir.write("plugins.d/invalid.yaml", "id: Not An Id\nIntentsSupported: 7\n")
        let config = ["--config", host.manifestPath]

        let send = runCommand(intentbus, ["send", "TestIntent", "n=1", "--json"] + config)
        #expect(send.status == 0, "\(send.stderr)")
        #expect(try JSON.parse(send.stdout)["body"]?["params"]?["n"] == 1)
        let plugins = runCommand(intentbus, ["plugins"] + config)
        #expect(plugins.status == 0, "\(plugins.stderr)")
        #expect(plugins.stdout.contains("alpha"), "\(plugins.stdout)")
        let viaEnvironment = runCommand(intentbus, ["plugins"], environment: ["INTENTBUS_CONFIG": host.manifestPath])
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.stderr)")

        // Commands that read the plugins still check them, and name each error.
        let validate = runCommand(intentbus, ["describe", "TestIntent"] + config)
        #expect(validate.status == 6)
        #expect(validate.stderr.contains("plugins.d/broken.yaml:"), "\(validate.stderr)")
        #expect(validate.stderr.contains("plugins.d/invalid.yaml:1:"), "\(validate.stderr)")

        // An error in host: leaves the endpoint unknown: exit 6, with its position.
        let badHost = host.dir.write("badhost.yaml", "host:\n  frontend: nowhere\nplugins: []\n")
        let unknown = runCommand(intentbus, ["plugins", "--config", badHost])
        #expect(unknown.status == 6, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("badhost.yaml:2:"), "\(unknown.stderr)")
    }
}
