import Foundation
import IntentBus

/// The host's state directory and the files in it, protected by the file system and set
/// by the host itself rather than left to the umask (docs/security.md): the directory
/// 0700, the ipc sockets, the choice database and the secret key 0600.
public enum StateDirectory {
    /// Creates the directory with mode 0700, or checks an existing one: a world-writable
    /// directory is refused (anyone could replace the sockets); any other is narrowed to
    /// 0700.
    static func prepare(_ path: String) throws(HostStartError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw HostStartError(message: "the state directory \(path) is not a directory")
            }
            if info.st_mode & S_IWOTH != 0 {
                throw HostStartError(message: "the state directory \(path) is world-writable (mode \(String(info.st_mode & 0o7777, radix: 8))): any local user could replace its sockets; fix it (chmod 700) or choose another host.state_dir")
            }
            if info.st_mode & 0o077 != 0 { chmod(path, 0o700) }
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

    /// Sets `mode` on each path that exists.
    static func restrict(_ paths: [String], mode: mode_t) {
        for path in paths where FileManager.default.fileExists(atPath: path) { chmod(path, mode) }
    }

    /// The host's CURVE key pair, `host.key` (secret, 0600) and `host.pub` (public, for
    /// clients and remote plugins) in the state directory, made on first start.
    static func hostKeys(in directory: String) throws(HostStartError) -> CurveKeyPair {
        let secretPath = "\(directory)/host.key", publicPath = "\(directory)/host.pub"
        if FileManager.default.fileExists(atPath: secretPath) {
            var info = stat()
            if stat(secretPath, &info) == 0, info.st_mode & 0o077 != 0 {
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
    public static func writeKeyFiles(_ keys: CurveKeyPair, secretPath: String, publicPath: String,
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
