import Foundation

extension JSON {
    /// Whether `self` and `other` have the same canonical text, byte for byte: the SDK
    /// sends a plain handler's reply as the request's own body frame when the handler
    /// gave its parameters back and those arrived canonical (docs/performance.md).
    ///
    /// Not `==`: Swift's `String` equality is canonical equivalence ("é" precomposed
    /// equals "e" plus a combining accent) and `0.0 == -0.0`, and both write different
    /// bytes. A string or array that shares its storage with the other answers at once,
    /// so a value handed back unchanged costs a walk over its objects' keys, not over
    /// its bytes.
    package func writesSameBytes(as other: JSON) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): return Self.sameBytes(a, b)
        case let (.array(a), .array(b)):
            guard a.count == b.count else { return false }
            let shared = a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
            if shared { return true }
            for (x, y) in zip(a, b) where !x.writesSameBytes(as: y) { return false }
            return true
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                // A lookup matches a canonically equivalent key too: compare its bytes.
                guard let index = b.index(forKey: key), Self.sameBytes(b[index].key, key),
                      value.writesSameBytes(as: b[index].value) else { return false }
            }
            return true
        default: return false
        }
    }

    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                pa.count == pb.count
                    && (pa.isEmpty || pa.baseAddress == pb.baseAddress || memcmp(pa.baseAddress!, pb.baseAddress!, pa.count) == 0)
            }
        }
    }
}
