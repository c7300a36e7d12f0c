import Foundation

/// Splits a child's output into lines for its `PluginOutputRelay`: bytes come in as they
/// were read, each complete non-empty line goes out, and what is left after the last
/// newline waits for more (or for `finish`, at end-of-file).
struct OutputLines {
    private var pending = Data()

    mutating func append(_ bytes: some Sequence<UInt8>, to relay: PluginOutputRelay) {
        pending.append(contentsOf: bytes)
        while let newline = pending.firstIndex(of: 10) {
            let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            pending.removeSubrange(pending.startIndex...newline)
            if !line.isEmpty { relay.relay(line) }
        }
    }

    /// Relays the unterminated last line, if any.
    mutating func finish(to relay: PluginOutputRelay) {
        if !pending.isEmpty { relay.relay(String(decoding: pending, as: UTF8.self)) }
        pending.removeAll()
    }
}
