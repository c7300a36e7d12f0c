import Foundation
import Testing
import IntentBus
@testable import PluginHost
@testable import IntentBusDefinitions
import IntentBusTestSupport

/// ICU separates a German amount from its `€` with a no-break space (U+00A0), as
/// Apple's Foundation does; the expectations spell it out.
private let nbsp = "\u{00A0}"

/// How dialogs render values in a definition file's `locale:`. These run Foundation's
/// real formatters (ICU on Linux), so they also check that this system has the locale
/// data the example definitions rely on.
@Suite("Dialog locale")
struct DialogLocaleTests {
    private func locale(_ identifier: String) throws -> DialogLocale {
        try DialogLocale(identifier: identifier)
    }

    private func amount(_ amount: Double, _ currency: String) -> JSON {
        ["amount": .double(amount), "currency": .string(currency)]
    }

    @Test("this system's Foundation has locale data for de_DE and en_US")
    func localesAvailable() {
        #expect(DialogLocale.availableIdentifiers.contains("de_DE"))
        #expect(DialogLocale.availableIdentifiers.contains("en_US"))
    }

    @Test("CurrencyAmount: NumberFormatter's currency style in the locale; neutral is amount and ISO code")
    func currency() throws {
        let de = try locale("de_DE"), en = try locale("en_US"), neutral = DialogLocale.neutral
        let cases: [(JSON, String, String, String)] = [
            (amount(8.4, "EUR"), "8,40\(nbsp)€", "€8.40", "8.40 EUR"),
            (amount(8.4, "USD"), "8,40\(nbsp)$", "$8.40", "8.40 USD"),
            (amount(1234.5, "EUR"), "1.234,50\(nbsp)€", "€1,234.50", "1234.50 EUR"),
            (amount(1234.5, "USD"), "1.234,50\(nbsp)$", "$1,234.50", "1234.50 USD"),
            (amount(500, "JPY"), "500\(nbsp)¥", "¥500", "500 JPY"),
            (amount(-3, "EUR"), "-3,00\(nbsp)€", "-€3.00", "-3.00 EUR"),
            (["amount": 12, "currency": "gbp"], "12,00\(nbsp)£", "£12.00", "12.00 GBP"),
        ]
        for (value, german, english, plain) in cases {
            #expect(de.text(value, as: .currencyAmount) == german)
            #expect(en.text(value, as: .currencyAmount) == english)
            #expect(neutral.text(value, as: .currencyAmount) == plain)
            // The shape decides for a parameter that declares no (or another) type.
            #expect(de.text(value, as: nil) == german)
        }
        // Not a currency code: the object's text, unchanged.
        #expect(en.text(["amount": 1, "currency": "EURO"], as: .currencyAmount) == #"{"amount":1,"currency":"EURO"}"#)
    }

    @Test("Decimal uses the locale's decimal separator; Integer renders as written")
    func numbers() throws {
        let de = try locale("de_DE"), en = try locale("en_US")
        #expect(de.text(1.5, as: .decimal) == "1,5")
        #expect(en.text(1.5, as: .decimal) == "1.5")
        #expect(DialogLocale.neutral.text(1.5, as: .decimal) == "1.5")
        #expect(de.text(1234567.25, as: .decimal) == "1234567,25")
        #expect(de.text(2, as: .decimal) == "2")
        #expect(de.text(.double(0.1 + 0.2), as: .decimal) == "0,3")
        #expect(de.text(1234, as: .integer) == "1234")
        #expect(de.text(1.5, as: nil) == "1.5", "without a declared type a number renders as written")
        #expect(de.boundText(0.5, for: .currencyAmount) == "0,5")
        #expect(de.boundText(10, for: .integer) == "10")
    }

    @Test("Duration in the locale's abbreviated units")
    func durations() throws {
        let de = try locale("de_DE"), en = try locale("en_US")
        #expect(de.text(1500, as: .duration) == "25 Min.")
        #expect(en.text(1500, as: .duration) == "25 min")
        #expect(de.text(5400, as: .duration) == "1 Std., 30 Min.")
        #expect(en.text(5400, as: .duration) == "1 hr, 30 min")
        #expect(en.text(90, as: .duration) == "1 min, 30 sec")
        #expect(en.text(0.25, as: .duration) == "250 ms")
        #expect(DialogLocale.neutral.text(1500, as: .duration) == "25 min")
        #expect(de.boundText(60, for: .duration) == "1 Min.")
    }

