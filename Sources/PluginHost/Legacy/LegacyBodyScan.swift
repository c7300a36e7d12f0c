import Foundation
import IntentBusCore
import IntentBusDefinitions

/// The lane check's first reading of a legacy request body (`LegacyLaneCheck.passes`): its
/// bytes, in place, with no JSON tree, for the bodies clients send most (a flat object of
/// plain strings, integers and booleans, as the SDKs write it: canonical). When it passes
/// a body it gives the parameters the flow takes from it, made straight from its bytes.
/// It answers only where the parse's answer (`LegacyLaneCheck.passedParsed`: `JSON.parse`,
/// canonical, `LegacyFlow.take`, no deprecation, the same bytes) is provably the same:
///
/// - the parameters, only for a body that is byte for byte the canonical text of an object
///   (no whitespace, keys in strictly ascending byte order) whose keys are declared
///   parameters, ASCII and without escapes, and whose values are each one its parameter
///   keeps as given (`ParameterCoercion.coerce` returns it unchanged): a string without
///   escapes, of valid UTF-8, for a String; an integer of 1 to 18 digits, not `-0`, within
///   the parameter's range, for an Integer; `true` or `false` for a Boolean (none of them a
///   list); with no parameter that has a default left out. The parse reads the same object
///   from those bytes, calls them canonical, and `take` leaves it as it is: nothing
///   renamed, nothing normalized, nothing added; its parameters are these;
/// - nil for anything else, hostile or not: the parse then decides, as it always did.
///
/// Made only for a definition whose parameter names are ASCII, unique and none a
/// deprecated name (`DeprecatedParameters.renames`): an ASCII key then names the
/// parameter whose name has its bytes, and no other (an ASCII `String` is equal only to
/// itself; a non-ASCII name may equal other bytes: canonical equivalence).
/// LegacyBodyScanTests compares it with the parse over many bodies.
struct LegacyBodyScan {
    private enum Kind { case string, integer, boolean, other }

    /// By parameter: its name (the key the parameters get), its bytes, its rank among the
    /// names in byte order, its kind and its range (`ParameterCoercion`'s bounds).
    private let names: [String]
    private let nameBytes: JSONKeyNames
    private let ranks: [Int]
    private let kinds: [Kind]
    private let ranges: [(low: Double?, high: Double?)]
    /// Bit d: parameter d has a default, which `take` adds when it is not given.
    private let defaulted: UInt64
    /// Bit d: parameter d is required (a `run` REPLY's resolution to nothing then asks).
    let required: UInt64

