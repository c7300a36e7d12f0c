import Foundation
import Synchronization
import IntentBusCore
import IntentBusPlugin

/// What a legacy request's delivery header says (docs/protocol.md §8): the phase, the
/// response codes its definition declares, the parameters to resolve and those required,
/// the client's name. The host sends every request of an intent the same header (the
/// one-trip `run` header, §8.9), which the loop keeps by its bytes and numbers
/// (`PluginRequest.headerSerial`); these words are read from it once per serial, not per
/// request (a String hash per field and an array of fourteen codes each time, callgrind).
struct LegacyHeaderWords: Sendable {
    let phase: LegacyPhase?
    let declared: [String]?
    let resolve: [String]?
    let required: [String]
    let client: String?

    init(_ header: JSON) {
        phase = header["phase"]?.stringValue.flatMap(LegacyPhase.init(word:))
        declared = header["codes"]?.stringElements
        resolve = header["resolve"]?.stringElements
        required = header["required"]?.stringElements ?? []
        client = header["client"]?.stringValue
    }

    /// The words of the header read last, by its serial (requests of one intent in a row
    /// find them here; another header replaces them).
    private static let last = Mutex<(serial: UInt64, words: LegacyHeaderWords)?>(nil)

    /// The words of `request`'s header: kept by its serial when the loop kept the header.
    static func of(_ request: PluginRequest) -> LegacyHeaderWords {
        let serial = request.headerSerial
        guard serial != 0 else { return LegacyHeaderWords(request.header) }
        if let known = last.withLock({ $0 }), known.serial == serial { return known.words }
        let words = LegacyHeaderWords(request.header)
        last.withLock { $0 = (serial, words) }
        return words
    }
}
