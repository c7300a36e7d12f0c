import Intents

/// The legacy half of the cart: a SiriKit extension on the classes generated from cart.yaml.
final class CartExtension: INExtension {
    override func handler(for intent: INIntent) -> Any {
        intent is AddToCartIntent ? AddToCartHandler() : ShowCartHandler()
    }
}
