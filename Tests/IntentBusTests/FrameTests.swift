import Testing
@testable import IntentBus
@Test func frameRoundTrip() { #expect(Frame("abc").string == "abc") }
