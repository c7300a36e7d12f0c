import Foundation
internal import CSodium

/// SHA-256, for the `sha256` check of plugin executables: libsodium's
/// `crypto_hash_sha256` (libsodium is libzmq's own CURVE library, so the host already
/// loads it). Fed in pieces; `finish()` gives the lower-case hex digest.
struct SHA256 {
    private var state = crypto_hash_sha256_state()

    init() {
        _ = Self.ready
        crypto_hash_sha256_init(&state)
    }

    /// sodium_init() once per process (idempotent, thread-safe; picks the CPU's fastest code).
    private static let ready: Int32 = sodium_init()

    mutating func update(_ data: Data) {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            _ = crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
        }
    }

    mutating func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256_final(&state, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
