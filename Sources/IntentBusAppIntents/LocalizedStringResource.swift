import Foundation

/// A string to show people, looked up by key in the plugin's string tables in the locale
/// of the client the request came from (App Intents' `LocalizedStringResource`, which
/// Foundation on Linux does not have).
///
/// ```swift
/// static let title: LocalizedStringResource = "Fokus-Session starten"
/// IntentDialog("Fokus-Session für \(minutes) Minuten gestartet.")   // key "Fokus-Session für %lld Minuten gestartet."
/// LocalizedStringResource("start.title", defaultValue: "Start", table: "Intents")
/// ```
///
/// An interpolated literal has Apple's key: the text with `%lld` for an integer, `%lf`
/// for a floating-point number and `%@` for anything else; the arguments fill a table's
/// translation (`%1$@` positions allowed). Without a translation the default value is
/// used, filled the same way. Tables come from `.strings` and `.xcstrings` files
/// (`LocalizationTables`).
public struct LocalizedStringResource: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The key looked up in the table.
    public let key: String
    /// The text (a format when interpolated) used when no table has the key.
    public let defaultValue: String
    /// The table (file name without extension); `Localizable` when nil.
    public let table: String?
    /// The interpolated values, in order.
    let arguments: [Argument]

    /// An interpolated value: text, or a resource resolved in the same locale.
    indirect enum Argument: Sendable, Hashable {
        case text(String)
        case resource(LocalizedStringResource)
    }

    public init(stringLiteral value: String) {
        key = value
        defaultValue = value
        table = nil
        arguments = []
    }

    public init(stringInterpolation: StringInterpolation) {
        key = stringInterpolation.format
        defaultValue = stringInterpolation.format
        table = nil
        arguments = stringInterpolation.arguments
    }

    /// A resource with an explicit key and default value (Apple's
    /// `init(_:defaultValue:table:locale:bundle:comment:)`; locale and bundle come from the
    /// request). An interpolated default value gives the arguments:
    /// `LocalizedStringResource("greeting", defaultValue: "Hallo \(name)!")` looks up
    /// `greeting` and fills its `%@` with the name.
    public init(_ key: StaticString, defaultValue: LocalizedStringResource, table: String? = nil, comment: StaticString? = nil) {
        self.key = key.description
        self.defaultValue = defaultValue.defaultValue
        self.table = table
        arguments = defaultValue.arguments
    }

    /// `keyAndValue` looked up in `table` (Apple's `init(_:table:locale:bundle:comment:)`).
    public init(_ keyAndValue: LocalizedStringResource, table: String? = nil, comment: StaticString? = nil) {
        key = keyAndValue.key
        defaultValue = keyAndValue.defaultValue
        self.table = table ?? keyAndValue.table
        arguments = keyAndValue.arguments
    }

    /// Text that is not looked up (a name, a value the user gave).
    public static func verbatim(_ text: String) -> LocalizedStringResource {
        var interpolation = StringInterpolation(literalCapacity: 0, interpolationCount: 1)
        interpolation.appendInterpolation(text)
        return LocalizedStringResource(stringInterpolation: interpolation)
    }

    /// The text in `locale` (a BCP 47 identifier such as `de-DE`), or in the locale of
    /// the request being served when nil.
    public func resolved(locale: String? = nil) -> String {
        let language = locale ?? IntentLocale.current
        let format = LocalizationTables.shared.lookup(key, table: table ?? "Localizable", locale: language) ?? defaultValue
        // A literal without interpolations is not a format: "100%" stays as written.
        if arguments.isEmpty { return format }
        let texts = arguments.map { argument -> String in
            switch argument {
            case .text(let text): text
            case .resource(let resource): resource.resolved(locale: language)
            }
        }
        return Self.fill(format, texts)
    }

    /// The resolved text.
    public var description: String { resolved() }

    /// The text as written in the source, not looked up: what HELLO's metadata carries
    /// (titles and phrases the host matches are the plugin's own language).
    public var sourceText: String {
        if arguments.isEmpty { return defaultValue }
        return Self.fill(defaultValue, arguments.map { argument in
            switch argument {
            case .text(let text): text
            case .resource(let resource): resource.sourceText
            }
        })
    }

    /// `format` with its `%…` specifiers replaced by `arguments` in order (or by
    /// position, `%2$@`); `%%` is a percent sign. A specifier without an argument stays empty.
    static func fill(_ format: String, _ arguments: [String]) -> String {
        // Over the UTF-8 bytes: every byte a specifier is made of is ASCII, so the text
        // between specifiers is copied in runs (walking Characters cost about 7k
        // instructions for a one-argument dialog; callgrind, docs/performance.md). The
        // string's own storage, not a copy (a native string is contiguous already).
        var format = format
        return format.withUTF8 { fill(bytes: $0, arguments) }
    }

    private static func fill(bytes: UnsafeBufferPointer<UInt8>, _ arguments: [String]) -> String {
        var out = ""
        out.reserveCapacity(bytes.count + arguments.reduce(0) { $0 + $1.utf8.count })
        var next = 0
        var run = 0  // start of the literal text not yet copied
        var i = 0
        func copy(_ upTo: Int) {
            if upTo > run { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<upTo]), as: UTF8.self) }
        }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "%") else { i += 1; continue }
            copy(i)
            var j = i + 1
            guard j < bytes.count else { out += "%"; run = bytes.count; break }
            if bytes[j] == UInt8(ascii: "%") { out += "%"; i = j + 1; run = i; continue }
            // [N$] [flags/width/precision] [length] conversion
            var number = 0, digits = 0
            while j < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) {
                if digits < 18 { number = number * 10 + Int(bytes[j] - UInt8(ascii: "0")) }
                digits += 1
                j += 1
            }
            var position: Int?
            if j < bytes.count, bytes[j] == UInt8(ascii: "$"), digits > 0, digits <= 18, number >= 1 { position = number - 1; j += 1 }
            while j < bytes.count, Self.specifierBytes.contains(bytes[j]) { j += 1 }
            guard j < bytes.count else { run = bytes.count; break }
            let index = position ?? next
            if position == nil { next += 1 }
            if index < arguments.count { out += arguments[index] }
            i = j + 1
            run = i
        }
        copy(bytes.count)
        return out
    }

    /// Flags, width, precision and length bytes between `%` and the conversion.
    private static let specifierBytes = Set("-+ #0123456789.lhqzjtL".utf8)

    /// Builds the key and the arguments of an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var format = ""
        var arguments: [Argument] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            format.reserveCapacity(literalCapacity + 4 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            // Most literals hold no percent sign (every "\(x)" has two empty ones), and
            // Foundation's replacingOccurrences cost about a tenth of a perform() in the
            // plugin (callgrind, docs/performance.md): escape only when there is one.
            guard literal.utf8.contains(UInt8(ascii: "%")) else { format += literal; return }
            format += literal.replacingOccurrences(of: "%", with: "%%")
        }

        /// An integer: `%lld`.
        public mutating func appendInterpolation<T: BinaryInteger>(_ value: T) {
            format += "%lld"
            arguments.append(.text(String(value)))
        }

        /// A floating-point number: `%lf`.
        public mutating func appendInterpolation<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T) {
            format += "%lf"
            arguments.append(.text(String(value)))
        }

        /// Text: `%@`.
        public mutating func appendInterpolation(_ value: String) {
            format += "%@"
            arguments.append(.text(value))
        }

        /// Another resource, resolved in the same locale: `%@`.
        public mutating func appendInterpolation(_ value: LocalizedStringResource) {
            format += "%@"
            arguments.append(.resource(value))
        }

        /// Anything else, by its description: `%@`.
        public mutating func appendInterpolation<T>(_ value: T) {
            format += "%@"
            arguments.append(.text(String(describing: value)))
        }
    }
}

/// The locale of the request being served: the client's REQUEST header `locale`
/// (`de-DE`), forwarded by the host. Without one, texts stay as the source writes them:
/// the plugin's environment (`LANG`) is not the client's language.
public enum IntentLocale {
    /// Set by the runtime around `perform()` and entity queries.
    @TaskLocal public static var request: String?

    /// The request's locale, or nil.
    public static var current: String? { request }
}