    @Test("Date in the locale's long style, at the wall-clock time written; neutral keeps ISO 8601")
    func dates() throws {
        let de = try locale("de_DE"), en = try locale("en_US")
        #expect(de.text("2024-05-01", as: .date) == "1. Mai 2024")
        #expect(en.text("2024-05-01", as: .date) == "May 1, 2024")
        #expect(de.text("2024-05-01T09:30:00+02:00", as: .date) == "1. Mai 2024 um 09:30")
        #expect(en.text("2024-05-01T21:30:00.250-05:00", as: .date) == "May 1, 2024 at 9:30\u{202F}PM")
        #expect(en.text("2024-05-01T09:30:00Z", as: .date) == "May 1, 2024 at 9:30\u{202F}AM")
        #expect(de.text("2024-05-01T09:30", as: .date) == "1. Mai 2024 um 09:30")
        #expect(de.text("next week", as: .date) == "next week", "what isn't ISO 8601 stays as written")
        #expect(DialogLocale.neutral.text("2024-05-01T09:30:00Z", as: .date) == "2024-05-01T09:30:00Z")
    }

    @Test("strings, custom objects and lists read as before, lists item by item")
    func otherValues() throws {
        let de = try locale("de_DE")
        #expect(de.text("latte", as: .string) == "latte")
        #expect(de.text(["identifier": "c1", "displayString": "Geschäftlich"], as: .object("Contract")) == "Geschäftlich")
        #expect(de.text([amount(8.4, "EUR"), amount(1.5, "EUR")], as: .currencyAmount) == "8,40\(nbsp)€, 1,50\(nbsp)€")
        #expect(de.text(.null, as: .decimal) == "")
        #expect(de.text(true, as: .boolean) == "true")
    }

    @Test("en_US_POSIX is the neutral formatting")
    func posixIsNeutral() throws {
        #expect(try locale("en_US_POSIX") == .neutral)
        #expect(DialogLocale.neutral.identifier == nil)
    }

    @Test("a definition file's locale: applies to all its intents; absent means neutral")
    func fileLocale() throws {
        let text = """
        locale: de_DE
        intents:
          - name: AIntent
          - name: BIntent
        """
        let result = DefinitionLoader.decode(text: text, file: "defs.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.definitions.map(\.locale.identifier) == ["de_DE", "de_DE"])
        let plain = DefinitionLoader.decode(text: "intents:\n  - name: AIntent\n", file: "defs.yaml")
        #expect(plain.definitions.first?.locale == .neutral)
    }

    @Test("an unknown or malformed locale is an error at its line and column")
    func badLocale() {
        let cases: [(String, String)] = [
            ("locale: de-DE", "defs.yaml:1:9: error: locale: unknown locale 'de-DE'; write it 'de_DE' (language_REGION, with '_')"),
            ("locale: de_DX", "defs.yaml:1:9: error: locale: unknown locale 'de_DX'; did you mean 'de_DE'?"),
            ("locale: xx_YY", "defs.yaml:1:9: error: locale: unknown locale 'xx_YY'"),
            ("locale: \"de DE\"", "defs.yaml:1:9: error: locale: 'de DE' is not a locale identifier"),
            ("locale: \"\"", "defs.yaml:1:9: error: locale: locale must not be empty"),
            ("locale: [de_DE]", "defs.yaml:1:9: error: locale:"),
        ]
        for (line, expected) in cases {
            let result = DefinitionLoader.decode(text: line + "\nintents:\n  - name: AIntent\n", file: "defs.yaml")
            let shown = result.errors.map(\.description)
            #expect(shown.count == 1 && shown[0].hasPrefix(expected), "\(line): \(shown)")
            #expect(result.definitions.isEmpty || result.errors.isEmpty == false)
        }
    }

    @Test("the example definitions name the locale their dialogs are written in")
    func exampleLocales() throws {
        let expected = ["balance": "de_DE", "coffee": "en_US", "cart": "en_US", "messenger": "en_US"]
        for (name, identifier) in expected {
            let text = try String(contentsOfFile: Products.file("definitions/\(name).yaml"), encoding: .utf8)
            let result = DefinitionLoader.decode(text: text, file: "\(name).yaml")
            #expect(result.errors.isEmpty, "\(name): \(result.errors)")
            #expect(!result.definitions.isEmpty)
            #expect(result.definitions.allSatisfy { $0.locale.identifier == identifier }, "\(name)")
        }
    }
}

/// The host renders the dialogs of a real legacy request in its definition file's
/// locale: one plugin process per locale, all answering RenderIntent with the values
/// they were sent.
@Suite("Dialog locale end to end")
struct DialogLocaleEndToEndTests {
    /// RenderIntent's definition in `locale` (nil: no `locale:` key).
    static func renderDefinition(_ locale: String?) -> String {
        (locale.map { "locale: \($0)\n" } ?? "") + """
        intents:
          - name: RenderIntent
            parameters:
              - name: prices
                type: CurrencyAmount
                multiple: true
                required: true
                minimum: 0.5
                maximum: 999.5
                prompts:
                  primary: "Prices between ${minimumValue} and ${maximumValue}?"
              - {name: ratio, type: Decimal}
              - {name: length, type: Duration}
              - {name: days, type: Date, multiple: true}
              - {name: count, type: Integer}
            response:
              parameters:
                - {name: prices, type: CurrencyAmount, multiple: true}
                - {name: ratio, type: Decimal}
                - {name: length, type: Duration}
                - {name: days, type: Date, multiple: true}
                - {name: count, type: Integer}
              codes:
                - name: success
                  success: true
                  formatString: "${prices} | ${ratio} | ${length} | ${days} | ${count}"
        """
    }

