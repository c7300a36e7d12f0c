import Foundation

/// A JSON value. Headers, bodies, prompts and metadata are all JSON on the wire.
///
/// Integers and decimals are kept apart, so that the host can check `Integer` and
/// `Decimal` parameters exactly. `canonicalData` writes sorted keys and no whitespace,
/// the form the conformance vectors use, so the Swift and Python sides agree byte for
/// byte.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])
}

extension JSON: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSON].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

/// A body or header that is not valid JSON.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension JSON {
    /// Parses `data`. Empty data is an empty object, so that an empty header or body frame
    /// means "nothing".
    public static func parse(_ data: Data) throws(JSONParseError) -> JSON {
        if data.isEmpty { return .object([:]) }
        let result = data.withUnsafeBytes { raw -> Result<JSON, JSONParseError> in
            var parser = JSONParser(raw.bindMemory(to: UInt8.self))
            do throws(JSONParseError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses the bytes in `raw` without copying them first (a frame's bytes). Empty is an
    /// empty object, as for `parse(_: Data)`.
    public static func parse(bytes raw: UnsafeRawBufferPointer) throws(JSONParseError) -> JSON {
        if raw.isEmpty { return .object([:]) }
        var parser = JSONParser(raw.bindMemory(to: UInt8.self))
        return try parser.parseDocument()
    }

    /// Parses the bytes in `raw` as `parse(bytes:)` does, and sets `isCanonical` to whether
    /// they are exactly the value's `canonicalBytes`: then a value sent back unchanged
    /// (`writesSameBytes(as:)`) can go out as these bytes, without writing it again.
    /// Empty bytes are an empty object, whose canonical text is `{}`: not canonical.
    package static func parse(bytes raw: UnsafeRawBufferPointer, isCanonical: inout Bool) throws(JSONParseError) -> JSON {
        isCanonical = false
        if raw.isEmpty { return .object([:]) }
        var parser = JSONParser(raw.bindMemory(to: UInt8.self))
        let value = try parser.parseDocument()
        isCanonical = parser.isCanonical
        return value
    }

    /// Parses the one JSON value that starts at `start` in `bytes` (no whitespace before
    /// it; what follows it is the caller's), as `parse(bytes:isCanonical:)` would parse those
    /// bytes alone: the value, the index just past it, and in `isCanonical` whether its bytes
    /// are its `canonicalBytes`.
    package static func parseValue(in bytes: UnsafeBufferPointer<UInt8>, at start: Int,
                                   isCanonical: inout Bool) throws(JSONParseError) -> (JSON, end: Int) {
        isCanonical = false
        var parser = JSONParser(bytes)
        let (value, end) = try parser.parseValue(at: start)
        isCanonical = parser.isCanonical
        return (value, end)
    }

    /// Parses a UTF-8 string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        try parse(Data(text.utf8))
    }

    /// Canonical text: sorted keys, no insignificant whitespace, "/" not escaped,
    /// non-ASCII left as UTF-8. Matches Python's
    /// `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`.
    public var canonicalString: String {
        String(decoding: canonicalBytes, as: UTF8.self)
    }

    /// `canonicalString` as UTF-8 bytes.
    public var canonicalData: Data { Data(canonicalBytes) }

    /// `canonicalString` as UTF-8 bytes, written by `JSONWriter`.
    public var canonicalBytes: [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }
}

// MARK: - Convenient access

extension JSON {
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9e18: return Int64(d)
        default: return nil
        }
    }
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    public var arrayValue: [JSON]? { if case .array(let a) = self { return a }; return nil }
    /// An array's strings, the other elements left out: `arrayValue?.compactMap(\.stringValue)`
    /// with room for every element from the start (`compactMap` grows its result as it
    /// goes: four reallocations for a legacy header's fourteen codes). Nil for a non-array.
    package var stringElements: [String]? {
        guard case .array(let elements) = self else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for case .string(let s) in elements { strings.append(s) }
        return strings
    }
    public var objectValue: [String: JSON]? { if case .object(let o) = self { return o }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The JSON type's name, for error messages ("expected an integer, got a string").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a decimal number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A short human rendering: strings without quotes, numbers as written.
    public var displayText: String {
        switch self {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): d == d.rounded() && abs(d) < 1e16 ? String(Int64(d)) : "\(d)"
        case .bool(let b): b ? "true" : "false"
        case .null: ""
        default: canonicalString
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
