import Foundation

/// Reads one line typed at the terminal, for the prompts of `intentbus send`.
///
/// Not `Swift.readLine`: when Ctrl-C interrupts it, getline(3) fails with EINTR and sets
/// the stream's error flag, and the standard library retries for ever (a busy loop). This
/// reads file descriptor 0 itself and gives up (nil) when the read is interrupted by a
/// Ctrl-C (`Interrupts`) or input ends.
enum TerminalLine {
    static func read() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
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
