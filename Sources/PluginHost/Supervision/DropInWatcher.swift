import Foundation
import IntentBusCore
import IntentBusManifest

/// Watches the manifest's `plugins.d/` with inotify, so that a drop-in that appears,
/// changes or goes reloads the manifest (docs/lifecycle.md, "Hot reload").
///
/// Its descriptor is polled in the router's loop beside the sockets; no thread of its
/// own. Events are gathered for `settle` (an editor writes a file in several steps, a
/// package manager several files) and then reported once, by `due`. When `plugins.d/`
/// does not exist yet, the manifest's directory is watched for it to appear.
///
/// Threading: the router thread only.
final class DropInWatcher {
    /// The inotify descriptor, for the poll; -1 if inotify could not be set up.
    let fd: Int32
    private let directory: String
    private let parent: String
    private var directoryWatch: Int32 = -1
    private var parentWatch: Int32 = -1
    /// When the gathered events are to be reported (monotonic ns), or nil.
    private(set) var dueAt: UInt64?
    /// The files that changed since the last report, for the log.
    private var changed: Set<String> = []
    /// How long to gather events before reloading.
    static let settle: UInt64 = 150_000_000

    /// Watches `plugins.d/` beside the manifest at `manifestPath`.
    init(manifestPath: String, logger: Logger) {
        parent = (manifestPath as NSString).deletingLastPathComponent
        directory = (parent as NSString).appendingPathComponent(ManifestLoader.dropInDirectoryName)
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if fd < 0 {
            logger.warning("can't watch \(directory) (inotify: \(String(cString: strerror(errno)))); reload with SIGHUP or `intentbus reload`")
            return
        }
        parentWatch = inotify_add_watch(fd, parent, UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR))
        watchDirectory()
    }

    deinit { if fd >= 0 { close(fd) } }

    private static let directoryEvents = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM
                                                | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB | IN_ONLYDIR)

    private func watchDirectory() {
        guard fd >= 0, directoryWatch < 0 else { return }
        let wd = inotify_add_watch(fd, directory, Self.directoryEvents)
        if wd >= 0 { directoryWatch = wd }
    }

    /// Reads what inotify has (the descriptor was readable). `now` is monotonic ns.
    func consume(now: UInt64) {
        guard fd >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[nameStart..<min(nameStart + length, n)].prefix { $0 != 0 }
                note(wd: wd, mask: mask, name: String(decoding: nameBytes, as: UTF8.self), now: now)
                offset = nameStart + length
            }
        }
    }

    private func note(wd: Int32, mask: UInt32, name: String, now: UInt64) {
        if wd == parentWatch {
            guard name == ManifestLoader.dropInDirectoryName else { return }
            watchDirectory()
            // Files written into the new directory before its watch existed sent no event
            // of their own: name what is there now.
            let present = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { !$0.hasPrefix(".") && $0.hasSuffix(".yaml") }
            if present.isEmpty { changed.insert(ManifestLoader.dropInDirectoryName + "/") }
            for file in present { changed.insert("\(ManifestLoader.dropInDirectoryName)/\(file)") }
        } else if wd == directoryWatch {
            if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                // The directory itself went: watch for it to come back.
                if mask & UInt32(IN_IGNORED) != 0 { directoryWatch = -1 }
                changed.insert(ManifestLoader.dropInDirectoryName + "/")
            } else {
                // Hidden files (an editor's swap file) are not drop-ins.
                guard !name.hasPrefix("."), name.hasSuffix(".yaml") || mask & UInt32(IN_ISDIR) != 0 else { return }
                changed.insert("\(ManifestLoader.dropInDirectoryName)/\(name)")
            }
        } else {
            return
        }
        dueAt = now + Self.settle
    }

    /// The files that changed, once the settle time has passed since the last event;
    /// nil otherwise.
    func due(now: UInt64) -> [String]? {
        guard let dueAt, dueAt <= now else { return nil }
        self.dueAt = nil
        defer { changed.removeAll() }
        return changed.sorted()
    }
}
