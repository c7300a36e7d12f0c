import Foundation
import IntentBus

// The cart plugin, after seed 004 ("Show my cart" as a Siri shortcut), in the middle of a
// migration to new-style handlers, one intent at a time:
//   ShowCartIntent    legacy handler kept in the code; the new-style ShowCartAppIntent
//                     migrates it (migratedFrom), so requests for ShowCartIntent run the
//                     new handler. CART_MIGRATION=off rolls the migration back.
//   AddToCartIntent   not migrated yet: its legacy handler keeps serving it.
// The legacy handlers are plain-style here: the SiriKit-style legacy SDK is not on main
// yet (see docs/migration.md).

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
    static let typeDisplayName = "Currency"
    static let caseDisplayRepresentations: [CartCurrency: String] = [.eur: "Euro", .usd: "US dollar"]

    func format(_ cents: Int) -> String {
        switch self {
        case .eur: String(format: "%d,%02d €", cents / 100, cents % 100)
        case .usd: String(format: "$%d.%02d", cents * 108 / 100 / 100, cents * 108 / 100 % 100)
        }
    }
}

/// The new-style "Show my cart". The legacy ShowCartIntent took `customer` and
/// `includeSaved`; `customer` maps by name and type, `includeSaved` has no counterpart
/// (saved items moved to their own intent in the new design), so the host reports it in
/// the reply's `unmapped_parameters`.
struct ShowCartAppIntent: MigratedAppIntent {
    static let title = "Show my cart"
    static let description = IntentDescription("Shows what is in the cart.", categoryName: "Shopping")
    static let migratedFrom = "ShowCartIntent"

    @Parameter(title: "Customer", requestValueDialog: "Whose cart?") var customer: String
    @Parameter(title: "Currency", default: .eur) var currency: CartCurrency

    func perform() async throws -> IntentResult {
        let lines = await CartStore.shared.lines(customer)
        let total = lines.reduce(0) { $0 + $1.cents * $1.quantity }
        let count = lines.reduce(0) { $0 + $1.quantity }
        let items: [JSON] = lines.map { ["item": .string($0.item), "quantity": $0.quantity.intentJSON] }
        return .result(dialog: count == 0 ? "\(customer)'s cart is empty."
                           : "\(count) items in \(customer)'s cart, \(currency.format(total)) in total.",
                       snippet: ["items": .array(items), "total": .string(currency.format(total))])
    }
}

do {
    let plugin = try IntentPlugin()
    let runtime = plugin.runtime
    // Legacy ShowCartIntent: kept until every client has moved; the migrated new-style
    // intent registered below takes its requests over.
    runtime.on("ShowCartIntent") { request, _ in
        let customer = request.parameters["customer"]?.displayText ?? ""
        var lines = await CartStore.shared.lines(customer).map { "\($0.quantity)× \($0.item)" }
        if request.parameters["includeSaved"]?.boolValue == true {
            lines += await CartStore.shared.savedItems(customer).map { "saved: \($0)" }
        }
        return .success(["dialog": .string(lines.isEmpty ? "Your cart is empty." : "Your cart: \(lines.joined(separator: ", "))"),
                         "code": "success", "items": .array(lines.map { .string($0) })])
    }
    // Legacy AddToCartIntent: not migrated yet.
    runtime.on("AddToCartIntent") { request, _ in
        let p = request.parameters
        guard let item = p["item"]?.stringValue, !item.isEmpty, let customer = p["customer"]?.stringValue else {
            return .failure(["dialog": "What should I add, and to whose cart?", "code": "failure"])
        }
        let quantity = Int(p["quantity"]?.intValue ?? 1)
        let lines = await CartStore.shared.add(item, quantity: quantity, customer: customer)
        return .success(["dialog": .string("Added \(quantity)× \(item). \(lines.count) lines in the cart."), "code": "success"])
    }
    if ProcessInfo.processInfo.environment["CART_MIGRATION"] != "off" {
        plugin.register(ShowCartAppIntent.self)
    }
    plugin.run()
} catch {
    print("plugin-cart: \(error)")
    exit(2)
}
