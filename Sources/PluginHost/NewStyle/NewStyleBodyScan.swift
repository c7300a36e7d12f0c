import Foundation
import IntentBusCore
import IntentBusMetadata

/// The lane check's first reading of a new-style request body (NewStyleLaneCheck.passes):
/// its bytes, in place, with no JSON tree, no `String` and no allocation, for the bodies
/// clients send most (a flat object of plain strings, integers and booleans). It answers
/// only what it can answer as `NewStyleLaneCheck.passesParsed` (the parse and
/// `ParameterCheck`) would:
///
/// - `true` only for a body that is a JSON object in the strict subset read here (keys and
///   strings without escapes, keys ASCII, integers of at most 18 digits, `true`, `false`;
///   JSON whitespace), each key a declared parameter, at most once, each value one its
///   parameter keeps as given (a string for a String, a non-empty one for an entity, an
///   integer within the range for an Integer, a boolean for a Boolean; not a list), no
///   parameter missing that is required or has a default;
/// - `false` only where the parse says false too: at once for what stays false whatever
///   follows (a key no parameter has, a control character or malformed UTF-8 in a string:
///   not JSON); for a value its parameter refuses (a `null`, an integer out of range, an
///   empty entity) only once the whole body was read in the subset, since a later repeat of
///   its key, even one spelled with escapes, would replace it there; for a required or
///   defaulted parameter missing, at the end;
/// - nil for anything else (an escape, a nested value, a decimal, another type, a repeated
///   key…): the parse then decides.
///
/// NewStyleBodyScanTests compares it with the parse over many bodies.
struct NewStyleBodyScan {
    private enum Kind { case string, entity, integer, boolean, other }

    /// By parameter: its name's bytes, its kind, its range (`NewStyleParameter.inRange`'s
    /// bounds, as that reads them). Plain arrays of plain values: nothing to retain per key.
    private let names: JSONKeyNames
    private let kinds: [Kind]
    private let ranges: [(low: Double?, high: Double?)]
    /// Bit d: parameter d, absent, makes the flow ask or add its default (not the lane's).
    private let mustBeGiven: UInt64
    /// Every declared name is ASCII: a key no name has byte for byte has none at all
    /// (a non-ASCII name may equal other bytes as a `String`: canonical equivalence).
    private let asciiNames: Bool

