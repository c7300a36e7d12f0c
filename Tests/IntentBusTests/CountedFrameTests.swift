import Foundation
import Testing
import IntentBusZMQ

/// A counted frame (`Frame(copyOf:heldIn:)`, what the host sends a frame of 1 KiB or more
/// as) shares the original frame's bytes instead of copying them, and its count still
/// falls exactly when libzmq lets go of it (docs/performance.md, "The SDK's plain handler
/// on large bodies").
@Suite("Counted frames share their bytes")
struct CountedFrameTests {
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<200 where !condition() { usleep(10_000) }
        return condition()
    }

    @Test("the count rises by the size, the bytes arrive whole, the count falls when the receiver lets go")
    func countsAndBytes() throws {
        let context = ZMQContext()
        let endpoint = "inproc://counted-\(UUID().uuidString)"
        let pull = try ZMQSocket(context, .pull)
        try pull.bind(endpoint)
        let push = try ZMQSocket(context, .push)
        try push.connect(endpoint)
        try pull.setReceiveTimeout(milliseconds: 5_000)

        let total = HeldBytes()
        let held = HeldBytes(parent: total)
        let bytes = (0..<(64 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let original = Frame(bytes: bytes)
        let counted = Frame(copyOf: original, heldIn: held)
        #expect(held.value == bytes.count && total.value == bytes.count)
        #expect(counted.data == Data(bytes))
        // The original goes its own way first (sending moves its content out of it): the
        // counted frame keeps the bytes alive on its own.
        _ = try push.send([original])
        #expect(original.count == 0)
        var received = try #require(try pull.receive())
        #expect(received.first?.data == Data(bytes))
        received = []
        #expect(counted.data == Data(bytes))
        _ = try push.send([counted])
        received = try #require(try pull.receive())
        #expect(received.first?.data == Data(bytes))
        #expect(held.value == bytes.count)  // still held: the receiver has the message
        received = []
        #expect(waitUntil { held.value == 0 && total.value == 0 }, "held \(held.value), total \(total.value)")
    }

    @Test("a counted frame never sent releases its count when dropped; small frames share too")
    func droppedAndSmall() {
        let held = HeldBytes()
        do {
            let large = Frame(copyOf: Frame(bytes: Array(repeating: UInt8(7), count: 4_096)), heldIn: held)
            let small = Frame(copyOf: Frame("tiny"), heldIn: held)
            #expect(held.value == 4_096 + 4)
            #expect(large.data == Data(repeating: 7, count: 4_096))
            #expect(small.string == "tiny")
        }
        #expect(held.value == 0)
    }
}
