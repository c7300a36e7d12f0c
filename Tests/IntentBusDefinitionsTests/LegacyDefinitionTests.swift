import Foundation
import Testing
import IntentBusCore
@testable import IntentBusDefinitions
@testable import IntentBusManifest
import IntentBusTestSupport

/// Intent definition files: decoding, the checks with file:line:column, the built-in
/// standard intents, format strings and parameter checking. Pure value code, no
/// processes.
@Suite("Legacy definitions")
struct LegacyDefinitionTests {
    /// The repository's definitions directory.
    static let definitionsDirectory = "\(Products.root)/definitions"

    private func decode(_ text: String) -> DefinitionLoader.FileResult {
        DefinitionLoader.decode(text: text, file: "defs.yaml")
    }

    @Test("the FONIC definition decodes: custom codes from 100, generic codes kept, success overridden")
    func balanceDefinition() throws {
        let text = try String(contentsOfFile: "\(Self.definitionsDirectory)/balance.yaml", encoding: .utf8)
        let result = DefinitionLoader.decode(text: text, file: "balance.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let status = try #require(result.definitions.first { $0.name == "StatusIntent" })
        #expect(status.category == "information")
        #expect(status.examplePhrases.first == "Zeige mein FONIC Konto")
        let codes = Dictionary(uniqueKeysWithValues: status.codes.map { ($0.name, $0) })
        #expect(codes["unspecified"]?.value == 0)
        #expect(codes["failureRequiringAppLaunch"]?.value == 6)
        #expect(codes["success"]?.value == 4)
        #expect(codes["success"]?.formatString == "Sie haben ${balance} Guthaben.")
        #expect(codes["successData"]?.value == 100)
        #expect(codes["successData"]?.success == true)
        #expect(codes["userMissing"]?.value == 103)
        #expect(codes["userMissing"]?.success == false)
        let switchContract = try #require(result.definitions.first { $0.name == "SwitchContractIntent" })
        let contract = try #require(switchContract.parameter("contract"))
        #expect(contract.type == .object("Contract"))
        #expect(contract.required)
        #expect(contract.prompts.disambiguationSelection == "Welchen meinen Sie?")
        #expect(contract.unsupportedReasons.map(\.code) == ["unknownContract"])
        let topUp = try #require(result.definitions.first { $0.name == "TopUpIntent" })
        #expect(topUp.parameter("amount")?.minimum == 5)
        #expect(topUp.parameter("amount")?.maximum == 100)
    }

    @Test("every definition file in the repository is valid")
    func repositoryDefinitions() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.definitionsDirectory) where name.hasSuffix(".yaml") {
            let text = try String(contentsOfFile: "\(Self.definitionsDirectory)/\(name)", encoding: .utf8)
            let result = DefinitionLoader.decode(text: text, file: name)
            #expect(result.errors.isEmpty, "\(name): \(result.errors)")
            #expect(!result.definitions.isEmpty, "\(name) defines no intent")
        }
    }

    @Test("standard intents are built in, each with its own response-code set")
    func standardIntents() throws {
        #expect(StandardIntents.names == ["INRequestRideIntent", "INSearchForPhotosIntent", "INSendMessageIntent", "INStartWorkoutIntent"])
        let send = try #require(StandardIntents.definitions["INSendMessageIntent"])
        // Apple's INSendMessageIntent: recipients is a list of persons.
        #expect(send.parameters.map(\.name) == ["recipients", "content", "speakableGroupName", "outgoingMessageType", "serviceName"])
        #expect(send.parameter("recipients")?.multiple == true)
        #expect(send.parameter("recipients")?.type == .object("Person"))
        #expect(send.enums["OutgoingMessageType"]?.cases.map(\.name) == ["unknown", "outgoingMessageText", "outgoingMessageAudio"])
        #expect(send.types["Person"]?.properties.map(\.name) == ["displayName", "handle", "handleType"])
        #expect(send.code("failureMessageServiceNotAvailable")?.value == 6)
        #expect(send.code("failureRequiringInAppAuthentication")?.value == 7)
        #expect(send.code("continueInApp") == nil)
        let workout = try #require(StandardIntents.definitions["INStartWorkoutIntent"])
        #expect(workout.parameter("workoutLocationType")?.type == .enumeration("WorkoutLocationType"))
        #expect(workout.code("failureOngoingWorkout")?.value == 5)
        let ride = try #require(StandardIntents.definitions["INRequestRideIntent"])
        #expect(ride.parameter("partySize")?.maximum == 8)
        #expect(StandardIntents.definitions["INSearchForPhotosIntent"]?.parameter("searchTerms")?.multiple == true)
        // Any plugin gets them without a definition file.
        #expect(DefinitionCatalog().definition(of: "INSendMessageIntent", plugin: "anyone")?.isStandard == true)
    }

    @Test("broken definitions: every problem is reported with its line and column")
    func brokenDefinition() {
        let result = decode("""
        intents:
          - name: BrokenIntent
            category: informaton
            parameters:
              - {name: a, type: String}
              - {name: b, type: Strng}
              - {name: c, type: String, minimum: 3}
              - {name: d, type: Integer, minimum: 10, maximum: 1}
              - {name: e, type: Integer, default: "many"}
              - {name: f, type: Boolean}
            response:
              parameters:
                - {name: balance, type: String}
              codes:
                - name: done
                  success: true
                  formatString: You have ${balanc} left.
                - name: done
                  formatString: Again.
                - name: broken
                  formatString: "Oops ${"
        """)
        let lines = result.diagnostics.map(\.description)
        #expect(lines.contains("defs.yaml:3:15: error: intents[0].category: unknown category 'informaton'; did you mean 'information'? (categories: \(DefinitionAssembler.categories.joined(separator: ", ")))"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("defs.yaml:4:5: warning: intents[0].parameters: BrokenIntent has 6 parameters; Apple advises at most 5") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("defs.yaml:6:25: error: intents[0].parameters[1].type: unknown type 'Strng'; did you mean 'String'?") }, "\(lines)")
        #expect(lines.contains("defs.yaml:7:42: error: intents[0].parameters[2].minimum: String parameters have no minimum; only Integer, Decimal, Duration and CurrencyAmount do"), "\(lines)")
        #expect(lines.contains("defs.yaml:8:56: error: intents[0].parameters[3].maximum: maximum 1 is below minimum 10"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("defs.yaml:9:43: error: intents[0].parameters[4].default: invalid default: expected an Integer") }, "\(lines)")
        // The placeholder's own column: "formatString: You have ${balanc}" starts at 25.
        #expect(lines.contains("defs.yaml:17:34: error: intents[0].response.codes[0].formatString: '${balanc}' names no response parameter; did you mean '${balance}'? (known: balance)"), "\(lines)")
        #expect(lines.contains("defs.yaml:18:17: error: intents[0].response.codes[1].name: duplicate response code 'done' (first at line 15)"), "\(lines)")
        #expect(lines.contains("defs.yaml:21:31: error: intents[0].response.codes[2].formatString: malformed placeholder: '${' has no closing '}'"), "\(lines)")
        #expect(result.definitions.isEmpty)
    }

    @Test("undeclared placeholders in prompts, duplicate parameters, enums and unknown keys")
    func moreChecks() {
        let result = decode("""
        enums:
          - name: Size
            cases: [small, small]
        intents:
          - name: SizeIntent
            parameters:
              - name: size
                type: Size
                prompts:
                  primary: Which ${sise}?
                  confirmation: Use ${value} for ${displayName}?
              - {name: size, type: String}
            response:
              codes:
                - {name: success, value: 9}
        """)
        let lines = result.diagnostics.map(\.description)
        #expect(lines.contains("defs.yaml:3:20: error: enums[0].cases[1]: case 'small' is listed twice"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("defs.yaml:10:26: error: intents[0].parameters[0].prompts.primary: '${sise}' names no parameter; did you mean '${size}'?") }, "\(lines)")
        #expect(lines.contains("defs.yaml:12:16: error: intents[0].parameters[1]: parameter 'size' is declared twice (first at line 7)"), "\(lines)")
        // Only standard intents number their own codes.
        #expect(lines.contains { $0.hasPrefix("defs.yaml:15:27: error: intents[0].response.codes[0]: unknown key 'value'") }, "\(lines)")
    }

    @Test("the manifest's definition files are checked against it")
    func manifestLevelChecks() throws {
        let dir = TempDir()
        defer { dir.remove() }
        _ = dir.write("defs/a.yaml", """
        intents:
          - name: AIntent
          - name: INSendMessageIntent
          - name: UnclaimedIntent
        """)
        let manifestPath = dir.write("plugins.yaml", """
        plugins:
          - id: a
            exec: /bin/true
            IntentsSupported: [AIntent]
            definitions: [defs/a.yaml, defs/missing.yaml]
        """)
        let manifest = try ManifestLoader.load(path: manifestPath)
        #expect(throws: ConfigError.self) { try DefinitionLoader.load(manifest: manifest) }
        do {
            _ = try DefinitionLoader.load(manifest: manifest)
        } catch {
            let lines = error.diagnostics.map(\.description)
            #expect(lines.contains("defs/a.yaml:3:11: error: 'INSendMessageIntent' is a built-in standard intent; its shape is fixed and needs no definition (rename the custom intent)"), "\(lines)")
            #expect(lines.contains { $0.contains("plugin a: cannot read the definition file defs/missing.yaml: no such file") }, "\(lines)")
        }
        // Without the broken parts, the unclaimed intent is only a warning.
        _ = dir.write("defs/a.yaml", "intents:\n  - name: AIntent\n  - name: UnclaimedIntent\n")
        _ = dir.write("plugins.yaml", """
        plugins:
          - id: a
            exec: /bin/true
            IntentsSupported: [AIntent]
            definitions: [defs/a.yaml]
        """)
        let catalog = try DefinitionLoader.load(manifest: try ManifestLoader.load(path: manifestPath))
        #expect(catalog.definition(of: "AIntent", plugin: "a") != nil)
        #expect(catalog.definition(of: "AIntent", plugin: "b") == nil)
        #expect(catalog.warnings.map(\.description) == ["defs/a.yaml:3:11: warning: 'UnclaimedIntent' is defined but plugin a does not list it in IntentsSupported; no request will reach it"])
    }

    @Test("a restricted intent that is not supported is refused when the manifest loads")
    func restrictedNotSupported() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.write("plugins.yaml", """
        plugins:
          - id: a
            exec: /bin/true
            IntentsSupported: [AIntent]
            IntentsRestrictedWhileLocked: [BIntent]
        """)
        do {
            _ = try ManifestLoader.load(path: path)
            Issue.record("expected the manifest to be rejected")
        } catch {
            #expect(error.diagnostics.map(\.description).contains { $0.hasSuffix("plugins.yaml:5:36: error: plugins[0].IntentsRestrictedWhileLocked[0]: 'BIntent' is not in IntentsSupported; a plugin can only restrict intents it supports") },
                    "\(error.diagnostics)")
        }
    }

    @Test("format strings: placeholders found, rendered, missing ones reported")
    func formatStrings() throws {
        let format = FormatString("Sie haben ${dataUnitsLeft} von ${dataUnitsTotal} und ${balance} Guthaben.")
        #expect(try format.placeholders().map(\.name) == ["dataUnitsLeft", "dataUnitsTotal", "balance"])
        let rendered = format.render(["dataUnitsLeft": "11,0 GB", "dataUnitsTotal": "11,0 GB"])
        #expect(rendered.text == "Sie haben 11,0 GB von 11,0 GB und  Guthaben.")
        #expect(rendered.missing == ["balance"])
        #expect(throws: FormatStringError.self) { try FormatString("${a b}").placeholders() }
        #expect(FormatString("costs $5, ${x}").render(["x": "ok"]).text == "costs $5, ok")
    }

    @Test("parameter values: lenient where a person means it, strict where they can't")
    func coercion() throws {
        let text = try String(contentsOfFile: "\(Products.root)/Tests/Plugins/definitions/legacytest.yaml", encoding: .utf8)
        let types = try #require(DefinitionLoader.decode(text: text, file: "t.yaml").definitions.first { $0.name == "TypesIntent" })
        func check(_ name: String, _ value: JSON) -> Result<JSON, CoercionProblem> {
            ParameterCoercion.coerce(value, types.parameter(name)!, in: types)
        }
        #expect(try check("count", 3).get() == 3)
        #expect(try check("count", "7").get() == 7)
        #expect(try check("count", 4.0).get() == 4)
        #expect(throws: CoercionProblem.self) { try check("count", "many").get() }
        #expect(throws: CoercionProblem.self) { try check("count", 2.5).get() }
        #expect(throws: CoercionProblem.self) { try check("count", 11).get() }
        #expect(try check("ratio", "0,5").get() == 0.5)
        #expect(try check("flag", "yes").get() == true)
        #expect(try check("when", "2024-05-01").get() == "2024-05-01")
        #expect(try check("when", "2024-05-01T09:30:00Z").get() == "2024-05-01T09:30:00Z")
        #expect(throws: CoercionProblem.self) { try check("when", "tomorrow").get() }
        #expect(try check("length", "1h30m").get() == 5400)
        #expect(try check("length", "PT25M").get() == 1500)
        #expect(try check("length", 90).get() == 90)
        #expect(try check("price", "12,50 €").get() == ["amount": 12.5, "currency": "EUR"])
        #expect(try check("price", ["amount": 3, "currency": "usd"]).get() == ["amount": 3.0, "currency": "USD"])
        #expect(try check("color", "Grün").get() == "green")
        #expect(throws: CoercionProblem.self) { try check("color", "blue").get() }
        #expect(try check("tags", "one").get() == ["one"])
        #expect(try check("tags", ["a", 2]).get() == ["a", "2"])
    }
}
