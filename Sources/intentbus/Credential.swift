import Foundation
import IntentBus
import IntentBusCLI

/// The client credential for restricted intents (docs/security.md): from a file only its
/// owner can read (`--credential-file`), `INTENTBUS_CREDENTIAL`, or `--credential`, which
/// every local user can see in `ps` and is warned about. Before it is sent over ipc, the
/// socket must belong to this user, root, or the user `INTENTBUS_HOST_USER` names: a
/// socket someone else made could be theirs, waiting to catch it.
enum Credential {
    static let options: [OptionSpec] = [
        .value("credential", "SECRET", "the client credential for restricted intents\n(visible in ps: prefer --credential-file or $INTENTBUS_CREDENTIAL)"),
        .value("credential-file", "PATH", "a file (mode 0600) holding the client credential", completion: .file),
    ]

    /// The credential the command was given, or nil.
    static func read(_ args: Arguments) throws -> String? {
        if let path = args.value("credential-file") {
            var info = stat()
            guard stat(path, &info) == 0 else { throw UsageError("--credential-file \(path): \(String(cString: strerror(errno)))") }
            if info.st_mode & 0o077 != 0 {
                throw UsageError("--credential-file \(path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it")
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError("--credential-file \(path): not readable text")
            }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let given = args.value("credential") {
            printError("warning: --credential shows the secret to every local user (ps); use --credential-file or $INTENTBUS_CREDENTIAL")
            return given
        }
        return ProcessInfo.processInfo.environment["INTENTBUS_CREDENTIAL"]
    }

    /// Throws unless the ipc socket at `endpoint` is owned by this user, root, or
    /// `INTENTBUS_HOST_USER` (a name or uid). tcp is the host's key's business (CURVE).
    static func checkSocketOwner(_ endpoint: String) throws {
        guard endpoint.hasPrefix("ipc://") else { return }
        let path = String(endpoint.dropFirst("ipc://".count))
        guard !path.hasPrefix("@") else { return }  // abstract: no owner to check
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // connecting reports it
        var trusted: Set<uid_t> = [geteuid(), 0]
        if let host = ProcessInfo.processInfo.environment["INTENTBUS_HOST_USER"] {
            if let uid = uid_t(host) { trusted.insert(uid) } else if let pw = getpwnam(host) { trusted.insert(pw.pointee.pw_uid) }
        }
        guard !trusted.contains(info.st_uid) else { return }
        throw UsageError("refusing to send the credential: the socket \(path) belongs to uid \(info.st_uid), not to you or root, so another user may have put it there; set INTENTBUS_HOST_USER to the host's user if that is who runs it")
    }
}
