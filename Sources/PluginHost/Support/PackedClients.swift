import Foundation
import IntentBusCore
import IntentBusZMQ

/// The clients that speak the packed form (docs/protocol.md §2.1): a client whose last
/// message came as one packed frame gets its messages packed too; one that sends six
/// frames again gets six. Part of the router shell, on the router thread.
///
/// Only a cache of what each client said last: a client that packs reads both forms, so
/// forgetting it (the set is full, the connection is gone) costs six frames, never an
/// answer. Bounded by `limit` entries; when full it starts again empty.
struct PackedClients {
    private var identities: Set<Data> = []
    let limit: Int

    init(limit: Int = 16_384) { self.limit = limit }

    var isEmpty: Bool { identities.isEmpty }

    func contains(_ identity: Data) -> Bool { !identities.isEmpty && identities.contains(identity) }

    /// What `identity` sent last: packed or six frames.
    mutating func heard(_ identity: Data, packed: Bool) {
        if packed {
            if identities.count >= limit, !identities.contains(identity) { identities.removeAll(keepingCapacity: true) }
            identities.insert(identity)
        } else if !identities.isEmpty {
            identities.remove(identity)
        }
    }

    /// `frames` (any envelope frames, then the six) as the envelope and one packed frame,
    /// when `identity` packs; else as they are.
    func outgoing(_ frames: [Frame], to identity: Data) -> [Frame] {
        guard frames.count >= WireProtocol.frameCount, contains(identity) else { return frames }
        let envelope = frames.count - WireProtocol.frameCount
        guard let packed = Frame.packing(frames[envelope...]) else { return frames }
        return Array(frames[..<envelope]) + [packed]
    }
}