    /// Nil for more than 64 parameters (the scan marks those given in one word).
    init?(_ parameters: [NewStyleParameter]) {
        guard parameters.count <= 64 else { return nil }
        names = JSONKeyNames(parameters.map(\.name))
        kinds = parameters.map { p in
            if p.multiple { return .other }
            switch p.type {
            case .string: return .string
            case .entity: return .entity
            case .integer: return .integer
            case .boolean: return .boolean
            default: return .other
            }
        }
        ranges = parameters.map { ($0.min?.doubleValue, $0.max?.doubleValue) }
        var must: UInt64 = 0
        for (d, p) in parameters.enumerated() where p.defaultValue != nil || !p.optional { must |= 1 << UInt64(d) }
        mustBeGiven = must
        asciiNames = parameters.allSatisfy { $0.name.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// The end of the string whose contents start at `start` (the index of its closing
    /// quote), when it has no escape and no control character; `ascii` says whether all its
    /// bytes are ASCII. nil: a backslash, a control character or no closing quote.
    private static func plainString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, ascii: inout Bool) -> Int? {
        var nonASCII = false
        let end = JSONByteScan.plainRunEnd(bytes, from: start, nonASCII: &nonASCII)
        ascii = !nonASCII
        return end < bytes.count && bytes[end] == UInt8(ascii: "\"") ? end : nil
    }

    /// The verdict on `body` (see the type's comment); nil: parse it.
    func passes(_ body: UnsafeRawBufferPointer) -> Bool? {
        guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let bytes = UnsafeBufferPointer(start: base, count: body.count)
        var i = 0
        var given: UInt64 = 0
        var refused = false
        @inline(__always) func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
                // The key: ASCII, no escape.
                let keyStart = i + 1
                var ascii = true
                guard let k = Self.plainString(bytes, from: keyStart, ascii: &ascii), ascii else { return nil }
                let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<k])
                i = k + 1
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                skipSpace()
                guard let d = names.index(of: key) else { return asciiNames ? false : nil }
                guard given & (1 << UInt64(d)) == 0 else { return nil }  // a repeat: the last one wins there
                given |= 1 << UInt64(d)
                guard i < bytes.count else { return nil }
                switch value(bytes, &i, d) {
                case .fits: break
                case .refused: refused = true
                case .invalid: return false
                case .unsure: return nil
                }
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    skipSpace()
                    continue
                }
                guard bytes[i] == UInt8(ascii: "}") else { return nil }
                i += 1
                break
            }
        }
        skipSpace()
        guard i == bytes.count else { return nil }
        return !refused && mustBeGiven & ~given == 0
    }

    /// What the scan made of one value.
    private enum Reading {
        /// The parameter keeps it as given.
        case fits
        /// The parameter refuses it (the body does not pass, unless the key comes again).
        case refused
        /// Not JSON: the body does not pass whatever follows.
        case invalid
        /// Outside the subset: the parse decides.
        case unsure
    }

    /// Reads the value at `i` for parameter `d` and, unless `invalid` or `unsure`, moves past it.
    private func value(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ d: Int) -> Reading {
        let kind = kinds[d]
        switch bytes[i] {
        case UInt8(ascii: "\""):
            let start = i + 1
            var ascii = true
            guard let k = Self.plainString(bytes, from: start, ascii: &ascii) else {
                // A control character before the end is not JSON; a backslash is the parse's.
                let stop = JSONByteScan.plainRunEnd(bytes, from: start, nonASCII: &ascii)
                return stop < bytes.count && bytes[stop] < 0x20 ? .invalid : .unsure
            }
            if !ascii, !Self.isUTF8(UnsafeBufferPointer(rebasing: bytes[start..<k])) { return .invalid }
            i = k + 1
            switch kind {
            case .string: return .fits
            case .entity: return k > start ? .fits : .refused
            case .integer, .boolean, .other: return .unsure
            }
        case UInt8(ascii: "n"):
            // null: never kept (the flow drops it, or asks).
            guard Self.literal("null", bytes, at: i) else { return .unsure }
            i += 4
            return .refused
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            let word: StaticString = bytes[i] == UInt8(ascii: "t") ? "true" : "false"
            guard kind == .boolean, Self.literal(word, bytes, at: i) else { return .unsure }
            i += word.utf8CodeUnitCount
            return .fits
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard kind == .integer else { return .unsure }
            var k = i
            let negative = bytes[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            let digits = k
            var v: Int64 = 0
            while k < bytes.count, bytes[k] >= UInt8(ascii: "0"), bytes[k] <= UInt8(ascii: "9") {
                // More than 18 digits may not fit in 64 bits: the parse's (before v overflows).
                guard k - digits < 18 else { return .unsure }
                v = v * 10 + Int64(bytes[k] - UInt8(ascii: "0"))
                k += 1
            }
            // 1 to 18 digits, no leading zero, no fraction or exponent after.
            guard k > digits, bytes[digits] != UInt8(ascii: "0") || k - digits == 1, k < bytes.count,
                  bytes[k] != UInt8(ascii: "."), bytes[k] != UInt8(ascii: "e"), bytes[k] != UInt8(ascii: "E") else { return .unsure }
            i = k
            // NewStyleParameter.inRange, on the same doubles.
            let x = Double(negative ? -v : v)
            if let low = ranges[d].low, x < low { return .refused }
            if let high = ranges[d].high, x > high { return .refused }
            return .fits
        default:
            return .unsure
        }
    }

    private static func literal(_ word: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { return false }
        return true
    }

    /// Whether `run` is well-formed UTF-8, as the parse's `String(validating:)` requires
    /// (the standard library's decoder, without making a `String`).
    private static func isUTF8(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var it = run.makeIterator()
        while true {
            switch parser.parseScalar(from: &it) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
