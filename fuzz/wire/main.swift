import Foundation
import IntentBus

// libFuzzer target: the wire decoder (docs/reliability.md). The input is split into frames
// (each a 2-byte big-endian length, then that many bytes; a short tail is the last frame),
// decoded as an IB1 message, and when it decodes: the header and body are parsed, written
// canonically and parsed again (the round trip must be exact), and the message is encoded
// and decoded again (it must decode to the same frames). Any violation stops the fuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    var frames: [Frame] = []
    var i = 0
    while i < bytes.count, frames.count < 16 {
        guard i + 2 <= bytes.count else { frames.append(Frame(data: Data(bytes[i...]))); break }
        let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
        let end = min(bytes.count, i + 2 + length)
        frames.append(Frame(data: Data(bytes[(i + 2)..<end])))
        i = end
    }
    guard let message = try? WireMessage.decode(frames[...]) else { return 0 }
    for part in [try? message.headerJSON(), try? message.bodyJSON()] {
        guard let value = part else { continue }
        let text = value.canonicalData
        guard let again = try? JSON.parse(text), again == value, again.canonicalData == text else {
            fatalError("canonical round trip changed \(value) into \(String(decoding: text, as: UTF8.self))")
        }
    }
    let encoded = message.frames.map(\.data)
    guard let decoded = try? WireMessage.decode(encoded.map { Frame(data: $0) }[...]),
          decoded.frames.map(\.data) == encoded else {
        fatalError("an encoded message did not decode to the same frames")
    }
    return 0
}
