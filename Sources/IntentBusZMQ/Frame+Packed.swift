internal import CZeroMQ
import Foundation
import IntentBusCore

/// The packed form as `Frame`s (docs/protocol.md §2.1; the byte code is `PackedFrame`):
/// for the host's sends to a client that packs and for the Swift client.
extension Frame {
    /// The six frames of an IB1 message (signature first) as one packed frame; nil when
    /// they are not six or a field is too long for the packed form (more than 255 bytes
    /// of kind, request id or intent): the caller then sends the six.
    package static func packing(_ six: ArraySlice<Frame>) -> Frame? {
        guard six.count == WireProtocol.frameCount else { return nil }
        let f = six.startIndex
        guard let size = PackedFrame.size(kind: six[f + 1].count, requestId: six[f + 2].count, intent: six[f + 3].count,
                                          header: six[f + 4].count, body: six[f + 5].count) else { return nil }
        return Frame(count: size) { start in
            let dst = UnsafeMutableRawPointer(start)
            six[f + 1].withBytes { kind in six[f + 2].withBytes { id in six[f + 3].withBytes { intent in
                six[f + 4].withBytes { header in six[f + 5].withBytes { body in
                    PackedFrame.write(into: dst, kind: kind, requestId: id, intent: intent, header: header, body: body)
                } }
            } } }
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
