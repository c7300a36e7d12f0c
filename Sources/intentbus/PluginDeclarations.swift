import Foundation
import IntentBus
import PluginHost
import IntentBusProcess

/// A plugin's HELLO declarations, read by running it in describe mode
/// (`INTENTBUS_DESCRIBE=1`: the SDKs print them as JSON and exit without connecting).
/// Used by `intentbus validate` and `intentbus describe`.
struct PluginDeclarations {
    /// The HELLO body: `plugin`, `intents` (name and style), `metadata`.
    let hello: JSON

    /// Why a plugin's declarations could not be read.
    struct Failure: Error, CustomStringConvertible {
        let label: String
        let message: String
        var description: String { "\(label): \(message)" }
    }

    /// The style each declared intent is handled in, read as the host reads it; throws
    /// for a style the host would refuse.
    func styles() throws(HelloIntentsError) -> [String: HandlerStyle] {
        try HelloIntents.styles(hello["intents"])
    }

    /// The new-style declaration of `intent` (by identifier, the legacy name it migrates, or
    /// the assistant schema it implements).
    func newStyleIntent(_ intent: String) -> JSON? {
        let intents = hello["metadata"]?["new_style"]?["intents"]?.arrayValue ?? []
        return intents.first { $0["identifier"]?.stringValue == intent }
            ?? intents.first { $0["migrated_from"]?.stringValue == intent }
            ?? intents.first { $0["schema"]?.stringValue == intent }
    }

    /// The app-shortcut phrases the plugin declares for `intent` (App Intents'
    /// `AppShortcutsProvider`), `${…}` placeholders as written.
    func shortcutPhrases(_ intent: String) -> [JSON] {
        let shortcuts = hello["metadata"]?["new_style"]?["shortcuts"]?.arrayValue ?? []
        return shortcuts.filter { $0["intent"]?.stringValue == intent }.flatMap { $0["phrases"]?.arrayValue ?? [] }
    }

    /// Runs the manifest's plugin `spec` (its exec and env) in describe mode, with the
    /// environment the host would give it (`PluginEnvironment`), so that validating
    /// shows what the host will see.
    static func read(_ spec: PluginSpec) throws -> PluginDeclarations {
        var environment = PluginEnvironment.base(from: ProcessInfo.processInfo.environment,
                                                 inheriting: spec.inheritedEnvironment)
        for (k, v) in spec.environment { environment[k] = v }
        environment["INTENTBUS_PLUGIN_ID"] = spec.id
        return try read(path: spec.exec.path, arguments: spec.exec.arguments, environment: environment, label: spec.id)
    }

    /// Runs `path` in describe mode and parses what it prints.
    static func read(path: String, arguments: [String], environment: [String: String], label: String) throws -> PluginDeclarations {
        var environment = environment
        environment["INTENTBUS_DESCRIBE"] = "1"
        environment.removeValue(forKey: "INTENTBUS_BACKEND")
        environment.removeValue(forKey: "INTENTBUS_TOKEN")
        let done = try run(path: path, arguments: arguments, environment: environment)
        let errors = done.standardError.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if done.timedOut {
            throw Failure(label: label, message: "describe mode did not exit within \(describeTimeout) (it should print its declarations and exit); stopped it\(errors.isEmpty ? "" : ":\n\(errors)")")
        }
        if done.stoppedWhenCut || done.standardOutput.wasCut {
            let stream = done.standardOutput.wasCut ? "output" : "error output"
            throw Failure(label: label, message: "describe mode wrote more than \(describeOutputLimit >> 20) MiB on its \(stream) (declarations are a few kB); stopped it")
        }
        guard done.status == .exited(0) else {
            throw Failure(label: label, message: "describe mode \(done.status)\(errors.isEmpty ? "" : ":\n\(errors)")")
        }
        let output = String(decoding: done.standardOutput.data, as: UTF8.self)
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let hello = try? JSON.parse(String(line)), hello.objectValue != nil else {
            throw Failure(label: label, message: "did not print its declarations as JSON; is it built with the IntentBus SDK (PluginRuntime.run(), IntentPlugin.run() or Plugin.run() in Python)?")
        }
        return PluginDeclarations(hello: hello)
    }

    /// How long describe mode may take before the plugin is stopped (it should exit at once).
    static let describeTimeout: Duration = .seconds(10)
    /// How much of its output is kept: declarations are a few kB; a hostile or broken
    /// plugin may print gigabytes.
    static let describeOutputLimit = 4 << 20

    /// Runs the plugin, capturing its output (bounded in size and time).
    private static func run(path: String, arguments: [String], environment: [String: String]) throws -> CompletedProcess {
        do {
            return try ChildProcess.run(ProcessSpec(executable: path, arguments: arguments, environment: environment,
                                                    standardInput: .null, standardOutput: .pipe, standardError: .pipe),
                                        timeout: describeTimeout, keep: describeOutputLimit, stopWhenCut: true)
        } catch {
            let notExecutable = error.reason == nil && [ENOENT, EACCES, ENOEXEC].contains(error.errno)
            if notExecutable { throw UsageError("\(path) is not an executable file (build it first: swift build)") }
            throw error
        }
    }
}
