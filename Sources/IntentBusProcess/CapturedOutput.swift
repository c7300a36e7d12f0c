import Foundation

/// What a child wrote on one stream, as `ChildProcess.run` kept it: at most its `limit`
/// bytes (the first ones), and how many it wrote in all.
package struct CapturedOutput: Sendable, Equatable {
    /// The first bytes written, at most the run's `keep` limit.
    package internal(set) var data = Data()
    /// Every byte it wrote, kept or not.
    package internal(set) var total = 0

    /// Whether it wrote more than was kept.
    package var wasCut: Bool { total > data.count }

    /// The kept bytes as UTF-8 (invalid sequences replaced), with a last line saying how
    /// much was cut, if anything was.
    package var text: String {
        let kept = String(decoding: data, as: UTF8.self)
        guard wasCut else { return kept }
        return kept + "\n… (output cut: \(total - data.count) more bytes not kept)"
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer, keep: Int) {
        total += bytes.count
        let room = keep - data.count
        if room > 0 { data.append(contentsOf: bytes.prefix(room)) }
    }
}

/// How a `ChildProcess.run` ended: its exit status and what it wrote on the streams that
/// were pipes.
package struct CompletedProcess: Sendable {
    package let status: ExitStatus
    package let standardOutput: CapturedOutput
    package let standardError: CapturedOutput
    /// It was still running at the timeout and was stopped (SIGTERM, then SIGKILL).
    package let timedOut: Bool
    /// It wrote more than was kept, the run was told to stop it then (`stopWhenCut`), and
    /// it was stopped.
    package let stoppedWhenCut: Bool
}
