internal import CLinuxSupport
import Foundation

extension UnsafeRawBufferPointer {
    /// Whether the bytes contain `needle` (ASCII), with memmem(3): no allocation and no
    /// per-byte closure, for the scans of REPLY headers on the hot path.
    func contains(_ needle: StaticString) -> Bool {
        let n = needle.utf8CodeUnitCount
        guard count >= n, let base = baseAddress else { return false }
        return ib_contains_bytes(base, UInt(count), needle.utf8Start, UInt(n)) != 0
    }
}
