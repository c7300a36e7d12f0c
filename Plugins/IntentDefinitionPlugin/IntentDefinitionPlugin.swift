import PackagePlugin

/// Generates, at build time, the Swift Xcode generates from each `.intentdefinition` in
/// a target, and from each YAML definition (`.yaml`, `.yml`: a target's YAML files are its
/// intent definitions, often a link to the one in definitions/) (docs/sirikit.md, "The
/// generated classes"): one `<name>+Generated.swift` per file, by `intentbus-intentgen`.
@main
struct IntentDefinitionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let generator = try context.tool(named: "intentbus-intentgen").url
        return target.sourceFiles.filter { ["intentdefinition", "yaml", "yml"].contains($0.url.pathExtension) }.map { file in
            let output = context.pluginWorkDirectoryURL
                .appending(path: file.url.deletingPathExtension().lastPathComponent + "+Generated.swift")
            return .buildCommand(displayName: "Generating intent classes from \(file.url.lastPathComponent)",
                                 executable: generator, arguments: [file.url.path, output.path],
                                 inputFiles: [file.url], outputFiles: [output])
        }
    }
}
