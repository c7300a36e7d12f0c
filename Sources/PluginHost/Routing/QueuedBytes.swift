import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusMetadata

/// What libzmq holds for each peer, in bytes (HeldBytes), and the rule that keeps it
/// within `host.limits`: a message with a frame of 1 KiB or more goes to libzmq only while
/// the peer's count and the host's total leave room for it, and then as counted copies.
/// Smaller messages are bounded by libzmq's message count (`client_queue`, a plugin's
/// `max_in_flight`) times 1 KiB instead. Part of the shell.
///
/// Owned by the router thread (the counters themselves fall on libzmq's I/O thread).
struct QueuedBytes {
    /// Everything libzmq holds for clients and plugins together.
    let total = HeldBytes()
    private var peers: [PeerKey: HeldBytes] = [:]

    /// Whether `frames` must be counted: one of them is 1 KiB or more.
    static func isLarge(_ frames: [Frame]) -> Bool {
        frames.contains { $0.count >= HeldBytes.countedFrameBytes }
    }

    static func size(_ frames: [Frame]) -> Int { frames.reduce(0) { $0 + $1.count } }

    /// The bytes libzmq holds for `identity` now.
    func held(by identity: Data) -> Int { peers[PeerKey(identity: identity)]?.value ?? 0 }

    /// Whether `size` more bytes for `identity` stay within `limit` for the peer and
    /// `totalLimit` for the host (`extra`: what else counts in that total, the backlogs).
    func fits(_ size: Int, for identity: Data, limit: Int, totalLimit: Int, extra: Int = 0) -> Bool {
        held(by: identity) + size <= limit && total.value + extra + size <= totalLimit
    }

    /// Counted copies of the large frames of `frames` (the small ones as they are), so
    /// that what libzmq holds for `identity` is known until it has written them.
    mutating func counted(_ frames: [Frame], for identity: Data) -> [Frame] {
        let key = PeerKey(identity: identity)
        let held: HeldBytes
        if let known = peers[key] {
            held = known
        } else {
            if peers.count >= 1_024 { forgetIdle() }
            held = HeldBytes(parent: total)
            peers[key] = held
        }
        return frames.map { $0.count >= HeldBytes.countedFrameBytes ? Frame(copyOf: $0, heldIn: held) : $0 }
    }

    /// Forgets the peers libzmq holds nothing for (a frame still held keeps its counter
    /// alive through its own reference, and only counters at zero are dropped).
    mutating func forgetIdle() {
        peers = peers.filter { $0.value.value != 0 }
    }
}
