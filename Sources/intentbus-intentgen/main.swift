import Foundation
import IntentBusCore
import IntentBusDefinitions
import IntentDefinitionFormat

// intentbus-intentgen DEFINITION OUTPUT: writes the Swift Xcode generates from an
// .intentdefinition, or from a YAML definition (docs/definitions.md) through the
// .intentdefinition it converts to, so both forms give the same classes (docs/sirikit.md,
// "The generated classes"). Run by the IntentDefinitionPlugin build-tool plugin; errors
// name the file and key path (or line).
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: intentbus-intentgen DEFINITION.{intentdefinition,yaml} OUTPUT.swift\n".utf8))
    exit(64)
}
let path = arguments[1]
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let definition: JSON
    if path.hasSuffix(".yaml") || path.hasSuffix(".yml") {
        let (root, warnings) = try DefinitionConverter.xcodeRoot(yaml: data, shown: path)
        for warning in warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        definition = root
    } else {
        definition = try PropertyListJSON.read(data, file: path)
    }
    let source = try SwiftSourceWriter(definition, file: path).source()
    try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
