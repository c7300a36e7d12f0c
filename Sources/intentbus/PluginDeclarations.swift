import Foundation
import IntentBus
import PluginHost

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

    /// The style each declared intent is handled in (`plain`, `legacy`, `new`).
    var styles: [String: String] {
        var out: [String: String] = [:]
        for entry in hello["intents"]?.arrayValue ?? [] {
            if let name = entry.stringValue { out[name] = "plain" }
            if let name = entry["name"]?.stringValue { out[name] = entry["style"]?.stringValue ?? "plain" }
        }
        return out
    }

    /// The new-style declaration of `intent` (by identifier, the legacy name it migrates, or
    /// the assistant schema it implements).
    func newStyleIntent(_ intent: String) -> JSON? {
        let intents = hello["metadata"]?["new_style"]?["intents"]?.arrayValue ?? []
        return intents.first { $0["identifier"]?.stringValue == intent }
            ?? intents.first { $0["migrated_from"]?.stringValue == intent }
            ?? intents.first { $0["schema"]?.stringValue == intent }
    }

    /// Runs the manifest's plugin `spec` (its exec and env) in describe mode.
    static func read(_ spec: PluginSpec) throws -> PluginDeclarations {
        var environment = ProcessInfo.processInfo.environment
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
        let (status, output, errors) = try run(path: path, arguments: arguments, environment: environment)
        guard status == 0 else {
            throw Failure(label: label, message: "describe mode exited with status \(status)\(errors.isEmpty ? "" : ":\n\(errors)")")
        }
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let hello = try? JSON.parse(String(line)), hello.objectValue != nil else {
            throw Failure(label: label, message: "did not print its declarations as JSON; is it built with the IntentBus SDK (PluginRuntime.run(), IntentPlugin.run() or Plugin.run() in Python)?")
        }
        return PluginDeclarations(hello: hello)
    }

    /// Runs the plugin and collects its output; kills it if it hangs (it should exit).
    private static func run(path: String, arguments: [String], environment: [String: String]) throws -> (Int32, String, String) {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw UsageError("\(path) is not an executable file (build it first: swift build)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: killer)
        let errors = ErrorCollector(err.fileHandleForReading)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), errors.text)
    }
}

/// Reads a pipe on another thread, so that a chatty stderr can't block the plugin.
private final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is only touched under `lock`; `done` orders the final read.
    private let lock = Lock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let d = handle.readDataToEndOfFile()
            lock.withLock { data = d }
            done.signal()
        }
    }

    var text: String {
        done.wait()
        return lock.withLock { String(decoding: data, as: UTF8.self) }.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
