import Foundation
import IntentBusCore

/// Why a systemd notification could not be set up or sent.
package struct SystemdNotifyError: Error, Sendable, CustomStringConvertible {
    package let message: String
    package let errno: Int32
    package var description: String { errno == 0 ? message : "\(message): \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// Tells systemd how the service is doing (`Type=notify`, sd_notify(3)) without
/// libsystemd: each state is one datagram to the unix socket named by `NOTIFY_SOCKET`
/// (a leading `@` names the abstract namespace).
///
/// Thread-safe: `send` may be called from any thread (one `sendto` per call).
package final class SystemdNotifier: Sendable {
    package let socketPath: String
    /// Half of `WATCHDOG_USEC`, when systemd asks for watchdog pings for this process.
    package let watchdogInterval: Duration?
    private let fd: Int32

    /// The longest `WATCHDOG_USEC` accepted: one day. Larger values, zero, or text are
    /// refused with a warning (the value comes from outside).
    package static let maxWatchdogMicroseconds: Int64 = 86_400_000_000

    /// The notifier for this process, or nil when `NOTIFY_SOCKET` is unset (not started
    /// by systemd with `Type=notify`). Problems with the variables are logged and leave
    /// the host running without notifications or without the watchdog.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                       logger: Logger) -> SystemdNotifier? {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        var interval: Duration?
        if let raw = environment["WATCHDOG_USEC"] {
            let forUs = environment["WATCHDOG_PID"].map { $0 == String(getpid()) } ?? true
            if let usec = Int64(raw), usec >= 1, usec <= maxWatchdogMicroseconds {
                if forUs { interval = .microseconds(usec / 2) }
            } else {
                logger.warning("WATCHDOG_USEC=\(raw) is not a number of microseconds within 1…\(maxWatchdogMicroseconds); no watchdog pings")
            }
        }
        do {
            return try SystemdNotifier(socketPath: path, watchdogInterval: interval)
        } catch {
            logger.warning("NOTIFY_SOCKET=\(path): \(error); systemd will not hear from the host")
            return nil
        }
    }

    package init(socketPath: String, watchdogInterval: Duration? = nil) throws(SystemdNotifyError) {
        guard socketPath.hasPrefix("/") || socketPath.hasPrefix("@") else {
            throw SystemdNotifyError(message: "not an absolute path or an abstract name (@…)", errno: 0)
        }
        guard socketPath.utf8.count < MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size else {
            throw SystemdNotifyError(message: "the socket path is too long", errno: 0)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemdNotifyError(message: "socket", errno: Foundation.errno) }
        self.fd = fd
        self.socketPath = socketPath
        self.watchdogInterval = watchdogInterval
    }

    deinit { close(fd) }

    /// Sends `state` (`READY=1`, `STOPPING=1`, `WATCHDOG=1`, `STATUS=…`, newline-separated).
    package func send(_ state: String) throws(SystemdNotifyError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        // An abstract name is exactly its bytes; a path ends at its NUL.
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1)
        let sent = Array(state.utf8).withUnsafeBytes { payload in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, payload.baseAddress, payload.count, Int32(MSG_NOSIGNAL), $0, socklen_t(length))
                }
            }
        }
        if sent < 0 { throw SystemdNotifyError(message: "sendto \(socketPath)", errno: Foundation.errno) }
    }

    /// `READY=1` with a status line: the host is serving.
    package func ready(status: String) throws(SystemdNotifyError) { try send("READY=1\nSTATUS=\(status)") }

    /// `STOPPING=1`: a graceful shutdown has begun.
    package func stopping() throws(SystemdNotifyError) { try send("STOPPING=1\nSTATUS=stopping") }
}
