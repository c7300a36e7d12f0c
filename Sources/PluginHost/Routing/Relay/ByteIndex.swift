import Foundation

/// An open-addressing hash index from byte strings to small integers, for the relay
/// lane's tables (intents, clients, open requests). It stores only the hash and the value;
/// the caller keeps the keys and says whether a value's key matches, so that a lookup
/// needs no allocation and no `Hashable` key object (Swift's `Dictionary` with a `Data` or
/// `String` key cost ~400 instructions per hash on the hot path, docs/performance.md).
///
/// Hashes are seeded per process (`ByteHash`), so that a client can't choose keys that
/// collide; probe chains stay short because the table is at most half full.
///
/// Owned by the router thread.
struct ByteIndex {
    private static let empty: Int32 = -1
    private static let deleted: Int32 = -2
    private var hashes: [UInt64]
    private var values: [Int32]
    private var mask: Int
    private(set) var count = 0
    private var used = 0  // live + deleted

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        hashes = Array(repeating: 0, count: size)
        values = Array(repeating: Self.empty, count: size)
        mask = size - 1
    }

    /// The value whose key has `hash` and for which `matches` holds, or nil.
    @inline(__always)
    func find(_ hash: UInt64, _ matches: (Int32) -> Bool) -> Int32? {
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
            let v = values[i]
            if v == Self.empty { return nil }
            if v >= 0, hashes[i] == hash, matches(v) { return v }
            i = (i + 1) & mask
        }
    }

    /// Adds `value` under `hash` (the caller has checked that its key is not there yet).
    mutating func insert(_ hash: UInt64, _ value: Int32) {
        if (used + 1) * 2 > values.count { rehash(grow: count * 4 > values.count) }
        var i = Int(truncatingIfNeeded: hash) & mask
        while values[i] >= 0 { i = (i + 1) & mask }
        if values[i] == Self.empty { used += 1 }
        hashes[i] = hash
        values[i] = value
        count += 1
    }

    /// Removes `value`, stored under `hash`. Returns whether it was there.
    @discardableResult
    mutating func remove(_ hash: UInt64, _ value: Int32) -> Bool {
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
            let v = values[i]
            if v == Self.empty { return false }
            if v == value, hashes[i] == hash {
                values[i] = Self.deleted
                count -= 1
                return true
            }
            i = (i + 1) & mask
        }
    }

    /// Every stored (hash, value).
    var entries: [(UInt64, Int32)] {
        values.indices.compactMap { values[$0] >= 0 ? (hashes[$0], values[$0]) : nil }
    }

    mutating func removeAll() { self = ByteIndex() }

    private mutating func rehash(grow: Bool) {
        let old = entries
        var size = values.count
        if grow { size <<= 1 }
        hashes = Array(repeating: 0, count: size)
        values = Array(repeating: Self.empty, count: size)
        mask = size - 1
        count = 0
        used = 0
        for (h, v) in old { insert(h, v) }
    }
}

/// A seeded 64-bit hash of byte strings (multiply-xorshift over 8-byte words), cheap for
/// the short keys of the hot path: routing ids, request ids, intent names.
enum ByteHash {
    /// Chosen at start, so that hashes differ from run to run.
    static let seed: UInt64 = UInt64.random(in: 1...UInt64.max)

    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, _ start: UInt64 = seed) -> UInt64 {
        var h = start ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return mix(h) }
        var i = 0
        let n = bytes.count
        while i + 8 <= n {
            h = mix(h ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
                shift += 8
                i += 1
            }
            h = mix(h ^ tail)
        }
        return mix(h)
    }

    @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
        var z = x &* 0xBF58_476D_1CE4_E5B9
        z ^= z >> 31
        z = z &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 29)
    }
}

extension UnsafeRawBufferPointer {
    /// Byte-wise equality, without allocation.
    @inline(__always) func sameBytes(_ other: UnsafeRawBufferPointer) -> Bool {
        count == other.count && (count == 0 || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }
}