    /// Nil for a definition the scan cannot answer for (see the type's comment), or with
    /// more than 64 parameters (the scan marks those given in one word).
    init?(_ definition: IntentDefinition) {
        let parameters = definition.parameters
        let names = parameters.map(\.name)
        guard parameters.count <= 64, names.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }), Set(names).count == names.count,
              !names.contains(where: { DeprecatedParameters.renames($0, in: definition) }) else { return nil }
        self.names = names
        nameBytes = JSONKeyNames(names)
        let order = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
        var ranks = Array(repeating: 0, count: names.count)
        for (rank, d) in order.enumerated() { ranks[d] = rank }
        self.ranks = ranks
        kinds = parameters.map { p in
            if p.multiple { return .other }
            switch p.type {
            case .string: return .string
            case .integer: return .integer
            case .boolean: return .boolean
            default: return .other
            }
        }
        ranges = parameters.map { ($0.minimum, $0.maximum) }
        var defaulted: UInt64 = 0
        for (d, p) in parameters.enumerated() where p.defaultValue != nil { defaulted |= 1 << UInt64(d) }
        self.defaulted = defaulted
        var required: UInt64 = 0
        for (d, p) in parameters.enumerated() where p.required { required |= 1 << UInt64(d) }
        self.required = required
    }

    /// The number of parameters, their names and the index of the declared name whose bytes
    /// `key` is, for `run` (LegacyRunScan.swift).
    var count: Int { names.count }
    func name(_ d: Int) -> String { names[d] }
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? { nameBytes.index(of: key) }
    func rank(_ d: Int) -> Int { ranks[d] }
    /// Whether parameter d is a String (not a list), whose plain strings `value` keeps.
    func isString(_ d: Int) -> Bool { kinds[d] == .string }

    /// The parameters the flow takes from `body`, when the scan passes it (see the type's
    /// comment); nil: the parse decides.
    func parameters(_ body: UnsafeRawBufferPointer) -> [String: JSON]? {
        guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let bytes = UnsafeBufferPointer(start: base, count: body.count)
        let n = bytes.count
        guard n >= 2, bytes[0] == UInt8(ascii: "{") else { return nil }
        var parameters = [String: JSON](minimumCapacity: names.count)
        var given: UInt64 = 0
        var i = 1
        if bytes[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            var previousRank = -1
            while true {
                // The key: a declared name, byte for byte, after the previous one in byte order.
                guard i < n, bytes[i] == UInt8(ascii: "\"") else { return nil }
                let keyStart = i + 1
                var nonASCII = false
                let k = JSONByteScan.plainRunEnd(bytes, from: keyStart, nonASCII: &nonASCII)
                guard k < n, bytes[k] == UInt8(ascii: "\""), !nonASCII,
                      let d = nameBytes.index(of: UnsafeBufferPointer(rebasing: bytes[keyStart..<k])),
                      ranks[d] > previousRank else { return nil }
                previousRank = ranks[d]
                i = k + 1
                guard i < n, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                guard i < n, let value = value(bytes, &i, d) else { return nil }
                parameters[names[d]] = value
                given |= 1 << UInt64(d)
                guard i < n else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "}") else { return nil }
                i += 1
                break
            }
        }
        guard i == n, defaulted & ~given == 0 else { return nil }
        return parameters
    }

    /// The value at `i` for parameter `d` when its parameter keeps it as given, and `i` past
    /// it; nil for anything else.
    func value(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ d: Int) -> JSON? {
        switch (kinds[d], bytes[i]) {
        case (.string, UInt8(ascii: "\"")):
            let start = i + 1
            var nonASCII = false
            let end = JSONByteScan.plainRunEnd(bytes, from: start, nonASCII: &nonASCII)
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
            let run = UnsafeBufferPointer(rebasing: bytes[start..<end])
            // As the parse makes it: straight from ASCII, validated otherwise.
            guard let text = nonASCII ? String(validating: run, as: UTF8.self) : String(decoding: run, as: UTF8.self) else { return nil }
            i = end + 1
            return .string(text)
        case (.boolean, UInt8(ascii: "t")):
            guard Self.literal("true", bytes, at: i) else { return nil }
            i += 4
            return .bool(true)
        case (.boolean, UInt8(ascii: "f")):
            guard Self.literal("false", bytes, at: i) else { return nil }
            i += 5
            return .bool(false)
        case (.integer, UInt8(ascii: "-")), (.integer, UInt8(ascii: "0")...UInt8(ascii: "9")):
            var k = i
            let negative = bytes[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            let digits = k
            var v: Int64 = 0
            while k < bytes.count, bytes[k] >= UInt8(ascii: "0"), bytes[k] <= UInt8(ascii: "9") {
                // More than 18 digits may not fit in 64 bits: the parse's (before v overflows).
                guard k - digits < 18 else { return nil }
                v = v * 10 + Int64(bytes[k] - UInt8(ascii: "0"))
                k += 1
            }
            // 1 to 18 digits, no leading zero, not "-0" (the writer writes "0"). What follows
            // must be a ',' or the '}' (the caller's), so no fraction or exponent.
            guard k > digits, bytes[digits] != UInt8(ascii: "0") || k - digits == 1, !(negative && v == 0) else { return nil }
            let number = negative ? -v : v
            // `ParameterCoercion.checkRange`, on the same double.
            if let low = ranges[d].low, Double(number) < low { return nil }
            if let high = ranges[d].high, Double(number) > high { return nil }
            i = k
            return .int(number)
        default:
            return nil
        }
    }

    /// Whether `word`'s bytes stand at `i` (also the run scan's keys and punctuation).
    static func literal(_ word: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let n = word.utf8CodeUnitCount
        guard let base = bytes.baseAddress, i >= 0, bytes.count - i >= n else { return false }
        return memcmp(base + i, word.utf8Start, n) == 0
    }
}
