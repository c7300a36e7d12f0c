import Foundation
import IntentBusCore

/// The recent output lines of each plugin, kept by the host so that `intentbus logs
/// PLUGIN` (host intent `ib.logs`) and `intentbus plugins` can show why a plugin failed
/// without anyone reading the host's log.
///
/// Bounded: at most `capacity` lines per plugin, each cut at `maxLineLength` bytes; older
/// lines are forgotten (and counted).
///
/// Thread-safe: the log reader threads append, the router thread reads, under `lock`.
package final class PluginLogBook: @unchecked Sendable {
    // @unchecked: `books` is only touched while holding `lock`.

    /// One line a plugin wrote to stdout or stderr.
    package struct Line: Sendable {
        /// When the host read it, ISO 8601 UTC.
        package let time: String
        package let pid: Int32
        package let text: String

        package var json: JSON { ["time": .string(time), "pid": .int(Int64(pid)), "text": .string(text)] }
    }

    package let capacity: Int
    package static let maxLineLength = 2_048

    private struct Book {
        var lines: [Line] = []
        /// Index of the oldest line once the ring is full.
        var start = 0
        var forgotten = 0
    }

    private let lock = Lock()
    private var books: [String: Book] = [:]

    package init(capacity: Int = 200) { self.capacity = max(1, capacity) }

    /// Keeps `text` as the newest line of `plugin` (process `pid`).
    package func append(plugin: String, pid: Int32, text: String) {
        var text = text
        if text.utf8.count > Self.maxLineLength {
            text = String(decoding: text.utf8.prefix(Self.maxLineLength), as: UTF8.self) + " …(cut)"
        }
        let line = Line(time: Logger.isoTimestamp(), pid: pid, text: text)
        lock.withLock {
            var book = books[plugin] ?? Book()
            if book.lines.count < capacity {
                book.lines.append(line)
            } else {
                book.lines[book.start] = line
                book.start = (book.start + 1) % capacity
                book.forgotten += 1
            }
            books[plugin] = book
        }
    }

    /// The newest `limit` lines of `plugin`, oldest first, and how many earlier lines
    /// were written but are no longer shown (forgotten, or beyond `limit`).
    package func recent(plugin: String, limit: Int) -> (lines: [Line], earlier: Int) {
        lock.withLock {
            guard let book = books[plugin] else { return ([], 0) }
            let ordered = Array(book.lines[book.start...] + book.lines[..<book.start])
            let shown = Array(ordered.suffix(max(0, limit)))
            return (shown, book.forgotten + ordered.count - shown.count)
        }
    }
}
