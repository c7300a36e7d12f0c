/// An Intents extension's principal class (SiriKit's `INExtension`). Subclass it,
/// override `handler(for:)`, and serve it with one line, `INExtensionMain(MyHandler.self)`
/// (the generator writes that function next to the intent classes). The host may ask for
/// a handler anew for every phase, as Siri does.
open class INExtension: INIntentHandlerProviding {
    public required init() {}

    /// The handler for `intent`; the extension itself by default.
    open func handler(for intent: INIntent) -> Any { self }
}
