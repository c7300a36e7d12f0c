import Foundation

/// A strict JSON parser (RFC 8259) that keeps integers and decimals apart: `3` is an
/// `.int`, `3.0` and `3e0` are `.double`s, as Python's `json` reads them. Foundation's
/// decoders can't tell `0.0` from `0`, which breaks byte-for-byte round trips and the
/// host's Integer/Decimal parameter checks.
///
/// It reads the bytes in place (`JSON.parse` lends it the data's buffer): copying them
/// into an array first cost an allocation per header and body on the host's and the
/// plugins' new-style and legacy paths (docs/performance.md).
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var depth = 0
    /// Whether the bytes read so far are exactly what `JSONWriter` writes for their value
    /// (no whitespace, keys in strictly ascending order, the writer's escapes and number
    /// forms): a value that comes back unchanged can then go out as the received bytes
    /// (`JSON.parse(bytes:isCanonical:)`).
    private(set) var isCanonical = true
    /// The deepest nesting of arrays and objects accepted (the Python SDK's limit too).
    static let maxDepth = 512

    /// Parses `bytes`, which must stay valid while the parser is used.
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard i == bytes.count else { throw error("unexpected content after the JSON value") }
        return value
    }

    /// Parses the one value that starts at byte `start`, with no whitespace before it, and
    /// returns it with the index of the byte after it: a value inside bytes a caller reads
    /// in place (`JSON.parseValue(in:at:isCanonical:)`).
    mutating func parseValue(at start: Int) throws(JSONParseError) -> (JSON, end: Int) {
        i = start
        let value = try parseValue()
        return (value, i)
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(message: "not valid JSON: \(message) at byte \(i)")
    }

    private mutating func skipWhitespace() {
        let start = i
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        if i != start { isCanonical = false }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSON {
        guard i < bytes.count else { throw error("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[i])))'")
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw error("unexpected end of input") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw error("invalid literal") }
        i += n
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nested deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSON {
        try enter()
        defer { depth -= 1 }
        i += 1
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object([:]) }
        // Room for a small object's keys from the start: growing an empty dictionary key by
        // key re-hashed it at 1, 2 and 4 keys (callgrind: a third of a header's parse).
        var object = [String: JSON](minimumCapacity: 4)
        var previousKey: String?
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            // The writer sorts keys by their UTF-8 bytes and writes a repeated key once.
            if isCanonical {
                if let previousKey, !previousKey.utf8.lexicographicallyPrecedes(key.utf8) { isCanonical = false }
                previousKey = key
            }
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            i += 1
            skipWhitespace()
            // Swift Strings that are canonically equivalent are one key; Python's are two.
            // Refuse such a pair on both sides rather than merge it here (an exact repeat is
            // fine: the last value wins on both sides). One hash per key: `updateValue` inserts
            // or replaces the value and keeps the first key, and only a repeat (it returns the
            // old value) looks the stored key up again to compare it scalar by scalar.
            let valueStart = i
            let value = try parseValue()
            if object.updateValue(value, forKey: key) != nil,
               let existing = object.index(forKey: key),
               !object[existing].key.unicodeScalars.elementsEqual(key.unicodeScalars) {
                i = valueStart  // the error names the byte it named before: the value's start
                throw error("two keys differ only in Unicode normalization")
            }
            skipWhitespace()
            guard i < bytes.count else { throw error("unterminated object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(object) }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSON {
        try enter()
        defer { depth -= 1 }
        i += 1
        var array: [JSON] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(array) }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            guard i < bytes.count else { throw error("unterminated array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(array) }
            throw error("expected ',' or ']' in an array")
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        i += 1  // opening quote
        // Most strings have no escape: find the run's end in bulk (`JSONByteScan`) and make
        // the String straight from the bytes, skipping the UTF-8 validator for ASCII.
        var nonASCII = false
        var end = JSONByteScan.plainRunEnd(bytes, from: i, nonASCII: &nonASCII)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let run = UnsafeBufferPointer(rebasing: bytes[i..<end])
            i = end + 1
            if !nonASCII { return String(decoding: run, as: UTF8.self) }
            guard let text = String(validating: run, as: UTF8.self) else { throw error("string is not valid UTF-8") }
            return text
        }
        // Escapes: the unescaped runs between them are copied in bulk, the String is made
        // (and validated) once at the end.
        var out: [UInt8] = []
        out.reserveCapacity(end - i + 16)
        while true {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
            i = end
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            }
            if b < 0x20 { throw error("control character in a string") }
            try parseEscape(into: &out)
            end = JSONByteScan.plainRunEnd(bytes, from: i, nonASCII: &nonASCII)
        }
    }

    /// Reads the escape at `i` (a backslash) and appends what it stands for. The writer
    /// escapes only `"`, `\` and control characters, with the short forms where JSON has
    /// them and lowercase `\u00xx` otherwise: any other escape is not canonical.
    private mutating func parseEscape(into out: inout [UInt8]) throws(JSONParseError) {
        i += 1
        guard i < bytes.count else { throw error("unterminated escape") }
        let e = bytes[i]
        i += 1
        switch e {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F); isCanonical = false
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let digits = i
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate in \\u escape")
                }
                i += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("unpaired surrogate in \\u escape")
            }
            if isCanonical && !Self.writerUsesHexEscape(scalar, digits: UnsafeBufferPointer(rebasing: bytes[digits..<i])) {
                isCanonical = false
            }
            UTF8.encode(Unicode.Scalar(scalar)!) { out.append($0) }
        default:
            throw error("invalid escape")
        }
    }

    /// Whether `\u` followed by `digits` is how the writer escapes `scalar`: only control
    /// characters without a short form, in lowercase hex.
    private static func writerUsesHexEscape(_ scalar: UInt32, digits: UnsafeBufferPointer<UInt8>) -> Bool {
        guard scalar < 0x20, ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(scalar) else { return false }
        return !digits.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = i
        var isInteger = true
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, isDigit(bytes[i]) { throw error("leading zeros are not allowed") }
        } else {
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("a decimal point needs digits after it") }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("an exponent needs digits") }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        // The protocol's integers are 64-bit (docs/protocol.md §2): a longer one is refused,
        // never read as an inexact decimal; so is a decimal beyond Double's range.
        if isInteger {
            guard let v = Int64(text) else { throw error("integer outside the 64-bit range") }
            if v == 0 && bytes[start] == UInt8(ascii: "-") { isCanonical = false }  // "-0" is written "0"
            return .int(v)
        }
        guard let d = Double(text), d.isFinite else { throw error("number outside the range of a 64-bit decimal") }
        if isCanonical {
            // A decimal has many spellings ("1e2", "100.00"): canonical only as the writer spells it.
            var writer = JSONWriter(capacity: 32)
            writer.write(.double(d))
            if !writer.bytes.elementsEqual(bytes[start..<i]) { isCanonical = false }
        }
        return .double(d)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
