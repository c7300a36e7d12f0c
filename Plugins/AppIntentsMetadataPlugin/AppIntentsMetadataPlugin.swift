import PackagePlugin

/// Finds, at build time, the App Intents declarations of a target, as Apple's metadata
/// extractor does (docs/appintents.md, "Finding the declarations"): `intentbus-appintents-scan`
/// reads the target's Swift sources and writes `AppIntentsDeclarations.swift`, which gives
/// the target `IntentPlugin.serve(localizations:)`. The main then names nothing.
@main
struct AppIntentsMetadataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let scanner = try context.tool(named: "intentbus-appintents-scan").url
        let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "AppIntentsDeclarations.swift")
        return [.buildCommand(displayName: "Finding the App Intents declarations of \(target.name)",
                              executable: scanner, arguments: [output.path] + sources.map(\.path),
                              inputFiles: sources, outputFiles: [output])]
    }
}
