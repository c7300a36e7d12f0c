import Foundation

/// The identities the router core sees for what arrives over MDP: a stand-in frontend
/// client per MDP client connection, and a stand-in plugin connection per `mdp_worker`
/// entry. The shell hands messages the core sends to these back to the MDP endpoint.
///
/// Each is 14 bytes: a zero byte, a kind (`C` client, `W` workers), 8 random bytes chosen
/// when the host starts, and a 32-bit number. libzmq gives the peers it names 5-byte
/// identities, and a peer that names itself would have to guess the 8 random bytes, so a
/// frontend client or a plugin can never pass for one of these.
struct MajordomoIdentity {
    static let length = 14
    private let secret: [UInt8]

    init() {
        var rng = SystemRandomNumberGenerator()
        secret = (0..<8).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// The stand-in client identity number `n` (its low 32 bits).
    func client(_ n: UInt64) -> Data { make(kind: UInt8(ascii: "C"), UInt32(truncatingIfNeeded: n)) }

    /// The stand-in plugin connection of the `mdp_worker` entry at slot `index`.
    func workers(slot index: Int) -> Data { make(kind: UInt8(ascii: "W"), UInt32(truncatingIfNeeded: index)) }

    /// Whether `identity` is one of ours: a cheap length test first, as the shell asks for
    /// every message it sends.
    @inline(__always) func owns(_ identity: Data) -> Bool {
        guard identity.count == Self.length, identity.first == 0 else { return false }
        let start = identity.startIndex + 2
        for i in 0..<8 where identity[start + i] != secret[i] { return false }
        return true
    }

    /// Whether `identity` (one of ours) stands for an MDP client.
    func isClient(_ identity: Data) -> Bool { identity.count == Self.length && identity[identity.startIndex + 1] == UInt8(ascii: "C") }

    /// The slot index an `mdp_worker` stand-in names.
    func slotIndex(_ identity: Data) -> Int {
        let bytes = [UInt8](identity.suffix(4))
        var n = 0
        for byte in bytes { n = n << 8 | Int(byte) }
        return n
    }

    /// A zero byte, `kind`, and this host's random bytes: a prefix no peer can forge
    /// (`MajordomoFrames` marks packed bodies with it).
    func marker(kind: UInt8) -> Data { Data([0, kind] + secret) }

    private func make(kind: UInt8, _ n: UInt32) -> Data {
        var bytes: [UInt8] = [0, kind]
        bytes += secret
        bytes += [UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16),
                  UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
        return Data(bytes)
    }
}
