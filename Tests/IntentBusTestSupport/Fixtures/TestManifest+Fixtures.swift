/// Manifest entries for the plugins the package builds: the test plugins (Tests/Plugins)
/// with the keys their suites rely on, and the example plugins (Sources/Plugins) with
/// their definitions. Each returns a `Plugin` to change further with its modifiers.
extension TestManifest.Plugin {
    /// The intents the flow test plugin handles (Tests/Plugins/FlowTest).
    package static let flowIntents = [
        "SearchItemsIntent", "system.search", "SendNoteIntent", "messages.sendMessage", "OpenItemIntent",
        "FindAndOpenIntent", "FindThenAskIntent", "PingIntent", "PongIntent", "OpenNowhereIntent", "OpenLockedIntent",
        "BadViewIntent", "LockedIntent", "LocalOnlyIntent", "HandOverIntent",
    ]
    /// The intents the new-style test plugin handles (Tests/Plugins/NewStyleTest).
    package static let newStyleIntents = ["DefaultsIntent", "RequiredIntent", "QuestionsIntent", "PickItemIntent",
                                          "SecretIntent", "GreetAppIntent", "LegacyGreetIntent", "LegacyFarewellIntent"]
    /// The intents the legacy test plugin handles (Tests/Plugins/LegacyTest).
    package static let legacyIntents = ["ResolveIntent", "CodeIntent", "ConfirmIntent", "TypesIntent", "SecretIntent", "OptionsIntent"]

    // MARK: Test plugins

    /// The raw test plugin (Tests/Plugins/TestPlugin), claiming `intents` and told them
    /// through `TEST_INTENTS`; its behaviour is chosen by the request's parameters.
    package static func test(_ id: String, intents: [String] = ["TestIntent"], timeout: String = "10s",
                             env: [String: String] = [:]) -> Self {
        Self(id: id, name: "Test \(id)", exec: Products.path("plugin-testplugin"), intents: intents, timeout: timeout,
             env: ["TEST_INTENTS": intents.joined(separator: ",")].merging(env) { $1 })
    }

    /// The new-style (App Intents) test plugin (Tests/Plugins/NewStyleTest).
    package static func newStyle(_ id: String, intents: [String] = newStyleIntents, env: [String: String] = [:]) -> Self {
        Self(id: id, name: "New style \(id)", exec: Products.path("plugin-newstyletest"), intents: intents,
             timeout: "10s", env: env)
    }

    /// The flow test plugin (Tests/Plugins/FlowTest), with its definitions.
    package static func flow(_ id: String, intents: [String] = flowIntents, env: [String: String] = [:]) -> Self {
        Self(id: id, name: "Flow \(id)", exec: Products.path("plugin-flowtest"), intents: intents,
             definitions: [Products.file("Tests/Plugins/definitions/flowtest.yaml")], timeout: "10s", env: env)
    }

    /// The legacy test plugin (Tests/Plugins/LegacyTest), with its definition file unless
    /// `definitions` is false and, when given, the file it logs every phase call to.
    package static func legacy(_ id: String = "legacytest", callLog: String? = nil, definitions: Bool = true,
                               env: [String: String] = [:]) -> Self {
        Self(id: id, exec: Products.path("plugin-legacytest"), intents: legacyIntents,
             definitions: definitions ? [Products.file("Tests/Plugins/definitions/legacytest.yaml")] : [],
             env: env.merging(callLog.map { ["LEGACY_CALL_LOG": $0] } ?? [:]) { _, log in log })
    }

    /// An entry for the router core's tests: no process is started (`CoreHarness`), so the
    /// executable is only named.
    package static func core(_ id: String, intents: [String], timeout: String = "2s") -> Self {
        Self(id: id, exec: "/bin/true", intents: intents, timeout: timeout)
    }

    /// The SiriKit test plugin (Tests/Plugins/SiriKitTest): an Intents extension whose
    /// CompletionIntent calls its completion as the `mode` parameter says, and whose
    /// MessageIntentHandler (seed 001) and others handle the four standard intents.
    package static func siriKitTest(env: [String: String] = [:]) -> Self {
        Self(id: "sirikittest", exec: Products.path("plugin-sirikittest"),
             intents: ["CompletionIntent", "TypesIntent", "INSendMessageIntent", "INStartWorkoutIntent", "INSearchForPhotosIntent",
                       "INRequestRideIntent"],
             definitions: [Products.file("Tests/Plugins/SiriKitTest/Intents.intentdefinition")], timeout: "10s", env: env)
    }

    // MARK: Example plugins

    /// Balance (legacy, FONIC-style), with definitions/balance.yaml.
    package static func balance(_ id: String = "balance") -> Self {
        Self(id: id, exec: Products.path("plugin-balance"), intents: ["StatusIntent", "SwitchContractIntent", "TopUpIntent"],
             definitions: [Products.file("definitions/balance.yaml")])
    }

    /// Balance as a SiriKit Intents extension (Sources/Plugins/BalanceSiriKit: seed 000's
    /// handler on the generated classes), on the FONIC Xcode definition; it handles StatusIntent and SwitchContractIntent.
    package static func balanceSiriKit(env: [String: String] = [:]) -> Self {
        Self(id: "balance-sirikit", exec: Products.path("plugin-balance-sirikit"), intents: ["StatusIntent", "SwitchContractIntent"],
             definitions: [Products.file("definitions/FONIC/de.lproj/Intents.intentdefinition")], timeout: "10s", env: env)
    }

    /// Messenger (legacy), with definitions/messenger.yaml.
    package static func messenger() -> Self {
        Self(id: "messenger", exec: Products.path("plugin-messenger"), intents: ["INSendMessageIntent", "MessageStatusIntent"],
             definitions: [Products.file("definitions/messenger.yaml")])
    }

    /// Cart (half legacy, half new-style), with definitions/cart.yaml.
    package static func cart(intents: [String] = ["ShowCartIntent", "ShowCartAppIntent", "AddToCartIntent"]) -> Self {
        Self(id: "cart", exec: Products.path("plugin-cart"), intents: intents,
             definitions: [Products.file("definitions/cart.yaml")])
    }

    /// FocusFlow (new-style), keeping its projects in `data` when given.
    package static func focusFlow(data: String? = nil) -> Self {
        Self(id: "focusflow", exec: Products.path("plugin-focusflow"),
             intents: ["StartFocusSessionIntent", "OpenProjectIntent", "SearchProjectsIntent", "CreateProjectIntent",
                       "EditProjectIntent"],
             env: data.map { ["FOCUSFLOW_DATA": $0] } ?? [:])
    }

    /// Chat (new-style).
    package static func chat() -> Self {
        Self(id: "chat", exec: Products.path("plugin-chat"), intents: ["INSendMessageIntent"])
    }

    /// Echo (raw): answers EchoIntent with its parameters.
    package static func echo(_ id: String = "echo") -> Self {
        Self(id: id, exec: Products.path("plugin-echo"), intents: ["EchoIntent"])
    }
}

extension TestManifest {
    /// A manifest for the router core's tests: its state directory does not exist, and
    /// nothing is ever started from it.
    package static func core(_ plugins: [Plugin], host extra: [String] = []) -> TestManifest {
        TestManifest(plugins, host: Host(stateDir: "/nonexistent/core-test/state", extra: extra))
    }
}
