import Foundation

/// What the manifest's two readers share: the assembler (the files, the `plugins:`
/// entries and the checks across them) and `HostSectionReader` (the `host:` section). Both
/// report into one decoding context and resolve relative paths against the manifest's
/// directory.
protocol ManifestReading: AnyObject {
    /// Where diagnostics go, with the path of keys being decoded.
    var context: YAMLDecodingContext { get }
    /// The directory every relative path resolves against.
    var directory: String { get }
}

extension ManifestReading {
    /// Reports an error for the value of `key` inside the current path.
    func error(_ message: String, key: String, at mark: SourceMark) {
        context.withPath(.key(key)) { context.error(message, at: mark) }
    }

    /// `path` resolved against the manifest's directory.
    func resolve(_ path: String) -> String {
        ManifestAssembler.resolve(path, against: directory)
    }

    /// Reports `value` when it lies outside `range`, as "must be within 1ms…24h, got 0s".
    func checkRange(_ value: Marked<Duration>?, key: String, within range: ClosedRange<Duration>) {
        guard let value, !range.contains(value.value) else { return }
        error("must be within \(range.lowerBound.configText)…\(range.upperBound.configText), got \(value.value.configText)",
              key: key, at: value.mark)
    }

    /// Reports `value` when it lies outside `range`, as "must be within 1…100000, got 0".
    func checkRange(_ value: Marked<Int>?, key: String, within range: ClosedRange<Int>) {
        guard let value, !range.contains(value.value) else { return }
        error("must be within \(range.lowerBound)…\(range.upperBound), got \(value.value)", key: key, at: value.mark)
    }

    /// A program on `PATH` (a plugin's `exec`, the Wyoming service's command), or nil.
    static func searchPATH(for program: String) -> String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = (String(directory) as NSString).appendingPathComponent(program)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
