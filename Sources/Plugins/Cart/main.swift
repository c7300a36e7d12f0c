import Foundation
import IntentBus
import Intents

// The cart plugin, after seed 004 ("Show my cart" as a Siri shortcut), in the middle of a
// migration to new-style handlers, one intent at a time:
//   ShowCartIntent    legacy handler kept in the code; the new-style ShowCartAppIntent
//                     migrates it (migratedFrom), so requests for ShowCartIntent run the
//                     new handler. CART_MIGRATION=off rolls the migration back.
//   AddToCartIntent   not migrated yet: its legacy handler keeps serving it.
// The legacy intents are defined in cart.yaml (a link to definitions/cart.yaml: parameters,
// prompts, response codes); their handlers are a SiriKit extension (CartExtension) on the
// classes generated from it, served beside the App Intents on the one runtime.

/// One line in a cart.
struct CartLine: Sendable {
    let item: String
    var quantity: Int
    let cents: Int
}

/// Carts by customer, in memory.
actor CartStore {
    static let shared = CartStore()
    private var carts: [String: [CartLine]] = [
        "ada": [CartLine(item: "Espresso beans", quantity: 2, cents: 1290), CartLine(item: "Paper filters", quantity: 1, cents: 350)],
    ]
    private var saved: [String: [String]] = ["ada": ["Milk frother"]]

    func lines(_ customer: String) -> [CartLine] { carts[customer.lowercased()] ?? [] }
    func savedItems(_ customer: String) -> [String] { saved[customer.lowercased()] ?? [] }

    func add(_ item: String, quantity: Int, customer: String) -> [CartLine] {
        var lines = carts[customer.lowercased()] ?? []
        if let i = lines.firstIndex(where: { $0.item.lowercased() == item.lowercased() }) {
            lines[i].quantity += quantity
        } else {
            lines.append(CartLine(item: item, quantity: quantity, cents: 500))
        }
        carts[customer.lowercased()] = lines
        return lines
    }
}

/// The currency a cart total is shown in.
enum CartCurrency: String, AppEnum {
    case eur, usd
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Currency"
    static let caseDisplayRepresentations: [CartCurrency: DisplayRepresentation] = [.eur: "Euro", .usd: "US dollar"]

    /// The total as the cart's dialogs read, in their locale (definitions/cart.yaml:
    /// `en_US`): `€29.30`, `$31.64`, as the host renders a CurrencyAmount for en_US.
    func format(_ cents: Int) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.numberStyle = .currency
        switch self {
        case .eur:
            formatter.currencyCode = "EUR"
            return formatter.string(from: NSNumber(value: Double(cents) / 100)) ?? "€\(cents / 100)"
        case .usd:
            formatter.currencyCode = "USD"
            let converted = cents * 108 / 100
            return formatter.string(from: NSNumber(value: Double(converted) / 100)) ?? "$\(converted / 100)"
        }
    }
}

/// The new-style "Show my cart". The legacy ShowCartIntent (definitions/cart.yaml) takes
/// `customer` (String) and `includeSaved` (Boolean); `customer` maps by name and type,
/// `includeSaved` has no counterpart (saved items move to their own intent in the new
/// design), so the host reports it in the reply's `unmapped_parameters`.
struct ShowCartAppIntent: CustomIntentMigratedAppIntent {
    static let title: LocalizedStringResource = "Show my cart"
    static let description = IntentDescription("Shows what is in the cart.", categoryName: "Shopping")
    static let intentClassName = "ShowCartIntent"

    @Parameter(title: "Customer", requestValueDialog: "Whose cart?") var customer: String
    @Parameter(title: "Currency", default: .eur) var currency: CartCurrency

    func perform() async throws -> some IntentResult & ProvidesDialog {
        let lines = await CartStore.shared.lines(customer)
        let total = lines.reduce(0) { $0 + $1.cents * $1.quantity }
        let count = lines.reduce(0) { $0 + $1.quantity }
        let items: [JSON] = lines.map { ["item": .string($0.item), "quantity": $0.quantity.intentJSON] }
        // Seed 004's activity: a persistent identifier, a title and the suggested phrase
        // "Show My Cart", eligible for prediction (docs/shortcuts.md). Donated with the
        // customer only: the currency is how it is shown, not what is asked for.
        let donated = ShowCartAppIntent()
        donated.customer = customer
        try await IntentDonationManager.shared.donate(intent: donated, group: "cart-\(customer.lowercased())",
                                                      title: "Show my cart", suggestedInvocationPhrase: "Show My Cart",
                                                      identifier: "show-cart-\(customer.lowercased())")
        let dialog: IntentDialog = count == 0 ? "\(customer)'s cart is empty."
            : "\(count) items in \(customer)'s cart, \(currency.format(total)) in total."
        return .result(dialog: dialog, snippet: ["items": .array(items), "total": .string(currency.format(total))])
    }
}

/// The cart's app shortcut: the currency slot takes a case's display name ("US dollar").
struct CartShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        [AppShortcut(intent: ShowCartAppIntent(),
                     phrases: ["Show my cart in \(\.$currency)", "Zeig meinen Warenkorb in \(\.$currency)"],
                     shortTitle: "Show my cart", systemImageName: "cart")]
    }
}

do {
    let plugin = try IntentPlugin()
    // The legacy handlers first: ShowCartIntent's stays in the code until every caller
    // has moved, and serves it again when the migration is rolled back.
    INExtensionRuntime.register(CartExtension.self, intents: INGeneratedDefinition.intents, on: plugin.runtime)
    // Registered after the legacy handler, the migrated intent takes ShowCartIntent over.
    if ProcessInfo.processInfo.environment["CART_MIGRATION"] != "off" {
        plugin.register(ShowCartAppIntent.self)
        plugin.register(shortcuts: CartShortcuts.self)
    }
    plugin.run()
} catch {
    print("plugin-cart: \(error)")
    exit(2)
}
