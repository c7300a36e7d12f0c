import Foundation

/// `host.socket_group`: a Unix group whose members may use an ipc frontend
/// (docs/security.md). The file system does the checking: the socket is made 0660 in the
/// group, and, when it lives in the state directory, the directory 0710 in the group so
/// that members can reach the socket but list or read nothing else there (the key and the
/// database stay 0600).
public struct SocketGroup: Sendable, Equatable {
    public let name: String
    public let gid: gid_t

    /// The group named `name`, or nil when the system has none.
    public init?(named name: String) {
        guard let entry = getgrnam(name) else { return nil }
        self.name = name
        self.gid = entry.pointee.gr_gid
    }

    /// Gives the group the frontend socket at `socketPath` (and the state directory, when
    /// the socket is in it). Needs the host's user to be in the group (or root).
    func share(socketPath: String, stateDirectory: String) throws(HostStartError) {
        var paths = [(socketPath, mode_t(0o660))]
        if (socketPath as NSString).deletingLastPathComponent == stateDirectory {
            paths.append((stateDirectory, 0o710))
        }
        for (path, mode) in paths {
            guard chown(path, uid_t.max, gid) == 0 else {
                let e = errno
                throw HostStartError(message: "host.socket_group: can't give \(path) to group \(name): \(String(cString: strerror(e))) (the host's user must be a member of \(name))")
            }
            chmod(path, mode)
        }
    }
}

extension ManifestAssembler {
    /// `host.socket_group`: a group that exists, for an ipc frontend.
    func decodeSocketGroup(_ value: Marked<String>?, frontend: String) -> SocketGroup? {
        guard let value else { return nil }
        guard frontend.hasPrefix("ipc://") else {
            error("applies to an ipc frontend only (\(frontend) is not one; tcp clients are admitted by host.clients)",
                  key: "socket_group", at: value.mark)
            return nil
        }
        guard let group = SocketGroup(named: value.value) else {
            error("no group named '\(value.value)' on this system", key: "socket_group", at: value.mark)
            return nil
        }
        return group
    }
}
