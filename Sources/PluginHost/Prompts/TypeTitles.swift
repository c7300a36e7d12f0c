import Foundation

/// The built-in parameter types for people, in a dialog's language: what a client shows
/// beside a value question ("Wie viel? (Ganzzahl)"). English when the language has no
/// entry or the definition names no locale.
enum TypeTitles {
    /// Type name → title, by language code.
    static let table: [String: [String: String]] = [
        "en": ["String": "text", "Integer": "whole number", "Decimal": "number", "Boolean": "yes or no",
               "Date": "date", "Duration": "duration", "CurrencyAmount": "amount", "URL": "web address"],
        "de": ["String": "Text", "Integer": "Ganzzahl", "Decimal": "Zahl", "Boolean": "ja oder nein",
               "Date": "Datum", "Duration": "Dauer", "CurrencyAmount": "Betrag", "URL": "Webadresse"],
        "fr": ["String": "texte", "Integer": "nombre entier", "Decimal": "nombre", "Boolean": "oui ou non",
               "Date": "date", "Duration": "durée", "CurrencyAmount": "montant", "URL": "adresse web"],
    ]

    /// The title of `type` in `language`; the type name itself when it is not built in.
    static func title(_ type: String, language: String?) -> String {
        table[language ?? "en"]?[type] ?? table["en"]?[type] ?? type
    }
}
