import Foundation

/// `host.socket_group`: a Unix group whose members may use an ipc frontend
/// (docs/security.md). The file system does the checking: the socket is made 0660 in the
/// group, and, when it lives in the state directory, the directory 0710 in the group so
/// that members can reach the socket but list or read nothing else there (the key and the
/// database stay 0600).
package struct SocketGroup: Sendable, Equatable {
    package let name: String
    package let gid: gid_t

    /// The group named `name`, or nil when the system has none.
    package init?(named name: String) {
        guard let entry = getgrnam(name) else { return nil }
        self.name = name
        self.gid = entry.pointee.gr_gid
    }
}

extension HostSectionReader {
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
