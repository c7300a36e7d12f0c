import Foundation

/// A tcp port on 127.0.0.1 that nothing listens on now, the kernel's choice (bind to
/// port 0, read the port back, close): for harnesses that start hosts on tcp endpoints
/// (the benchmark's CURVE paths, the scale-out run's backends). Another process may take
/// it before the caller binds it; on a loopback harness that is rare enough.
package enum LoopbackPort {
    /// Why no port could be had: the failing call and its errno.
    package struct Failure: Error, CustomStringConvertible {
        package let function: String
        package let errno: Int32
        package var description: String { "\(function): errno \(errno)" }
    }

    /// A free port on 127.0.0.1.
    package static func free() throws(Failure) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(function: "socket", errno: errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(function: "bind 127.0.0.1:0", errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
