import Foundation

/// Reads one line typed at the terminal, for the prompts of `intentbus send`.
///
/// Not `Swift.readLine`: when Ctrl-C interrupts it, getline(3) fails with EINTR and sets
/// the stream's error flag, and the standard library retries for ever (a busy loop). This
/// reads file descriptor 0 itself and gives up (nil) when the read is interrupted by a
/// Ctrl-C (`Interrupts`) or input ends.
///
/// While it waits it asks `ended` every 200 ms: a request that ended meanwhile (the host
/// expired the conversation, or is shutting down) stops the wait (nil, and `endedWhileReading`),
/// so a person is not asked on after the answer can no longer matter.
enum TerminalLine {
    nonisolated(unsafe) static var endedWhileReading = false

    static func read(ended: (() -> Bool)? = nil) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        endedWhileReading = false
        while true {
            if let ended {
                var fd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                let ready = poll(&fd, 1, 200)
                if ready == 0 {
                    if ended() {
                        endedWhileReading = true
                        return nil
                    }
                    continue
                }
                if ready < 0 {
                    if errno == EINTR && !Interrupts.interrupted { continue }
                    return nil
                }
            }
            let n = Glibc.read(0, &byte, 1)
            if n < 0 {
                if errno == EINTR && !Interrupts.interrupted { continue }
                return nil
            }
            if n == 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 10 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
            if bytes.count > 64 * 1024 { return String(decoding: bytes, as: UTF8.self) }  // a line is not a file
        }
    }
}
