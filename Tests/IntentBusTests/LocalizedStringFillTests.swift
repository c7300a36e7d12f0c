import Testing
@testable import IntentBusAppIntents

/// `LocalizedStringResource.fill`, the format filler every interpolated dialog goes
/// through (it walks UTF-8 bytes since the perform() profile; these pin what it does).
@Suite("LocalizedStringResource format filling")
struct LocalizedStringFillTests {
    @Test("specifiers in order, by position, %% and text around them")
    func specifiers() {
        #expect(LocalizedStringResource.fill("%@", ["Sam"]) == "Sam")
        #expect(LocalizedStringResource.fill("Hi %@, you have %lld new", ["Sam", "3"]) == "Hi Sam, you have 3 new")
        #expect(LocalizedStringResource.fill("%2$@ before %1$@", ["one", "two"]) == "two before one")
        #expect(LocalizedStringResource.fill("100%% sure, %@", ["ok"]) == "100% sure, ok")
        #expect(LocalizedStringResource.fill("%.2lf km", ["1.5"]) == "1.5 km")
        #expect(LocalizedStringResource.fill("no specifier", ["unused"]) == "no specifier")
    }

    @Test("non-ASCII text is copied whole, around and inside arguments")
    func unicode() {
        #expect(LocalizedStringResource.fill("Grüße, %@ — 50 %% 🎉", ["Zoë"]) == "Grüße, Zoë — 50 % 🎉")
        #expect(LocalizedStringResource.fill("日本%@語", ["の"]) == "日本の語")
    }

    @Test("a specifier without an argument is empty; a cut-off one is dropped; a lone % at the end stays")
    func edges() {
        #expect(LocalizedStringResource.fill("%@ and %@", ["a"]) == "a and ")
        #expect(LocalizedStringResource.fill("%5$@!", ["a"]) == "!")
        #expect(LocalizedStringResource.fill("cut %ll", []) == "cut ")
        #expect(LocalizedStringResource.fill("end %", []) == "end %")
        #expect(LocalizedStringResource.fill("", ["a"]) == "")
    }

    @Test("an interpolated literal with and without percent signs resolves as written")
    func interpolation() {
        let name = "Sam", count = 3
        let plain: LocalizedStringResource = "Hello \(name), \(count) left"
        #expect(plain.resolved(locale: "en") == "Hello Sam, 3 left")
        let percent: LocalizedStringResource = "\(count)% of \(name)'s 100%"
        #expect(percent.resolved(locale: "en") == "3% of Sam's 100%")
    }
}
