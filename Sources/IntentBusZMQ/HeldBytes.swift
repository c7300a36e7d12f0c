internal import CZeroMQ
import Foundation
import Synchronization

/// Bytes of messages handed to libzmq and not yet released by it: what a peer that does
/// not read (or a plugin that does not take its requests) makes libzmq hold. libzmq's
/// high-water marks count messages, never bytes, and it says nothing when it is done with
/// a message; a frame made by `Frame(copyOf:heldIn:)` is libzmq's to free, through a free
/// function that subtracts its size here. So the count falls exactly when libzmq has
/// written the frame to the kernel (or dropped it with its connection).
///
/// Threading: added to on the thread that sends, subtracted from on libzmq's I/O thread;
/// an atomic, so `value` may be read anywhere.
package final class HeldBytes: Sendable {
    private let held = Atomic<Int>(0)
    /// A counter that every change here changes too (the host's total over all peers).
    package let parent: HeldBytes?

    package init(parent: HeldBytes? = nil) { self.parent = parent }

    /// Frames this large or larger are sent counted; smaller ones are bounded by the
    /// high-water mark's message count instead (at most that many times this).
    package static let countedFrameBytes = 1_024

    /// The bytes held now.
    package var value: Int { held.load(ordering: .relaxed) }

    func add(_ n: Int) {
        held.wrappingAdd(n, ordering: .relaxed)
        parent?.add(n)
    }

    func release(_ n: Int) {
        held.wrappingSubtract(n, ordering: .relaxed)
        parent?.release(n)
    }
}
