import Foundation
import IntentBusCore

/// Checks a parameter value against its definition and brings it to the one form the
/// plugin receives (docs/definitions.md, "Values on the wire").
///
/// Lenient where a person would expect it: `count=25` typed on a command line arrives
/// as a number and `"25"` typed at a prompt as text, and both are fine for an Integer;
/// a String parameter takes a number as its text. It is strict about what can't be
/// meant: a word for an Integer, 2.5 for an Integer, an unknown enum case, a value out
/// of range. Pure value code.
package enum ParameterCoercion {
    /// The normalized value, or why it doesn't fit (without the parameter's name; the
    /// caller adds it). `multiple` parameters take a list; a single value becomes a
    /// list of one.
    package static func coerce(_ value: JSON, _ parameter: ParameterDefinition,
                       in definition: IntentDefinition) -> Result<JSON, CoercionProblem> {
        if parameter.multiple {
            let items = value.arrayValue ?? [value]
            guard items.count <= ParameterLimits.listItems else {
                return .failure(CoercionProblem("takes at most \(ParameterLimits.listItems) items, got \(items.count)"))
            }
            var out: [JSON] = []
            for (index, item) in items.enumerated() {
                switch coerceOne(item, parameter, in: definition) {
                case .success(let v): out.append(v)
                case .failure(let problem):
                    return .failure(CoercionProblem("item \(index + 1): \(problem.message)"))
                }
            }
            return .success(.array(out))
        }
        if value.arrayValue != nil {
            return .failure(CoercionProblem("takes one \(parameter.type), got a list"))
        }
        return coerceOne(value, parameter, in: definition)
    }

    private static func coerceOne(_ value: JSON, _ parameter: ParameterDefinition,
                                  in definition: IntentDefinition) -> Result<JSON, CoercionProblem> {
        let type = parameter.type
        func wrong() -> Result<JSON, CoercionProblem> {
            .failure(CoercionProblem("expected \(expectation(type, definition)), got \(describe(value))"))
        }
        switch type {
        case .string:
            switch value {
            case .string: return .success(value)
            case .int, .double: return .success(.string(value.displayText))
            default: return wrong()
            }
        case .integer:
            var number: Int64?
            switch value {
            case .int(let i): number = i
            case .double(let d) where d == d.rounded() && abs(d) < 9e15: number = Int64(d)
            case .string(let s): number = Int64(s.trimmingCharacters(in: .whitespaces))
            default: break
            }
            guard let number else { return wrong() }
            return checkRange(Double(number), parameter).map { _ in .int(number) }
        case .decimal:
            var number: Double?
            switch value {
            case .int, .double: number = value.doubleValue
            case .string(let s): number = Double(s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "."))
            default: break
            }
            guard let number, number.isFinite else { return wrong() }
            return checkRange(number, parameter).map { _ in value.intValue.map { _ in value } ?? .double(number) }
        case .boolean:
            switch value {
            case .bool: return .success(value)
            case .string(let s):
                switch s.lowercased() {
                case "true", "yes", "y", "1": return .success(true)
                case "false", "no", "n", "0": return .success(false)
                default: return wrong()
                }
            default: return wrong()
            }
        case .date:
            guard let text = value.stringValue, isISO8601Date(text) else { return wrong() }
            return .success(value)
        case .duration:
            var seconds: Double?
            switch value {
            case .int, .double: seconds = value.doubleValue
            case .string(let s): seconds = parseDuration(s)
            default: break
            }
            guard let seconds, seconds >= 0, seconds.isFinite else { return wrong() }
            return checkRange(seconds, parameter).map { _ in
                seconds == seconds.rounded() && seconds < 9e15 ? .int(Int64(seconds)) : .double(seconds)
            }
        case .currencyAmount:
            guard let (amount, currency) = parseCurrencyAmount(value) else { return wrong() }
            return checkRange(amount, parameter).map { _ in ["amount": .double(amount), "currency": .string(currency)] }
        case .enumeration(let name):
            guard let text = value.stringValue else { return wrong() }
            let cases = definition.enums[name]?.cases ?? []
            if let match = cases.first(where: { $0.name == text })
                ?? cases.first(where: { $0.name.lowercased() == text.lowercased() || $0.displayName.lowercased() == text.lowercased() }) {
                return .success(.string(match.name))
            }
            return .failure(CoercionProblem("'\(text)' is not a \(name); expected one of \(cases.map(\.name).joined(separator: ", "))"))
        case .object:
            switch value {
            case .string: return .success(value)
            case .object(let o) where o["identifier"]?.stringValue != nil || o["displayString"]?.stringValue != nil:
                return .success(value)
            default: return wrong()
            }
        case .person, .placemark, .file, .url:
            return coerceSystemValue(value, type) ?? wrong()
        }
    }

    /// Xcode's Person, Placemark, File and URL values: a string the plugin resolves (a
    /// name, an address, a path), or the object INPerson, CLPlacemark and INFile encode
    /// to; coordinates are range-checked. Nil when the value has none of these forms.
    private static func coerceSystemValue(_ value: JSON, _ type: ParameterType) -> Result<JSON, CoercionProblem>? {
        switch (type, value) {
        case (.url, .string(let text)):
            guard let url = URL(string: text), url.scheme != nil else {
                return .failure(CoercionProblem("'\(text.prefix(60))' is not a URL (it needs a scheme, e.g. https://)"))
            }
            return .success(value)
        case (.person, .string), (.placemark, .string), (.file, .string):
            return .success(value)
        case (.person, .object(let o)) where o["displayName"]?.stringValue != nil || o["handle"] != nil || o["identifier"]?.stringValue != nil:
            return .success(value)
        case (.placemark, .object(let o)):
            let latitude = o["latitude"]?.doubleValue, longitude = o["longitude"]?.doubleValue
            if latitude != nil || longitude != nil {
                guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                    return .failure(CoercionProblem("a Placemark's latitude must be within -90…90 and its longitude within -180…180"))
                }
            } else if o["name"]?.stringValue == nil {
                return nil
            }
            return .success(value)
        case (.file, .object(let o)) where o["filename"]?.stringValue != nil && (o["url"]?.stringValue != nil || o["data"]?.stringValue != nil):
            return .success(value)
        default:
            return nil
        }
    }

    private static func checkRange(_ number: Double, _ parameter: ParameterDefinition) -> Result<Void, CoercionProblem> {
        if let minimum = parameter.minimum, number < minimum {
            return .failure(CoercionProblem("must be at least \(JSON.double(minimum).displayText), got \(JSON.double(number).displayText)"))
        }
        if let maximum = parameter.maximum, number > maximum {
            return .failure(CoercionProblem("must be at most \(JSON.double(maximum).displayText), got \(JSON.double(number).displayText)"))
        }
        return .success(())
    }

    /// What a valid value looks like, for messages.
    static func expectation(_ type: ParameterType, _ definition: IntentDefinition) -> String {
        switch type {
        case .string: "a String (text)"
        case .integer: "an Integer (a whole number)"
        case .decimal: "a Decimal (a number)"
        case .boolean: "a Boolean (true or false)"
        case .date: "a Date (ISO 8601: 2024-05-01 or 2024-05-01T09:30:00Z)"
        case .duration: "a Duration (seconds, or 90s, 25m, 1h30m, PT25M)"
        case .currencyAmount: "a CurrencyAmount ({\"amount\":12.5,\"currency\":\"EUR\"} or \"12.50 EUR\")"
        case .enumeration(let name):
            "a \(name) (\((definition.enums[name]?.cases ?? []).map(\.name).joined(separator: ", ")))"
        case .object(let name): "a \(name) (a string, or an object with identifier and displayString)"
        case .person: "a Person (a name, or an object with displayName and handle)"
        case .placemark: "a Placemark (an address, or an object with name or latitude and longitude)"
        case .file: "a File (a path, or an object with filename and url or base64 data)"
        case .url: "a URL (with a scheme, e.g. https://example.com)"
        }
    }

    /// `the string "abc"`, `the number 3`, `a list`…
    package static func describe(_ value: JSON) -> String {
        switch value {
        case .string(let s): "the string \"\(s.count > 40 ? s.prefix(37) + "..." : s)\""
        case .int, .double: "the number \(value.displayText)"
        case .bool(let b): "the boolean \(b)"
        case .null: "null"
        case .array: "a list"
        case .object: "an object"
        }
    }

    static func isISO8601Date(_ text: String) -> Bool {
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withFullDate]
        if text.count == 10, full.date(from: text) != nil { return true }
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withInternetDateTime]
        if stamp.date(from: text) != nil { return true }
        stamp.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if stamp.date(from: text) != nil { return true }
        // A local date and time without a zone: 2024-05-01T09:30 or 2024-05-01T09:30:00.
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            local.dateFormat = format
            if local.date(from: text) != nil { return true }
        }
        return false
    }

    /// Seconds in `90`, `1.5`, `90s`, `25m`, `25min`, `1h30m`, `250ms`, `PT1H30M`.
    static func parseDuration(_ raw: String) -> Double? {
        var text = raw.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "")
        guard !text.isEmpty else { return nil }
        if let plain = Double(text) { return plain }
        if text.hasPrefix("pt") { text = String(text.dropFirst(2)) }
        var total = 0.0
        var number = ""
        var index = text.startIndex
        var sawUnit = false
        while index < text.endIndex {
            let c = text[index]
            if c.isNumber || c == "." {
                number.append(c)
                index = text.index(after: index)
                continue
            }
            var unit = ""
            while index < text.endIndex, text[index].isLetter {
                unit.append(text[index])
                index = text.index(after: index)
            }
            guard let value = Double(number) else { return nil }
            switch unit {
            case "ms": total += value / 1000
            case "s", "sec": total += value
            case "m", "min": total += value * 60
            case "h": total += value * 3600
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        return number.isEmpty && sawUnit ? total : nil
    }

    /// `{"amount": 12.5, "currency": "EUR"}`, `"12.50 EUR"`, `"EUR 12.50"`, `"12,50 €"`.
    static func parseCurrencyAmount(_ value: JSON) -> (Double, String)? {
        if let amount = value["amount"]?.doubleValue, let currency = value["currency"]?.stringValue,
           currency.count == 3, currency.allSatisfy(\.isLetter) {
            return (amount, currency.uppercased())
        }
        guard let text = value.stringValue else { return nil }
        let symbols = ["€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "CHF": "CHF"]
        var parts = text.replacingOccurrences(of: "€", with: " € ").replacingOccurrences(of: "$", with: " $ ")
            .replacingOccurrences(of: "£", with: " £ ").split(separator: " ").map(String.init)
        guard parts.count == 2 else { return nil }
        if Double(parts[0].replacingOccurrences(of: ",", with: ".")) == nil { parts.reverse() }
        guard let amount = Double(parts[0].replacingOccurrences(of: ",", with: ".")), amount.isFinite else { return nil }
        let currency = symbols[parts[1]] ?? parts[1].uppercased()
        guard currency.count == 3, currency.allSatisfy(\.isLetter) else { return nil }
        return (amount, currency)
    }
}

/// Why a value does not fit its parameter.
package struct CoercionProblem: Error {
    package let message: String
    package init(_ message: String) { self.message = message }
}
