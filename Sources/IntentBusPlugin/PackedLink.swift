import Foundation
import IntentBusCore
import IntentBusZMQ

/// The plugin's side of the packed link (docs/protocol.md §5.1): when the host's WELCOME
/// agreed to it, each message goes as one packed frame (§2.1) and not six. A message is
/// one libzmq message then, not six: each frame costs libzmq a message of its own in both
/// processes and both directions, more than copying the small fields into one frame
/// (docs/performance.md, "One frame per message on the plugin link"). Both forms are read
/// at any time; a message over `PackedFrame.linkLimit` goes as six frames.
extension PluginLoopState {
    /// Receives the next message into `frames`; a packed one is split into `frames`' six
    /// (their frames reused). A malformed packed frame is left as the one frame it is, which
    /// the loop then reports as any malformed message.
    func receive(from socket: ZMQSocket, dontWait: Bool = false) throws(ZMQError) -> Bool {
        guard packedLink else { return try socket.receive(into: &frames, dontWait: dontWait) }
        guard try socket.receive(into: &inbox, dontWait: dontWait) else { return false }
        if inbox.count != 1 || !inbox[0].unpack(into: &frames) { swap(&frames, &inbox) }
        return true
    }

    /// Sends one message's six frames: packed when the link agreed to it and the message is
    /// small enough, else as they are.
    func send(_ six: [Frame], on socket: ZMQSocket) throws(ZMQError) {
        if packedLink, packedOut.setPacked(six[...], limit: PackedFrame.linkLimit) {
            try socket.send(single: packedOut)
        } else {
            try socket.send(six)
        }
    }
}
