import Foundation
import IntentBusCore
import IntentBusZMQ

/// The router's two sides: clients on the frontend, plugins on the backend.
enum RouterSide { case clients, plugins }

/// One frame of a raw forward (`RawForward`).
enum RawPiece {
    /// Frame `i` of the received message, moved on without a copy.
    case received(Int)
    /// A frame kept in the lane's `MessageStore` (entry, part), moved on.
    case stored(Int, part: Int)
    /// An empty frame (a REQ peer's delimiter; an empty header).
    case empty
    /// A host id, written as the plugin-side request id (base 36).
    case wireId(UInt64)
    /// Bytes that outlive the send (a plugin's connection identity), copied.
    case bytes(UnsafeRawBufferPointer)
}

/// What the relay lane sends on, as a value: the frames of one message, most of them moved
/// from the received message or the lane's store, so a lane request costs no `Frame` and
/// no copy. The core builds it; the shell sends it (`RouterEffects.forwardRaw`), so that
/// nothing but the shell writes a socket.
///
/// The first piece is the peer's routing identity. When it cannot be sent (the peer's pipe
/// is full, the peer is gone) nothing is sent and nothing is moved, and the core then
/// handles the message as it always does.
struct RawForward {
    let side: RouterSide
    private(set) var pieces = InlineArray<8, RawPiece>(repeating: .empty)
    private(set) var count = 0

    /// The plugin agreed at HELLO to the packed form (docs/protocol.md §5.1): the six
    /// frames after the identity go as one packed frame (`sendPacked`).
    var packed = false

    init(to side: RouterSide) { self.side = side }

    @inline(__always) mutating func append(_ piece: RawPiece) {
        pieces[count] = piece
        count += 1
    }

    /// Sends the pieces on `socket`: the received message's frames from `m`, stored ones
    /// from `store`. The outcome is the identity frame's: after it, a ROUTER socket
    /// takes the rest of the message whole.
    func send(on socket: ZMQSocket, from m: RawMessage, store: MessageStore) -> SendStatus {
        if packed, count == 1 + WireProtocol.frameCount, let status = sendPacked(on: socket, from: m, store: store) {
            return status
        }
        // Through a span: `pieces[i]` on a borrowed InlineArray copies all of it (8 pieces,
        // ~200 bytes, a memcpy) for each frame sent, 14 per request, which callgrind showed.
        let pieces = self.pieces.span
        for i in 0..<count {
            let more = i < count - 1
            let status: SendStatus
            switch pieces[i] {
            case .received(let f): status = m.send(f, on: socket, more: more)
            case .stored(let e, let part): status = store.send(e, part, on: socket, more: more)
            case .empty: status = socket.sendBytes(UnsafeRawBufferPointer(start: nil, count: 0), more: more)
            case .bytes(let bytes): status = socket.sendBytes(bytes, more: more)
            case .wireId(let id):
                status = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
                    let n = ExchangeTable.writeWireId(id, into: buffer.baseAddress!)
                    return socket.sendBytes(UnsafeRawBufferPointer(start: buffer.baseAddress, count: n), more: more)
                }
            }
            // A pattern, not `!=`: SendStatus's synthesized `==` is a witness call across modules.
            if i == 0, case .sent = status {} else if i == 0 { return status }
        }
        return .sent
    }

    /// The identity, then the six frames as one packed frame (copies: each frame a libzmq
    /// message costs more than copying small ones, docs/performance.md); nil when the
    /// message is larger than `PackedFrame.linkLimit` (it then goes as six frames, its
    /// body moved without a copy) or a field does not fit the packed form.
    private func sendPacked(on socket: ZMQSocket, from m: RawMessage, store: MessageStore) -> SendStatus? {
        let pieces = self.pieces.span
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { idBuffer -> SendStatus? in
            func bytes(_ piece: RawPiece) -> UnsafeRawBufferPointer {
                switch piece {
                case .received(let f): return m.bytes(f)
                case .stored(let e, let part): return store.bytes(e, part)
                case .empty: return UnsafeRawBufferPointer(start: nil, count: 0)
                case .bytes(let bytes): return bytes
                case .wireId(let id):
                    return UnsafeRawBufferPointer(start: idBuffer.baseAddress, count: ExchangeTable.writeWireId(id, into: idBuffer.baseAddress!))
                }
            }
            let (kind, id, intent, header, body) = (bytes(pieces[2]), bytes(pieces[3]), bytes(pieces[4]), bytes(pieces[5]), bytes(pieces[6]))
            guard let size = PackedFrame.size(kind: kind.count, requestId: id.count, intent: intent.count,
                                              header: header.count, body: body.count),
                  size <= PackedFrame.linkLimit else { return nil }
            let first = socket.sendBytes(bytes(pieces[0]), more: true)
            guard case .sent = first else { return first }
            let status = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { frame in
                PackedFrame.write(into: UnsafeMutableRawPointer(frame.baseAddress!), kind: kind, requestId: id, intent: intent,
                                  header: header, body: body)
                return socket.sendBytes(UnsafeRawBufferPointer(frame), more: false)
            }
            release(store)  // as a send would have moved them
            return status
        }
    }

    /// Empties the stored pieces, as a send moves them (after the pieces went as copies).
    func release(_ store: MessageStore) {
        for i in 0..<count {
            if case .stored(let e, let part) = pieces[i] { store.release(e, part) }
        }
    }

    /// The pieces as frames (copies), for effects that record rather than send.
    func frames(from m: RawMessage, store: MessageStore) -> [Frame] {
        (0..<count).map { i in
            switch pieces[i] {
            case .received(let f): Frame(bytes: m.bytes(f))
            case .stored(let e, let part): store.frame(e, part)
            case .empty: Frame()
            case .bytes(let bytes): Frame(bytes: bytes)
            case .wireId(let id): Frame(ExchangeTable.wireId(id))
            }
        }
    }
}
