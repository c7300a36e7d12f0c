import Foundation

/// The packed form of an IB1 message (docs/protocol.md §2.1): the six frames in one,
/// with their lengths, for CURVE connections, where libzmq encrypts every frame on its
/// own (a `crypto_box` and three allocations per frame, each way). Same fields, same
/// rules; only the framing differs:
///
///     "IB1P" · u8 n · kind · u8 n · request id · u8 n · intent · u32 n · header · u32 n · body
///
/// (lengths big-endian; the frame ends exactly where the body does). Pure byte code, no
/// libzmq: the host's `RawMessage`, the Swift client and the tests use it.
public enum PackedFrame {
    /// The first four bytes of a packed frame.
    public static let signature: StaticString = "IB1P"

    /// Where the five fields lie in a packed frame (byte ranges), in wire order.
    public struct Layout: Sendable, Equatable {
        public let kind: Range<Int>
        public let requestId: Range<Int>
        public let intent: Range<Int>
        public let header: Range<Int>
        public let body: Range<Int>

        /// The fields in wire order (kind, request id, intent, header, body).
        public var fields: [Range<Int>] { [kind, requestId, intent, header, body] }

        /// The same five without an array, for the receivers that split a packed frame in
        /// place (`RawMessage.unpack`, `Frame.unpack(into:)`).
        public var inlineFields: InlineArray<5, Range<Int>> { [kind, requestId, intent, header, body] }
    }

    /// The largest packed frame sent on a plugin link that agreed to the form (docs/protocol.md
    /// §5.1): a larger message goes as six frames, so that its body moves without a copy.
    public static let linkLimit = 65_536

    /// Whether `bytes` starts with the packed signature.
    @inlinable public static func isPacked(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && memcmp(bytes.baseAddress!, signature.utf8Start, 4) == 0
    }

    /// Reads the layout of a packed frame; every length is checked against what is left of
    /// the frame, and the frame must end with the body.
    public static func layout(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> Layout {
        guard isPacked(bytes) else { throw WireError.badFrame("a packed frame starts with \"IB1P\"") }
        var reader = Reader(bytes: bytes, at: 4)
        let kind = try reader.field("kind", lengthBytes: 1)
        let requestId = try reader.field("request id", lengthBytes: 1)
        let intent = try reader.field("intent", lengthBytes: 1)
        let header = try reader.field("header", lengthBytes: 4)
        let body = try reader.field("body", lengthBytes: 4)
        let layout = Layout(kind: kind, requestId: requestId, intent: intent, header: header, body: body)
        guard reader.at == bytes.count else {
            throw WireError.badFrame("a packed frame of \(bytes.count) bytes has \(bytes.count - reader.at) bytes after its body")
        }
        return layout
    }

    /// The size of the packed frame for fields of these sizes; nil when the kind, id or
    /// intent is over 255 bytes or the header or body over 2^32 − 1.
    public static func size(kind: Int, requestId: Int, intent: Int, header: Int, body: Int) -> Int? {
        guard kind <= 255, requestId <= 255, intent <= 255, header <= Int(UInt32.max), body <= Int(UInt32.max) else { return nil }
        return 4 + 3 + 8 + kind + requestId + intent + header + body
    }

    /// Writes a packed frame of `size(…)` bytes at `dst` (the sizes must have passed `size`).
    public static func write(into dst: UnsafeMutableRawPointer, kind: UnsafeRawBufferPointer,
                             requestId: UnsafeRawBufferPointer, intent: UnsafeRawBufferPointer,
                             header: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer) {
        var at = 0
        func put(_ field: UnsafeRawBufferPointer, lengthBytes: Int) {
            var n = field.count
            for i in stride(from: lengthBytes - 1, through: 0, by: -1) {
                dst.storeBytes(of: UInt8(truncatingIfNeeded: n), toByteOffset: at + i, as: UInt8.self)
                n >>= 8
            }
            at += lengthBytes
            if let base = field.baseAddress, field.count > 0 { (dst + at).copyMemory(from: base, byteCount: field.count) }
            at += field.count
        }
        dst.copyMemory(from: signature.utf8Start, byteCount: 4)
        at = 4
        put(kind, lengthBytes: 1)
        put(requestId, lengthBytes: 1)
        put(intent, lengthBytes: 1)
        put(header, lengthBytes: 4)
        put(body, lengthBytes: 4)
    }

    /// The packed frame of six frames' bytes (tests, the fuzzer, other transports).
    public static func pack(_ message: WireBytes) -> [UInt8]? {
        let kind = Array(message.kind.rawValue.utf8), id = Array(message.requestId.utf8), intent = Array(message.intent.utf8)
        guard let n = size(kind: kind.count, requestId: id.count, intent: intent.count,
                           header: message.header.count, body: message.body.count) else { return nil }
        var out = [UInt8](repeating: 0, count: n)
        out.withUnsafeMutableBytes { dst in
            kind.withUnsafeBytes { k in id.withUnsafeBytes { r in intent.withUnsafeBytes { i in
                message.header.withUnsafeBytes { h in message.body.withUnsafeBytes { b in
                    write(into: dst.baseAddress!, kind: k, requestId: r, intent: i, header: h, body: b)
                } }
            } } }
        }
        return out
    }

    /// The six frames a packed frame carries, checked as six frames are (`WireCodec`).
    public static func unpack(_ frame: [UInt8]) throws(WireError) -> WireBytes {
        let parts = frame.withUnsafeBytes { bytes -> Result<[[UInt8]], WireError> in
            do throws(WireError) { return .success(try layout(bytes).fields.map { Array(bytes[$0]) }) } catch { return .failure(error) }
        }
        return try WireBytes(frames: [Array(WireProtocol.signature.utf8)] + parts.get())
    }

    /// Reads length-prefixed fields, range-checked.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var at: Int

        mutating func field(_ name: String, lengthBytes: Int) throws(WireError) -> Range<Int> {
            guard bytes.count - at >= lengthBytes else {
                throw WireError.badFrame("a packed frame of \(bytes.count) bytes ends before the length of its \(name)")
            }
            var n = 0
            for i in 0..<lengthBytes { n = n << 8 | Int(bytes[at + i]) }
            at += lengthBytes
            guard n <= bytes.count - at else {
                throw WireError.badFrame("the \(name) of a packed frame (\(n) bytes) runs past the frame's end (\(bytes.count) bytes)")
            }
            defer { at += n }
            return at..<(at + n)
        }
    }
}
