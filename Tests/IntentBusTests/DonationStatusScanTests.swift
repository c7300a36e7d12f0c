import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusStore

/// The byte scan that spares `ShortcutCenter.exchangeEnded` parsing a successful REPLY
/// header: only a header that may say "failure" (literally, or through an escape) is parsed.
@Suite("Donation: which REPLY headers are parsed for their status")
struct DonationStatusScanTests {
    @Test("a failure, or an escape that could spell one, is found; a plain success is not")
    func scan() {
        #expect(ShortcutCenter.contains(Frame(#"{"plugin":"p","status":"failure"}"#), "failure"))
        #expect(ShortcutCenter.contains(Frame(#"{"status":"fa\u0069lure"}"#), "\\"))
        #expect(!ShortcutCenter.contains(Frame(#"{"plugin":"p","status":"success"}"#), "failure"))
        #expect(!ShortcutCenter.contains(Frame(#"{"plugin":"p","status":"success"}"#), "\\"))
        #expect(!ShortcutCenter.contains(Frame("failur"), "failure"))
        #expect(!ShortcutCenter.contains(Frame(), "\\"))
    }

    @Test("what the host writes for a failed result always has the word itself")
    func hostWritesItPlainly() {
        let header: JSON = ["plugin": "p", "status": "failure", "note": "tab\there \"q\""]
        #expect(ShortcutCenter.contains(Frame(data: header.canonicalData), "failure"))
    }
}
