import Intents

/// Legacy "Add to cart" (cart.yaml), not migrated yet: a large quantity is confirmed
/// while resolving, an item out of stock is refused in confirm, before anything changes.
final class AddToCartHandler: AddToCartIntentHandling {
    /// Quantities above this are confirmed with the definition's confirmation prompt.
    static let confirmAbove = 10
    /// Items the shop can't deliver right now; adding one answers `outOfStock`.
    static let outOfStock: Set<String> = ["milk frother"]

    func resolveItem(for intent: AddToCartIntent, with completion: @escaping (INStringResolutionResult) -> Void) {
        guard let item = intent.item?.trimmingCharacters(in: .whitespaces), !item.isEmpty else { return completion(.needsValue()) }
        completion(.success(with: item))
    }

    func resolveQuantity(for intent: AddToCartIntent, with completion: @escaping (INIntegerResolutionResult) -> Void) {
        // The host checked the range and applied the default (1); no value here means the
        // user said no to the confirmation, so ask how many instead. A confirmed value is
        // settled by the host and not resolved again.
        guard let quantity = intent.quantity?.intValue else { return completion(.needsValue()) }
        completion(quantity > Self.confirmAbove ? .confirmationRequired(with: NSNumber(value: quantity)) : .success(with: quantity))
    }

    func confirm(intent: AddToCartIntent, completion: @escaping (AddToCartIntentResponse) -> Void) {
        guard let item = intent.item else { return completion(AddToCartIntentResponse(code: .failure, userActivity: nil)) }
        if Self.outOfStock.contains(item.lowercased()) { return completion(.outOfStock(item: item)) }
        completion(AddToCartIntentResponse(code: .ready, userActivity: nil))
    }

    func handle(intent: AddToCartIntent) async -> AddToCartIntentResponse {
        guard let item = intent.item, let customer = intent.customer else {
            return AddToCartIntentResponse(code: .failure, userActivity: nil)
        }
        let quantity = intent.quantity?.intValue ?? 1
        let lines = await CartStore.shared.add(item, quantity: quantity, customer: customer)
        return .success(quantity: NSNumber(value: quantity), item: item, lines: NSNumber(value: lines.count))
    }
}
