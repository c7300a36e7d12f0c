import Foundation
import IntentBusManifest

extension SocketGroup {
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
