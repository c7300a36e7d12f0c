import Foundation
import IntentBusCore
import IntentBusZMQ

/// One Majordomo message (MDP/0.1, ZeroMQ RFC 7) as the host's MDP socket receives it,
/// after the ROUTER's identity frame:
///
///     client:  "" | "MDPC01" | service | body…
///     worker:  "" | "MDPW01" | 0x01 READY | service
///              "" | "MDPW01" | 0x03 REPLY | client address | "" | body…
///              "" | "MDPW01" | 0x04 HEARTBEAT
///              "" | "MDPW01" | 0x05 DISCONNECT
///
/// Pure value code: parsing and building frames, no socket (docs/mdp.md).
enum MajordomoMessage {
    /// MDPC01 REQUEST: `service` is frame 2 as sent (checked later, so that even a bad
    /// name gets its one reply), `body` frames 3 and up.
    case request(service: Frame, body: [Frame])
    /// MDPW01 READY for a service.
    case ready(service: String)
    /// MDPW01 REPLY to the request whose client address the host gave.
    case reply(address: String, body: [Frame])
    case heartbeat
    case disconnect

    /// Most body frames a request or a reply may have (RFC 7 sets no bound; memory must).
    static let maximumBodyFrames = 64

    static let client = "MDPC01"
    static let worker = "MDPW01"

    /// The one-byte worker commands.
    enum Command: UInt8 {
        case ready = 1, request, reply, heartbeat, disconnect
    }

    /// Reads the frames after the identity; what is not MDP/0.1 is a `MajordomoFrameError`.
    static func parse(_ frames: ArraySlice<Frame>) throws(MajordomoFrameError) -> MajordomoMessage {
        var rest = frames
        guard let delimiter = rest.popFirst(), delimiter.count == 0 else {
            throw MajordomoFrameError("frame 0 must be empty (a REQ socket adds it; a DEALER must write it)")
        }
        guard let signature = rest.popFirst() else { throw MajordomoFrameError("no protocol frame after the empty frame") }
        if signature.equals("MDPC01") {
            guard let service = rest.popFirst() else { throw MajordomoFrameError("an MDPC01 REQUEST needs a service frame") }
            return .request(service: service, body: Array(rest))
        }
        guard signature.equals("MDPW01") else {
            throw MajordomoFrameError("frame 1 is neither MDPC01 nor MDPW01 (this endpoint speaks MDP/0.1 only)")
        }
        guard let commandFrame = rest.popFirst(), commandFrame.count == 1,
              let command = Command(rawValue: commandFrame.withBytes { $0[0] }) else {
            throw MajordomoFrameError("an MDPW01 command is one byte, 0x01 to 0x05")
        }
        switch command {
        case .ready:
            guard rest.count == 1, let service = rest.first?.validUTF8, !service.isEmpty,
                  service.utf8.count <= WireProtocol.maxNameLength else {
                throw MajordomoFrameError("READY needs exactly one service frame: 1 to \(WireProtocol.maxNameLength) bytes of UTF-8")
            }
            return .ready(service: service)
        case .reply:
            guard rest.count >= 2, let address = rest[rest.startIndex].validUTF8,
                  rest[rest.startIndex + 1].count == 0 else {
                throw MajordomoFrameError("REPLY needs the client address, an empty frame, then the body")
            }
            guard rest.count - 2 <= maximumBodyFrames else {
                throw MajordomoFrameError("a REPLY has at most \(maximumBodyFrames) body frames")
            }
            return .reply(address: address, body: Array(rest.dropFirst(2)))
        case .heartbeat:
            return .heartbeat
        case .disconnect:
            return .disconnect
        case .request:
            throw MajordomoFrameError("REQUEST goes from the broker to a worker, never to the broker")
        }
    }

    // MARK: - Building

    /// A client REPLY: `"" | "MDPC01" | service | body`.
    static func clientReply(service: Data, body: Data) -> [Frame] {
        [Frame(), Frame(client), Frame(data: service), Frame(data: body)]
    }

    /// A client REPLY with any number of body frames (a handler's, unchanged).
    static func clientReply(service: Data, frames: [Frame]) -> [Frame] {
        [Frame(), Frame(client), Frame(data: service)] + frames
    }

    /// A REQUEST to a worker: `"" | "MDPW01" | 0x02 | client address | "" | body…`.
    static func workerRequest(address: String, body: [Frame]) -> [Frame] {
        [Frame(), Frame(worker), Frame(bytes: [Command.request.rawValue]), Frame(address), Frame()] + body
    }

    /// A bodiless worker command: HEARTBEAT or DISCONNECT.
    static func workerCommand(_ command: Command) -> [Frame] {
        [Frame(), Frame(worker), Frame(bytes: [command.rawValue])]
    }
}

/// A message on the MDP socket that is not MDP/0.1.
struct MajordomoFrameError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
