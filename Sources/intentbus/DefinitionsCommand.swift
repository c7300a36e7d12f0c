import Foundation
import IntentBus
import IntentBusCLI
import PluginHost

/// `intentbus definitions convert FILE`: writes an intent definition in the other form
/// (docs/definitions.md, "Xcode's .intentdefinition"): YAML from an `.intentdefinition`,
/// an `.intentdefinition` from YAML.
enum DefinitionsCommand {
    static let spec = CommandSpec(
        name: "definitions", summary: "convert an intent definition between Xcode's .intentdefinition and YAML",
        synopsis: ["definitions convert FILE [--output OUT]"],
        discussion: """
        convert   reads FILE, checks it as the host would, and writes it in the other form:
                  YAML for an .intentdefinition, an .intentdefinition (XML property list)
                  for YAML. Nothing of meaning is lost either way; Xcode's tags, display
                  priorities and namespace are written afresh. Intents.strings stay as they
                  are: the YAML form keeps each text's …ID key.
        """,
        subcommands: ["convert"],
        positionals: [PositionalSpec("FILE", completion: .file)],
        options: [.value("output", "OUT", "write to OUT instead of standard output", completion: .file)],
        footer: "Exit codes: 0 converted, 2 usage, 6 FILE has errors or OUT cannot be written.")

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positionals.first == "convert" else { throw UsageError("definitions needs convert") }
        guard args.positionals.count == 2 else { throw UsageError("definitions convert needs one FILE") }
        let path = args.positionals[1]
        let output: DefinitionConverter.Output
        do throws(ConfigError) { output = try DefinitionConverter.convert(path: path, shown: path) } catch {
            printError(error.description)
            return ExitCode.configError
        }
        output.warnings.forEach { printError($0.description) }
        if let out = args.value("output") {
            guard FileManager.default.createFile(atPath: out, contents: output.data) else {
                printError("intentbus definitions: cannot write \(out)")
                return ExitCode.configError
            }
        } else {
            FileHandle.standardOutput.write(output.data)
        }
        return ExitCode.success
    }
}
