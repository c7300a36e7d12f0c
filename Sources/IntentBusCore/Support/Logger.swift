import Foundation

/// A small structured logger. Libraries take one from their caller and never make their
/// own, so the host decides where lines go (stderr by default) and in which format.
///
/// Formats: `text` (`12:17:06.123 info [host] plugin=echo pid=42 message`) or `json` (one
/// object a line: `time` in ISO 8601 UTC with the date, `level`, `label`, `plugin`, `pid`,
/// `request` where known, every other metadata key, `message`).
///
/// Thread-safe. The default sink queues the line for `LogWriter.standardError`, so
/// logging never blocks on a slow reader (lines beyond its bound are dropped and counted).
public struct Logger: Sendable {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        /// The level's name, as `--log-level` and `INTENTBUS_LOG` take it.
        public var name: String { tag }

        /// The level named `name` (debug, info, warning, error), or nil.
        public init?(name: String) {
            guard let level = Level.allCases.first(where: { $0.tag == name.lowercased() }) else { return nil }
            self = level
        }

        var tag: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// How lines are written.
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    /// Where the line is written; defaults to standard error through `LogWriter`.
    public typealias Sink = @Sendable (String) -> Void

    public var label: String
    public var minimumLevel: Level
    public var format: Format
    /// Metadata printed on every line, e.g. `plugin=balance`.
    public var metadata: [(String, String)] = []
    private let sink: Sink

    public init(label: String, minimumLevel: Level = .info, format: Format = Logger.formatFromEnvironment,
                sink: Sink? = nil) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.format = format
        let notice: @Sendable (Int) -> String = { count in
            Logger.render(level: .warning, label: "log", format: format, metadata: [],
                          message: "dropped \(count) log lines: the log's reader was too slow (stderr not drained)")
        }
        self.sink = sink ?? { line in LogWriter.standardError.write(line, droppedNotice: notice) }
    }

    /// A copy whose lines also carry `key=value`.
    public func with(_ key: String, _ value: String) -> Logger {
        var copy = self
        copy.metadata.append((key, value))
        return copy
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String, _ extra: [(String, String)] = []) {
        guard level >= minimumLevel else { return }
        sink(Logger.render(level: level, label: label, format: format, metadata: metadata + extra, message: message()))
    }

    public func debug(_ m: @autoclosure () -> String, _ extra: [(String, String)] = []) { log(.debug, m(), extra) }
    public func info(_ m: @autoclosure () -> String, _ extra: [(String, String)] = []) { log(.info, m(), extra) }
    public func warning(_ m: @autoclosure () -> String, _ extra: [(String, String)] = []) { log(.warning, m(), extra) }
    public func error(_ m: @autoclosure () -> String, _ extra: [(String, String)] = []) { log(.error, m(), extra) }

    /// One line in `format`, without the newline.
    public static func render(level: Level, label: String, format: Format, metadata: [(String, String)],
                              message: String) -> String {
        switch format {
        case .text:
            // Text lines carry what clients and plugins sent (intent names, request ids,
            // plugin output): a newline would forge a line, an escape sequence the terminal.
            var line = "\(timestamp()) \(level.tag) [\(label)]"
            for (k, v) in metadata { line += " \(k)=\(TerminalText.escaped(v))" }
            return line + " " + TerminalText.escaped(message)
        case .json:
            var fields: [String: JSON] = ["time": .string(isoTimestamp()), "level": .string(level.tag),
                                          "label": .string(label), "message": .string(message)]
            for (k, v) in metadata where fields[k] == nil {
                fields[k] = k == "pid" ? Int64(v).map { .int($0) } ?? .string(v) : .string(v)
            }
            return JSON.object(fields).canonicalString
        }
    }

    static func timestamp() -> String {
        let (tmv, ms) = now()
        return String(format: "%02d:%02d:%02d.%03d", tmv.tm_hour, tmv.tm_min, tmv.tm_sec, ms)
    }

    /// `2026-11-30T12:17:06.123Z`.
    public static func isoTimestamp() -> String {
        let (tmv, ms) = now()
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(tmv.tm_year) + 1900, Int(tmv.tm_mon) + 1,
                      Int(tmv.tm_mday), tmv.tm_hour, tmv.tm_min, tmv.tm_sec, ms)
    }

    private static func now() -> (tm, Int) {
        var tv = timeval()
        gettimeofday(&tv, nil)
        var t = time_t(tv.tv_sec)
        var tmv = tm()
        gmtime_r(&t, &tmv)
        return (tmv, Int(tv.tv_usec / 1000))
    }

    /// The level named by `INTENTBUS_LOG` (debug, info, warning, error), or info.
    public static var levelFromEnvironment: Level {
        ProcessInfo.processInfo.environment["INTENTBUS_LOG"].flatMap { Level(name: $0) } ?? .info
    }

    /// The format named by `INTENTBUS_LOG_FORMAT` (text, json), or text. The host sets it
    /// for its plugins, so that Swift and Python plugins log in the host's format.
    public static var formatFromEnvironment: Format {
        ProcessInfo.processInfo.environment["INTENTBUS_LOG_FORMAT"].flatMap { Format(rawValue: $0.lowercased()) } ?? .text
    }
}
