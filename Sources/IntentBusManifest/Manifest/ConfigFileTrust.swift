import Foundation

/// Whether the host may trust a configuration file or directory (the manifest,
/// `plugins.d/` and its drop-ins, definition files): they name programs the host runs as
/// its own user, so whoever can write them runs code as that user (docs/security.md).
/// One writable by group or others, or owned by anyone but the host's user or root, is
/// refused — at start and at every reload, so it is never hot-loaded.
package enum ConfigFileTrust {
    /// Why `path` can't be trusted, or nil (also nil when it does not exist: reading it
    /// reports that).
    package static func problem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let me = geteuid()
        if info.st_uid != me, info.st_uid != 0 {
            return "\(path) is owned by \(userName(info.st_uid)), not by the host's user (\(userName(me))) or root: whoever owns it chooses what the host runs; refused"
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return "\(path) is writable by \(info.st_mode & S_IWOTH != 0 ? "every user" : "its group") (mode \(String(info.st_mode & 0o7777, radix: 8))): whoever can write it chooses what the host runs; refused (chmod go-w it)"
        }
        return nil
    }

    /// "uid N (name)", for messages (the state directory's checks use it too).
    package static func userName(_ uid: uid_t) -> String {
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return "uid \(uid)" }
        return "uid \(uid) (\(String(cString: name)))"
    }
}
