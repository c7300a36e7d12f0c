import Foundation
import IntentBusZMQ

/// MDP bodies are any number of opaque frames (RFC 7); an IB1 message through the router
/// core carries one body frame. Between an MDP client and an `mdp_worker` entry's workers
/// the endpoint therefore packs the frames into one while they cross the core, and unpacks
/// them on the other side, so that the worker sees the client's frames and the client the
/// worker's, byte for byte (docs/mdp.md, "Bodies").
///
/// A packed frame is a marker (a zero byte, `F`, and the 8 random bytes of this host's
/// `MajordomoIdentity`), a 32-bit frame count, then each frame as a 32-bit length and its
/// bytes, big-endian. Nobody outside the host knows the random bytes, so no client body
/// can be taken for a packed one.
///
/// Pure value code on the router thread.
struct MajordomoFrames {
    let marker: Data

    init(identities: MajordomoIdentity) {
        marker = identities.marker(kind: UInt8(ascii: "F"))
    }

    /// One frame holding `frames` (copied: a frame handed on is consumed by its send).
    func pack(_ frames: [Frame]) -> Frame {
        var out = marker
        out.reserveCapacity(marker.count + 4 + frames.reduce(0) { $0 + 4 + $1.count })
        Self.append(UInt32(frames.count), to: &out)
        for frame in frames {
            Self.append(UInt32(frame.count), to: &out)
            frame.withBytes { out.append(contentsOf: $0) }
        }
        return Frame(data: out)
    }

    /// The frames `frame` holds when it is a packed one of this host, else nil.
    func unpack(_ frame: Frame) -> [Frame]? {
        frame.withBytes { raw -> [Frame]? in
            guard raw.count >= marker.count + 4, marker.elementsEqual(raw.prefix(marker.count)) else { return nil }
            var at = marker.count
            func read() -> Int? {
                guard raw.count - at >= 4 else { return nil }
                let n = raw[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
                at += 4
                return n
            }
            guard let count = read(), count <= raw.count else { return nil }
            var frames: [Frame] = []
            frames.reserveCapacity(count)
            for _ in 0..<count {
                guard let length = read(), raw.count - at >= length else { return nil }
                frames.append(Frame(bytes: UnsafeRawBufferPointer(rebasing: raw[at..<at + length])))
                at += length
            }
            return at == raw.count ? frames : nil
        }
    }

    private static func append(_ n: UInt32, to data: inout Data) {
        data.append(contentsOf: [UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16),
                                 UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)])
    }
}
