import Foundation

/// A small structured logger. Libraries take one from their caller and never make their
/// own, so the host decides where lines go (stderr by default).
///
/// Thread-safe: every line is written with one `write(2)`.
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

    /// Where the line is written; defaults to standard error.
    public typealias Sink = @Sendable (String) -> Void

    public var label: String
    public var minimumLevel: Level
    /// Metadata printed on every line, e.g. `plugin=balance`.
    public var metadata: [(String, String)] = []
    private let sink: Sink

    public init(label: String, minimumLevel: Level = .info, sink: Sink? = nil) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.sink = sink ?? { line in
            var s = line
            s.append("\n")
            s.withUTF8 { buf in _ = Foundation.write(2, buf.baseAddress, buf.count) }
        }
    }

    /// A copy whose lines also carry `key=value`.
    public func with(_ key: String, _ value: String) -> Logger {
        var copy = self
        copy.metadata.append((key, value))
        return copy
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String, _ extra: [(String, String)] = []) {
        guard level >= minimumLevel else { return }
        var line = "\(Logger.timestamp()) \(level.tag) [\(label)]"
        for (k, v) in metadata + extra { line += " \(k)=\(v)" }
        line += " \(message())"
        sink(line)
    }

    public func debug(_ m: @autoclosure () -> String, _ extra: [(String, String)] = []) { log(.debug, m(), extra) }
    public func info(_ m: @autoclosure () -> String, _ extra: [(String, String)] = []) { log(.info, m(), extra) }
    public func warning(_ m: @autoclosure () -> String, _ extra: [(String, String)] = []) { log(.warning, m(), extra) }
    public func error(_ m: @autoclosure () -> String, _ extra: [(String, String)] = []) { log(.error, m(), extra) }

    static func timestamp() -> String {
        var tv = timeval()
        gettimeofday(&tv, nil)
        var t = time_t(tv.tv_sec)
        var tmv = tm()
        gmtime_r(&t, &tmv)
        return String(format: "%02d:%02d:%02d.%03d", tmv.tm_hour, tmv.tm_min, tmv.tm_sec, Int(tv.tv_usec / 1000))
    }

    /// The level named by `INTENTBUS_LOG` (debug, info, warning, error), or info.
    public static var levelFromEnvironment: Level {
        switch ProcessInfo.processInfo.environment["INTENTBUS_LOG"]?.lowercased() {
        case "debug": .debug
        case "warning": .warning
        case "error": .error
        default: .info
        }
    }
}
