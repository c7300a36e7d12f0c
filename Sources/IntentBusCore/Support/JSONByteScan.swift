import Foundation

/// Finds, eight bytes at a time, where a run of string bytes that JSON leaves as they are
/// ends: at the first quote, backslash or control character. The parser reads a string's
/// unescaped run and the writer copies a string's run without escaping in bulk from
/// that; byte by byte, both cost about 6 instructions per byte of a 1 MB body
/// (callgrind, docs/performance.md, "The SDK's plain handler on large bodies").
package enum JSONByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first byte at or after `start` that is `"`, `\` or below 0x20,
    /// or `bytes.count` if there is none. `nonASCII` is set when a byte before that index
    /// is 0x80 or above (and left alone otherwise).
    package static func plainRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, nonASCII: inout Bool) -> Int {
        let n = bytes.count
        guard start < n, let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var i = start
        var high: UInt64 = 0
        while i + 8 <= n {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let quote = w ^ (0x22 &* ones), backslash = w ^ (0x5C &* ones)
            // The classic "has a zero byte" and "has a byte below n" tests; the lowest
            // flagged byte is always a true one (a false flag needs a borrow from below),
            // so the first special byte is the lowest set bit.
            let flags = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- 0x20 &* ones) & ~w) & highs
            if flags != 0 {
                let k = flags.trailingZeroBitCount >> 3
                if k > 0 { high |= w & (UInt64.max >> UInt64(64 - 8 * k)) }
                if high & highs != 0 { nonASCII = true }
                return i + k
            }
            high |= w
            i += 8
        }
        if high & highs != 0 { nonASCII = true }
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { return i }
            if b >= 0x80 { nonASCII = true }
            i += 1
        }
        return n
    }
}

/// Declared names as bytes, looked up by a key's bytes without a `String`: the body scans'
/// table of parameter names (`NewStyleBodyScan`, `LegacyBodyScan`).
package struct JSONKeyNames {
    private let names: [[UInt8]]

    package init(_ names: [String]) { self.names = names.map { Array($0.utf8) } }

    /// The index of the name whose bytes are `key`'s, or nil.
    package func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        for d in names.indices {
            let found = names[d].withUnsafeBufferPointer { name in
                name.count == key.count && (key.count == 0 || memcmp(name.baseAddress!, key.baseAddress!, key.count) == 0)
            }
            if found { return d }
        }
        return nil
    }
}
