import Foundation
import IntentBusCore

// libFuzzer target: the wire codec over bytes (docs/reliability.md), with no libzmq: it
// links IntentBusCore alone. The input is split into frames (each a 2-byte big-endian
// length, then that many bytes; a short tail is the last frame) and decoded as an IB1
// message (`WireBytes`, through `WireCodec`, the rules `WireMessage` uses too). When it
// decodes, the header and body are parsed, written canonically and parsed again (the round
// trip must be exact), and the message is encoded and decoded again (it must decode to the
// same frames). Any violation stops the fuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    var frames: [[UInt8]] = []
    var i = 0
    while i < bytes.count, frames.count < 16 {
        guard i + 2 <= bytes.count else { frames.append(Array(bytes[i...])); break }
        let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
        let end = min(bytes.count, i + 2 + length)
        frames.append(Array(bytes[(i + 2)..<end]))
        i = end
    }
    guard let message = try? WireBytes(frames: frames) else { return 0 }
    for part in [message.header, message.body] {
        guard let value = try? JSON.parse(Data(part)) else { continue }
        let text = value.canonicalData
        guard let again = try? JSON.parse(text), again == value, again.canonicalData == text else {
            fatalError("canonical round trip changed \(value) into \(String(decoding: text, as: UTF8.self))")
        }
    }
    let encoded = message.frames
    guard let decoded = try? WireBytes(frames: encoded), decoded == message, decoded.frames == encoded else {
        fatalError("an encoded message did not decode to the same frames")
    }
    return 0
}
