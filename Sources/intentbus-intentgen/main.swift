import Foundation
import IntentBusCore
import IntentDefinitionFormat

// intentbus-intentgen DEFINITION OUTPUT: writes the Swift Xcode generates from an
// .intentdefinition (docs/sirikit.md, "The generated classes"). Run by the
// IntentDefinitionPlugin build-tool plugin; errors name the file and key path.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: intentbus-intentgen DEFINITION.intentdefinition OUTPUT.swift\n".utf8))
    exit(64)
}
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
    let definition = try PropertyListJSON.read(data, file: arguments[1])
    let source = try SwiftSourceWriter(definition, file: arguments[1]).source()
    try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
