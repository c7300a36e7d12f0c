import PackagePlugin

/// Generates, at build time, the Swift Xcode generates from each `.intentdefinition` in
/// a target (docs/sirikit.md, "The generated classes"): one `<name>.swift` per file, by
/// `intentbus-intentgen`.
@main
struct IntentDefinitionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let generator = try context.tool(named: "intentbus-intentgen").url
        return target.sourceFiles.filter { $0.url.pathExtension == "intentdefinition" }.map { file in
            let output = context.pluginWorkDirectoryURL
                .appending(path: file.url.deletingPathExtension().lastPathComponent + "+Generated.swift")
            return .buildCommand(displayName: "Generating intent classes from \(file.url.lastPathComponent)",
                                 executable: generator, arguments: [file.url.path, output.path],
                                 inputFiles: [file.url], outputFiles: [output])
        }
    }
}
