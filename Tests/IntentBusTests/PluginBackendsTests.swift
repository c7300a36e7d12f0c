import Foundation
import Testing
import IntentBus
@testable import IntentBusPlugin

/// The Swift plugin SDK's several backends (`INTENTBUS_BACKEND=A,B`), without sockets: how
/// endpoints pair with host keys, and that a plugin whose keys don't pair up does not start.
/// The end-to-end proof (two CURVE hosts, one SIGKILLed and restarted) is
/// clients/python/tests/test_e2e_run_once.py, run with the Swift test plugin.
@Suite("Plugin on several backends")
struct PluginBackendsTests {
    @Test("one key for all backends, one per backend, or none; anything else is refused")
    func pairs() throws {
        let one = try BackendLink.pairs(backend: "tcp://a:1, tcp://b:2", serverKeys: "K")
        #expect(one.map(\.endpoint) == ["tcp://a:1", "tcp://b:2"] && one.map(\.serverKey) == ["K", "K"])
        let each = try BackendLink.pairs(backend: "tcp://a:1,tcp://b:2", serverKeys: "KA,KB")
        #expect(each.map(\.serverKey) == ["KA", "KB"])
        let none = try BackendLink.pairs(backend: "ipc:///x,ipc:///y,", serverKeys: nil)
        #expect(none.count == 2 && none.allSatisfy { $0.serverKey == nil })
        #expect(throws: PluginStartError.self) { try BackendLink.pairs(backend: "tcp://a:1,tcp://b:2,tcp://c:3", serverKeys: "KA,KB") }
        let environment = ["INTENTBUS_BACKEND": "tcp://a:1,tcp://b:2,tcp://c:3", "INTENTBUS_PLUGIN_ID": "far",
                           "INTENTBUS_SERVER_KEY": "KA,KB"]
        #expect { try PluginRuntime(environment: environment) } throws: { error in
            "\(error)".contains("names 2 host keys for 3 backends")
        }
    }
}
