import Foundation
import Testing
import IntentBusTestSupport

/// intentbus-intentgen, the generator the IntentDefinitionPlugin runs: Xcode's names and
/// signatures for the FONIC definition, Swift that type-checks for the public apps'
/// definitions, and clear errors for a file it cannot use.
@Suite("Intent class generator")
struct IntentGeneratorTests {
    private func generate(_ definition: String, in dir: TempDir) -> (CommandResult, String) {
        let output = "\(dir.path)/Generated.swift"
        let result = runCommand(Products.path("intentbus-intentgen"), [definition, output])
        return (result, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    @Test("the FONIC definition gets Xcode's classes, codes, per-code initializers and handling protocols")
    func fonicNames() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let (result, swift) = generate(Products.file("definitions/FONIC/de.lproj/Intents.intentdefinition"), in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        for line in [
            "public class StatusIntent: INIntent",
            "public class StatusIntentResponse: INIntentResponse",
            "public init(code: StatusIntentResponseCode, userActivity: NSUserActivity?)",
            // Xcode's numbering: the standard codes from 0, the definition's own from 100.
            "public enum StatusIntentResponseCode: Int {\n    case unspecified = 0\n    case ready\n    case continueInApp\n    case inProgress\n    case success\n    case failure\n    case failureRequiringAppLaunch\n    case successData = 100\n    case successPhone\n    case successDataAndPhone\n    case userMissing\n}",
            "public static func successData(dataUnitsLeft: String, dataUnitsTotal: String, balance: String) -> StatusIntentResponse",
            "public var phoneDescription: String?",
            "public protocol StatusIntentHandling: AnyObject",
            "func handle(intent: StatusIntent, completion: @escaping (StatusIntentResponse) -> Void)",
            "func confirm(intent: SwitchContractIntent, completion: @escaping (SwitchContractIntentResponse) -> Void)",
            "func resolveContract(for intent: SwitchContractIntent, with completion: @escaping (ContractResolutionResult) -> Void)",
            "func resolveAmount(for intent: TopUpIntent, with completion: @escaping (INIntegerResolutionResult) -> Void)",
            "public var amount: NSNumber?",
            "public class Contract: INObject",
            "public class func disambiguation(with contractsToDisambiguate: [Contract]) -> Self",
            "func INExtensionMain(_ extensionType: INExtension.Type) -> Never",
        ] {
            #expect(swift.contains(line), "missing: \(line)")
        }
        // INObject's own properties are not repeated in the custom type's class.
        #expect(!swift.contains("public var displayString"))
    }

    @Test("the public apps' definitions (home-assistant, a-Shell) generate Swift that type-checks against Intents",
          arguments: XcodeDefinitionTests.realFiles)
    func realFilesTypeCheck(name: String) throws {
        let path = "\(XcodeDefinitionTests.appleDirectory)/\(name)"
        try #require(FileManager.default.fileExists(atPath: path), "the real Xcode files are missing: expected \(path)")
        let dir = TempDir()
        defer { dir.remove() }
        let (result, swift) = generate(path, in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(swift.contains("INExtensionMain"))
        let swiftc = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/opt/swift/usr/bin/swiftc"
        let check = runCommand(swiftc, ["-typecheck", "-swift-version", "6", "-I", "\(Products.binDir)/Modules",
                                        "-Xcc", "-fmodule-map-file=\(Products.file("Sources/CZeroMQ/module.modulemap"))",
                                        "-Xcc", "-fmodule-map-file=\(Products.binDir)/CLinuxSupport.build/module.modulemap",
                                        "\(dir.path)/Generated.swift"], timeout: 120)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test("a name Swift cannot take, an enum index used twice, and a corrupt file are errors naming the file and the key path")
    func errors() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let plist = try String(contentsOfFile: Products.file("Tests/Plugins/SiriKitTest/Intents.intentdefinition"), encoding: .utf8)
        let bad = dir.write("bad.intentdefinition", plist.replacingOccurrences(of: "<string>CompletionIntent</string>",
                                                                               with: "<string>Completion Intent</string>"))
        let (badName, _) = generate(bad, in: dir)
        #expect(badName.status == 1)
        #expect(badName.stderr.contains("bad.intentdefinition: INIntents[0].INIntentName: 'Completion Intent' is not a Swift identifier"),
                "\(badName.stderr)")
        let clash = dir.write("clash.intentdefinition", plist.replacingOccurrences(of: "<integer>2</integer>\n\t\t\t\t\t<key>INEnumValueName</key>",
                                                                                   with: "<integer>1</integer>\n\t\t\t\t\t<key>INEnumValueName</key>"))
        let (clashing, _) = generate(clash, in: dir)
        #expect(clashing.status == 1)
        #expect(clashing.stderr.contains("INEnums[0].INEnumValues[2].INEnumValueIndex: 1 is 0 (unknown's) or used by another case"),
                "\(clashing.stderr)")
        let corrupt = dir.write("corrupt.intentdefinition", String(plist.prefix(300)))
        let (broken, _) = generate(corrupt, in: dir)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("corrupt.intentdefinition"), "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir.path)/Generated.swift"), "no output for a file with errors")
    }

    @Test("a YAML definition gets the classes of the .intentdefinition it converts to; a YAML error names the file and line")
    func yamlDefinitions() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let (result, swift) = generate(Products.file("definitions/balance.yaml"), in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        for line in [
            "public class StatusIntent: INIntent",
            "public init(code: StatusIntentResponseCode, userActivity: NSUserActivity?)",
            "public static func successData(dataUnitsLeft: String, dataUnitsTotal: String, balance: String) -> StatusIntentResponse",
            "func resolveContract(for intent: SwitchContractIntent, with completion: @escaping (ContractResolutionResult) -> Void)",
            "func resolveAmount(for intent: TopUpIntent) async -> INIntegerResolutionResult",
            "public class Contract: INObject",
            "enum INGeneratedDefinition",
            "func INExtensionMain(_ extensionType: INExtension.Type) -> Never",
        ] {
            #expect(swift.contains(line), "missing: \(line)")
        }
        // The same file converted to Xcode's form gives the same Swift, but for the header line naming the input.
        let converted = "\(dir.path)/balance.intentdefinition"
        let convert = runCommand(Products.path("intentbus"), ["definitions", "convert", Products.file("definitions/balance.yaml"),
                                                              "--output", converted])
        #expect(convert.status == 0, "\(convert.stderr)")
        let (again, fromXcode) = generate(converted, in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(fromXcode.split(separator: "\n").dropFirst() == swift.split(separator: "\n").dropFirst())

        let bad = dir.write("bad.yaml", "intents:\n  - name: Status Intent\n    title: Status\n")
        let (refused, _) = generate(bad, in: dir)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bad.yaml:2"), "\(refused.stderr)")
        let unknown = dir.write("unknown.yaml", "intents:\n  - name: StatusIntent\n    parameters:\n      - {name: x, type: Foo}\n")
        let (typo, _) = generate(unknown, in: dir)
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("unknown.yaml:4"), "\(typo.stderr)")
    }
}
