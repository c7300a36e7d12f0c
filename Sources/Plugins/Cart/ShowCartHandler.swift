import Intents

/// Legacy "Show my cart" (cart.yaml). Replaced by ShowCartAppIntent while the migration
/// is on; kept so that `CART_MIGRATION=off` can roll it back.
final class ShowCartHandler: ShowCartIntentHandling {
    func handle(intent: ShowCartIntent) async -> ShowCartIntentResponse {
        let customer = intent.customer ?? ""
        let lines = await CartStore.shared.lines(customer)
        var items = lines.map { "\($0.quantity)× \($0.item)" }
        if intent.includeSaved?.boolValue == true {
            items += await CartStore.shared.savedItems(customer).map { "saved: \($0)" }
        }
        guard !items.isEmpty else { return ShowCartIntentResponse(code: .empty, userActivity: nil) }
        let response = ShowCartIntentResponse.success(items: items)
        response.count = NSNumber(value: lines.reduce(0) { $0 + $1.quantity })
        return response
    }
}
