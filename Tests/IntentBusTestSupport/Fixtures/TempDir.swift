import Foundation

/// A unique temporary directory, removed by `remove()`. Short, so that the ipc paths under
/// it stay within the 107 bytes a Unix socket path may have; each test's host gets its own,
/// and so its own endpoints.
package struct TempDir {
    package let path: String

    package init() {
        let p = "/tmp/ib-\(UInt32.random(in: 0...UInt32.max))-\(getpid())"
        try! FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        path = p
    }

    /// Writes `text` to `name` (which may contain subdirectories) and returns the path.
    @discardableResult
    package func write(_ name: String, _ text: String) -> String {
        let file = "\(path)/\(name)"
        try! FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        try! text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// An ipc endpoint for a socket named `name` in this directory (nothing listens on it
    /// until something binds it).
    package func ipc(_ name: String) -> String { "ipc://\(path)/\(name)" }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