    @Test("CurrencyAmount, Decimal, Duration and Date render per the file's locale; Integer as written")
    func renderedDialogs() throws {
        let dir = TempDir()
        let plugins = [("render-de", "de_DE"), ("render-en", "en_US"), ("render-neutral", nil)].map { id, locale in
            TestManifest.Plugin.legacy(id).with {
                $0.intents = ["RenderIntent"]
                $0.definitions = [dir.write("defs/\(id).yaml", Self.renderDefinition(locale))]
            }
        }
        let host = try TestHost(TestManifest(plugins), dir: dir,
                                waitReady: ["render-de", "render-en", "render-neutral"])
        defer { host.stop() }
        let client = try host.client()
        let parameters: JSON = ["prices": ["8.40 EUR", "500 JPY"], "ratio": "1,5", "length": "1h30m",
                                "days": ["2024-05-01", "2024-05-01T09:30:00+02:00"], "count": 1234]
        let expected = [
            "render-de": "8,40\(nbsp)€, 500\(nbsp)¥ | 1,5 | 1 Std., 30 Min. | 1. Mai 2024, 1. Mai 2024 um 09:30 | 1234",
            "render-en": "€8.40, ¥500 | 1.5 | 1 hr, 30 min | May 1, 2024, May 1, 2024 at 9:30\u{202F}AM | 1234",
            "render-neutral": "8.40 EUR, 500 JPY | 1.5 | 1 hr, 30 min | 2024-05-01, 2024-05-01T09:30:00+02:00 | 1234",
        ]
        for (id, dialog) in expected.sorted(by: { $0.key < $1.key }) {
            var options = RequestOptions()
            options.plugin = id
            let reply = try client.send("RenderIntent", parameters: parameters, options: options) { _ in nil }
            #expect(reply.body["dialog"] == .string(dialog), "\(id)")
            // The plugin's values travel unchanged: only the dialog is localized.
            #expect(reply.body["response"]?["prices"] == [["amount": 8.4, "currency": "EUR"], ["amount": 500.0, "currency": "JPY"]])
        }

        // Prompts render in the locale too: the range of a missing CurrencyAmount.
        var options = RequestOptions()
        options.plugin = "render-de"
        let talk = Conversation(["12,50 €"])
        let reply = try client.send("RenderIntent", parameters: ["count": 1], options: options, onEvent: talk.handle)
        #expect(talk.prompts.map(\.dialog) == ["Prices between 0,5 and 999,5?"])
        #expect(reply.body["dialog"] == .string("12,50\(nbsp)€ |  |  |  | 1"))
    }
}
