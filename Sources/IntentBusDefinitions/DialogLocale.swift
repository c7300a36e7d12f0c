import Foundation
import IntentBusCore
import IntentBusManifest

/// The locale a definition file's dialogs render values in: the file's top-level
/// `locale:` (docs/definitions.md, "How values read in dialogs"). Siri renders a value
/// in the user's locale; a plugin host has no user locale, so the definition file,
/// whose dialogs are written in one language, names it.
///
/// With a locale, a CurrencyAmount reads as Foundation's `NumberFormatter` writes it
/// in currency style (`8,40 €` in `de_DE`, `€8.40` in `en_US`), a Decimal with the
/// locale's decimal separator, a Duration in the locale's abbreviated units, a Date in
/// the locale's long date (and short time) style. Without one, the rendering is
/// neutral: `8.40 EUR`, `1.5`, `25 min`, a Date as given.
///
/// Pure value code. Foundation's formatters are mutable reference types, so each
/// call makes its own; dialogs render a handful of values per legacy request, never
/// on the routing hot path.
package struct DialogLocale: Sendable, Hashable, CustomStringConvertible {
    /// The locale identifier (`de_DE`); nil for the neutral formatting.
    package let identifier: String?

    /// Neutral formatting: what a file without `locale:` gets, and what `en_US_POSIX`
    /// names.
    package static let neutral = DialogLocale(checked: nil)

    /// The locale identifier that means "neutral", as in Foundation.
    package static let neutralIdentifier = "en_US_POSIX"

    private init(checked identifier: String?) { self.identifier = identifier }

    /// The locale `identifier` names, if this system's Foundation (ICU) has data for
    /// it. `en_US_POSIX` is `neutral`.
    ///
    /// - Throws: `DialogLocaleError` for an identifier that is malformed or that
    ///   Foundation does not know, with a suggestion when one is close.
    package init(identifier: String) throws(DialogLocaleError) {
        if identifier == Self.neutralIdentifier {
            self = .neutral
            return
        }
        let known = Self.availableIdentifiers
        if known.contains(identifier) {
            self.init(checked: identifier)
            return
        }
        guard !known.isEmpty else {
            throw DialogLocaleError(identifier: identifier,
                message: "locale '\(identifier)' can't be used: this system's Foundation has no locale data (ICU); leave 'locale' out for neutral formatting")
        }
        var message: String
        if identifier.isEmpty {
            message = "locale must not be empty"
        } else if !identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) {
            message = "'\(identifier)' is not a locale identifier"
        } else {
            message = "unknown locale '\(identifier)'"
        }
        let dashless = identifier.replacingOccurrences(of: "-", with: "_")
        if dashless != identifier, known.contains(dashless) {
            message += "; write it '\(dashless)' (language_REGION, with '_')"
        } else if !identifier.isEmpty, let near = YAMLMapping.closest(to: identifier, among: known.sorted()) {
            message += "; did you mean '\(near)'?"
        }
        message += " (a locale identifier such as de_DE or en_US; leave 'locale' out for neutral formatting)"
        throw DialogLocaleError(identifier: identifier, message: message)
    }

    /// The identifiers Foundation has locale data for on this system (ICU's list).
    static let availableIdentifiers: Set<String> = Set(Locale.availableIdentifiers)

    /// `de_DE`, or `neutral` for the neutral formatting.
    package var description: String { identifier ?? "neutral" }

    private var foundationLocale: Locale { Locale(identifier: identifier ?? Self.neutralIdentifier) }

    // MARK: - Values

    /// How `value` reads inside a dialog, given the type its parameter declares (nil
    /// when it declares none, e.g. an undeclared response parameter). Strings read as
    /// they are, Integers as written, custom objects by their `displayString` (or
    /// `title`, `name`, `identifier`), lists joined with commas; CurrencyAmount,
    /// Decimal, Duration and Date as the type comment says. An object with `amount` and
    /// `currency` reads as a currency amount whatever the declared type.
    package func text(_ value: JSON, as type: ParameterType?) -> String {
        switch value {
        case .null: return ""
        case .array(let items): return items.map { text($0, as: type) }.joined(separator: ", ")
        default: break
        }
        switch (type, value) {
        case (.decimal?, .int), (.decimal?, .double):
            if let number = value.doubleValue, let text = decimal(number) { return text }
        case (.duration?, .int), (.duration?, .double):
            if let seconds = value.doubleValue, let text = duration(seconds) { return text }
        case (.date?, .string(let iso)):
            if identifier != nil, let text = date(iso) { return text }
        default:
            break
        }
        if case .object(let o) = value {
            if let amount = o["amount"]?.doubleValue, let code = o["currency"]?.stringValue,
               let text = currency(amount, code: code) {
                return text
            }
            for key in ["displayString", "displayName", "title", "name", "filename", "identifier"] {
                if let text = o[key]?.stringValue { return text }
            }
            return value.canonicalString
        }
        return value.displayText
    }

    /// How a parameter's `minimum`/`maximum` reads (`${minimumValue}`): in the
    /// parameter's unit, without a currency, as the bound has none.
    package func boundText(_ bound: Double, for type: ParameterType) -> String {
        switch type {
        case .decimal, .currencyAmount: decimal(bound) ?? JSON.double(bound).displayText
        case .duration: duration(bound) ?? JSON.double(bound).displayText
        default: JSON.double(bound).displayText
        }
    }

    // MARK: - Formatting

    /// `8,40 €` (de_DE), `€8.40` (en_US), `¥500` (en_US, JPY has no minor unit);
    /// neutral: `8.40 EUR`. Nil for a currency code that is not three letters.
    func currency(_ amount: Double, code raw: String) -> String? {
        let code = raw.uppercased()
        guard amount.isFinite, code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let formatter = NumberFormatter()
        formatter.locale = foundationLocale
        formatter.numberStyle = .currency
        formatter.currencyCode = code
        if identifier == nil {
            // ICU's POSIX pattern is "€ 8.40"; the neutral form keeps the ISO code
            // after the amount, the way clients may also write it ("12.50 EUR"), and
            // takes the currency's minor digits from ICU all the same.
            formatter.usesGroupingSeparator = false
            formatter.positivePrefix = ""
            formatter.positiveSuffix = " " + code
            formatter.negativePrefix = "-"
            formatter.negativeSuffix = " " + code
        }
        return formatter.string(from: NSNumber(value: amount))
    }

    /// `1,5` (de_DE), `1.5` (en_US, neutral). Without grouping separators, like
    /// Integers, which render as written.
    func decimal(_ number: Double) -> String? {
        guard number.isFinite else { return nil }
        let formatter = NumberFormatter()
        formatter.locale = foundationLocale
        formatter.numberStyle = .decimal
        formatter.usesGroupingSeparator = false
        formatter.maximumFractionDigits = 15
        return formatter.string(from: NSNumber(value: number))
    }

    /// `25 Min.`, `1 Std., 30 Min.` (de_DE); `25 min`, `1 hr, 30 min` (en_US, neutral).
    /// Under a second: milliseconds.
    func duration(_ seconds: Double) -> String? {
        // Beyond about 30 000 years a Duration in milliseconds overflows; no dialog means that.
        guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return nil }
        let units: Set<Duration.UnitsFormatStyle.Unit> = seconds > 0 && seconds < 1
            ? [.milliseconds] : [.days, .hours, .minutes, .seconds]
        let style = Duration.UnitsFormatStyle(allowedUnits: units, width: .abbreviated).locale(foundationLocale)
        return Duration.milliseconds(Int64((seconds * 1000).rounded())).formatted(style)
    }

    /// `1. Mai 2024` / `May 1, 2024` for a date; `1. Mai 2024 um 09:30` /
    /// `May 1, 2024 at 9:30 AM` for a date and time, at the wall-clock time written
    /// (in the offset given, or none): the plugin that wrote it knows the user's zone,
    /// the host does not. Nil when `iso` is none of the forms a Date takes.
    func date(_ iso: String) -> String? {
        let utc = TimeZone(identifier: "UTC")!
        let output = DateFormatter()
        output.locale = foundationLocale
        output.dateStyle = .long
        if iso.count == 10 {
            let parser = ISO8601DateFormatter()
            parser.formatOptions = [.withFullDate]
            guard let day = parser.date(from: iso) else { return nil }
            output.timeZone = utc
            output.timeStyle = .none
            return output.string(from: day)
        }
        output.timeStyle = .short
        let stamp = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            stamp.formatOptions = options
            if let instant = stamp.date(from: iso) {
                output.timeZone = Self.writtenZone(iso) ?? utc
                return output.string(from: instant)
            }
        }
        let local = DateFormatter()
        local.locale = Locale(identifier: Self.neutralIdentifier)
        local.timeZone = utc
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            local.dateFormat = format
            if let instant = local.date(from: iso) {
                output.timeZone = utc
                return output.string(from: instant)
            }
        }
        return nil
    }

    /// The zone an internet date-time names: `Z`, or an offset such as `+02:00`.
    static func writtenZone(_ iso: String) -> TimeZone? {
        if iso.hasSuffix("Z") || iso.hasSuffix("z") { return TimeZone(identifier: "UTC") }
        let offset = Array(iso.suffix(6))
        guard offset.count == 6, offset[0] == "+" || offset[0] == "-", offset[3] == ":",
              let hours = Int(String(offset[1...2])), let minutes = Int(String(offset[4...5])) else { return nil }
        return TimeZone(secondsFromGMT: (offset[0] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
    }
}

/// A `locale:` that names no locale this system's Foundation knows.
package struct DialogLocaleError: Error, Sendable {
    /// The identifier as written.
    package let identifier: String
    /// What is wrong, with a suggestion when one is close.
    package let message: String
}
