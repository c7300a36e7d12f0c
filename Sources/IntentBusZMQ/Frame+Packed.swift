internal import CZeroMQ
import Foundation
import IntentBusCore

/// The packed form as `Frame`s (docs/protocol.md §2.1; the byte code is `PackedFrame`):
/// for the host's sends to a client that packs, the Swift client, and both ends of the
/// packed plugin link (§5.1).
extension Frame {
    /// The six frames of an IB1 message (signature first) as one packed frame; nil when
    /// they are not six or a field is too long for the packed form (more than 255 bytes
    /// of kind, request id or intent): the caller then sends the six.
    package static func packing(_ six: ArraySlice<Frame>) -> Frame? {
        let packed = Frame()
        return packed.setPacked(six, limit: .max) ? packed : nil
    }

    /// Replaces this frame's content with the packed form of `six` (signature first); false
    /// (content unchanged) when they are not six, a field does not fit the packed form or
    /// the packed frame would be larger than `limit`: the caller then sends the six.
    package func setPacked(_ six: ArraySlice<Frame>, limit: Int) -> Bool {
        guard six.count == WireProtocol.frameCount else { return false }
        let f = six.startIndex
        guard let size = PackedFrame.size(kind: six[f + 1].count, requestId: six[f + 2].count, intent: six[f + 3].count,
                                          header: six[f + 4].count, body: six[f + 5].count), size <= limit else { return false }
        withMsg { msg in
            zmq_msg_close(msg)
            zmq_msg_init_size(msg, size)
            let dst = zmq_msg_data(msg)!
            six[f + 1].withBytes { kind in six[f + 2].withBytes { id in six[f + 3].withBytes { intent in
                six[f + 4].withBytes { header in six[f + 5].withBytes { body in
                    PackedFrame.write(into: dst, kind: kind, requestId: id, intent: intent, header: header, body: body)
                } }
            } } }
        }
        return true
    }

    /// Splits the packed message in `self` into `six` (signature first), reusing their
    /// frames (copies); false, `six` unchanged, when `self` is not a well-formed packed frame.
    package func unpack(into six: inout [Frame]) -> Bool {
        withBytes { bytes -> Bool in
            guard PackedFrame.isPacked(bytes) else { return false }
            let layout: PackedFrame.Layout
            do throws(WireError) { layout = try PackedFrame.layout(bytes) } catch { return false }
            if six.count != WireProtocol.frameCount {
                six.removeAll(keepingCapacity: true)
                for _ in 0..<WireProtocol.frameCount { six.append(Frame()) }
            }
            for i in 0..<WireProtocol.frameCount where !isKnownUniquelyReferenced(&six[i]) { six[i] = Frame() }
            Self.signatureBytes.withUnsafeBytes { six[0].setContent(raw: $0) }
            let fields = layout.inlineFields
            for k in 0..<5 { six[k + 1].setContent(raw: UnsafeRawBufferPointer(rebasing: bytes[fields[k]])) }
            return true
        }
    }

    private static let signatureBytes = Array(WireProtocol.signature.utf8)

    /// Replaces this frame's content with a copy of `bytes` (one `memcpy`).
    package func setContent(raw bytes: UnsafeRawBufferPointer) {
        withMsg { msg in
            zmq_msg_close(msg)
            zmq_msg_init_size(msg, bytes.count)
            if bytes.count > 0 { zmq_msg_data(msg)!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        }
    }

    /// Whether this frame is a packed message (starts with "IB1P").
    package var isPacked: Bool { withBytes { PackedFrame.isPacked($0) } }

    /// The six frames a packed frame carries (copies), signature first; `bad_frame` when
    /// its lengths do not fit it.
    package func unpacked() throws(WireError) -> [Frame] {
        let result = withBytes { bytes -> Result<[Frame], WireError> in
            let layout: PackedFrame.Layout
            do throws(WireError) { layout = try PackedFrame.layout(bytes) } catch { return .failure(error) }
            return .success([Frame(WireProtocol.signature)] + layout.fields.map { Frame(bytes: UnsafeRawBufferPointer(rebasing: bytes[$0])) })
        }
        return try result.get()
    }
}
