import Foundation
import IntentBusZMQ

/// The host's state directory and the files in it, protected by the file system and set
/// by the host itself rather than left to the umask (docs/security.md): the directory
/// 0700, the ipc sockets, the choice database and the secret key 0600.
package enum StateDirectory {
    /// Creates the directory with mode 0700, or checks an existing one: one owned by
    /// another user, or world-writable, is refused (its owner, or anyone, could replace the
    /// sockets, plant a key, or swap a file for a symlink); any other is narrowed to 0700 on
    /// its open descriptor, and every entry in it must be the host's user's too.
    static func prepare(_ path: String) throws(HostStartError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            try checkOwner(info, path, what: "the state directory")
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                throw HostStartError(message: "the state directory \(path) is not a directory (\(String(cString: strerror(errno))))")
            }
            defer { close(fd) }
            // The directory itself, through the descriptor (a symlink's target): no race.
            guard fstat(fd, &info) == 0 else { throw HostStartError(message: "can't stat the state directory \(path)") }
            try checkOwner(info, path, what: "the state directory")
            if info.st_mode & S_IWOTH != 0 {
                throw HostStartError(message: "the state directory \(path) is world-writable (mode \(String(info.st_mode & 0o7777, radix: 8))): any local user could replace its sockets; fix it (chmod 700) or choose another host.state_dir")
            }
            if info.st_mode & 0o077 != 0 { fchmod(fd, 0o700) }
            try checkEntries(path)
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw HostStartError(message: "can't create the state directory \(path): \(error.localizedDescription)")
        }
        chmod(path, 0o700)  // the umask may have narrowed it further; never wider
    }

    /// Refuses what another user owns: the host's user (or root, who may hand the host a
    /// directory) must own every path the host trusts.
    static func checkOwner(_ info: stat, _ path: String, what: String) throws(HostStartError) {
        let me = geteuid()
        guard info.st_uid != me, info.st_uid != 0 else { return }
        throw HostStartError(message: "\(what) \(path) is owned by \(ConfigFileTrust.userName(info.st_uid)), not by the host's user (\(ConfigFileTrust.userName(me))): that user could replace its sockets, plant a key or swap a file for a symlink; remove it or choose another host.state_dir")
    }

    /// Every entry already in the state directory must be the host's user's (a directory
    /// that was group-writable before it was narrowed may hold what others planted).
    private static func checkEntries(_ directory: String) throws(HostStartError) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names {
            var info = stat()
            let path = "\(directory)/\(name)"
            guard lstat(path, &info) == 0 else { continue }
            try checkOwner(info, path, what: "the state file")
        }
    }

    /// Sets `mode` on each path that exists, never through a symlink: a link is left
    /// alone (and logged by the caller's checks), so that nobody can have the host chmod
    /// a file elsewhere.
    static func restrict(_ paths: [String], mode: mode_t) {
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { continue }
            if info.st_mode & S_IFMT == S_IFREG {
                let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
                guard fd >= 0 else { continue }
                fchmod(fd, mode)
                close(fd)
            } else {
                chmod(path, mode)  // a socket can't be opened; it was made by the host just now
            }
        }
    }

    /// The host's CURVE key pair, `host.key` (secret, 0600) and `host.pub` (public, for
    /// clients and remote plugins) in the state directory, made on first start.
    static func hostKeys(in directory: String) throws(HostStartError) -> CurveKeyPair {
        let secretPath = "\(directory)/host.key", publicPath = "\(directory)/host.pub"
        var info = stat()
        if lstat(secretPath, &info) == 0 {
            if info.st_mode & S_IFMT != S_IFREG {
                throw HostStartError(message: "\(secretPath) is not a plain file (a symlink?); the host reads its key only from a file of its own")
            }
            try checkOwner(info, secretPath, what: "the host key")
            if info.st_mode & 0o077 != 0 {
                throw HostStartError(message: "\(secretPath) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it")
            }
            guard let secret = CurveKeyPair.readKey(path: secretPath), let keys = CurveKeyPair(secretKey: secret) else {
                throw HostStartError(message: "\(secretPath) holds no CURVE secret key (40 characters of Z85)")
            }
            try? (keys.publicKey + "\n").write(toFile: publicPath, atomically: true, encoding: .utf8)
            return keys
        }
        let keys: CurveKeyPair
        do { keys = try CurveKeyPair.generate() } catch {
            throw HostStartError(message: "can't make the host's key pair: \(error)")
        }
        try writeKeyFiles(keys, secretPath: secretPath, publicPath: publicPath, comment: "IntentBus host")
        return keys
    }

    /// Writes a key pair: the secret file created with mode 0600 (never readable by
    /// others, even for a moment), the public file 0644.
    package static func writeKeyFiles(_ keys: CurveKeyPair, secretPath: String, publicPath: String,
                                     comment: String) throws(HostStartError) {
        let fd = open(secretPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw HostStartError(message: "can't create \(secretPath): \(String(cString: strerror(errno)))")
        }
        let text = "# \(comment): CURVE secret key (Z85); keep it private\n\(keys.secretKey)\n"
        let written = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        guard written > 0 else { throw HostStartError(message: "can't write \(secretPath)") }
        do {
            try "\(keys.publicKey)\n".write(toFile: publicPath, atomically: true, encoding: .utf8)
        } catch {
            throw HostStartError(message: "can't write \(publicPath): \(error.localizedDescription)")
        }
        chmod(publicPath, 0o644)
    }
}
