import Foundation

/// The open exchanges, by host id, without hashing.
///
/// A host id is the exchange's index in this table (low 32 bits) plus a serial number
/// (high 32 bits), so a lookup is an array index and a comparison, and a late answer to a
/// finished request (whose index may have been reused) does not match. Keying the
/// exchanges by a base-36 `String` id cost two String hashes and compares per lookup on
/// the hot path (docs/performance.md). Owned by the router thread.
///
/// Ids with bit 31 set belong to the relay lane (Relay/RelayLane.swift); an exchange the
/// lane hands over keeps its id and lives in `promoted` (rare: errors, prompts, timeouts).
struct ExchangeTable {
    /// The bit that marks a relay-lane id.
    static let laneBit: UInt64 = 0x8000_0000
    private var entries: [Exchange?] = []
    private var promoted: [UInt64: Exchange] = [:]
    private var free: [Int] = []
    private var serial: UInt64 = 0
    /// The number of open exchanges.
    private(set) var count = 0

    /// A fresh host id, for the exchange about to be inserted with it.
    mutating func nextId() -> UInt64 {
        serial = serial & 0xffff_ffff == 0xffff_ffff ? 1 : serial + 1
        let index = free.popLast() ?? entries.count
        if index == entries.count { entries.append(nil) }
        free.append(index)  // taken for real by `insert`
        return serial << 32 | UInt64(index)
    }

    /// Stores `exchange` under the id `nextId()` just returned.
    mutating func insert(_ exchange: Exchange) {
        let index = Int(truncatingIfNeeded: exchange.hostId & 0xffff_ffff)
        precondition(free.last == index && entries[index] == nil, "ExchangeTable.insert without nextId()")
        free.removeLast()
        entries[index] = exchange
        count += 1
    }

    /// Adds an exchange the relay lane hands over, under the lane's id.
    mutating func insertPromoted(_ exchange: Exchange) {
        precondition(exchange.hostId & Self.laneBit != 0 && promoted[exchange.hostId] == nil)
        promoted[exchange.hostId] = exchange
        count += 1
    }

    /// The open exchange with this host id, or nil.
    subscript(id: UInt64) -> Exchange? {
        if id & Self.laneBit != 0 { return promoted[id] }
        let index = Int(truncatingIfNeeded: id & 0xffff_ffff)
        guard index < entries.count, let exchange = entries[index], exchange.hostId == id else { return nil }
        return exchange
    }

    /// The open exchange with this plugin-side request id (base 36), or nil.
    subscript(wireId wireId: String) -> Exchange? {
        guard let id = ExchangeTable.hostId(wireId) else { return nil }
        return self[id]
    }

    private static let digits: StaticString = "0123456789abcdefghijklmnopqrstuvwxyz"

    /// `id` in base 36, lower case: the same text as `String(id, radix: 36)`, written
    /// directly (the generic conversion cost ~700 instructions per request,
    /// docs/performance.md). At most 13 characters, so it stays a small string.
    static func wireId(_ id: UInt64) -> String {
        String(unsafeUninitializedCapacity: 13) { buffer in writeWireId(id, into: buffer.baseAddress!) }
    }

    /// Writes `id` in base 36 into `buffer` (room for 13 bytes); returns the length.
    @inline(__always)
    static func writeWireId(_ id: UInt64, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        var n = id, count = 0
        repeat {
            buffer[count] = digits.utf8Start[Int(n % 36)]
            n /= 36
            count += 1
        } while n > 0
        var (i, j) = (0, count - 1)
        while i < j {
            (buffer[i], buffer[j]) = (buffer[j], buffer[i])
            i += 1
            j -= 1
        }
        return count
    }

    /// The host id a base-36 request id names, or nil when it is not one of ours.
    static func hostId(_ wireId: String) -> UInt64? {
        var text = wireId
        return text.withUTF8 { hostId(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The host id base-36 `bytes` name, or nil.
    @inline(__always)
    static func hostId(bytes: UnsafeRawBufferPointer) -> UInt64? {
        var id: UInt64 = 0
        var count = 0
        for c in bytes {
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = c - UInt8(ascii: "a") + 10
            default: return nil
            }
            let (times, o1) = id.multipliedReportingOverflow(by: 36)
            let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
            if o1 || o2 { return nil }
            id = sum
            count += 1
        }
        return count == 0 ? nil : id
    }

    /// Removes the exchange with this id; returns it, or nil when it was not open.
    @discardableResult
    mutating func remove(_ id: UInt64) -> Exchange? {
        if id & Self.laneBit != 0 {
            guard let exchange = promoted.removeValue(forKey: id) else { return nil }
            count -= 1
            return exchange
        }
        guard let exchange = self[id] else { return nil }
        let index = Int(truncatingIfNeeded: id & 0xffff_ffff)
        entries[index] = nil
        free.append(index)
        count -= 1
        return exchange
    }

    /// Every open exchange, oldest first.
    var all: [Exchange] {
        (entries.compactMap { $0 } + promoted.values).sorted { $0.startedAt < $1.startedAt }
    }
}
