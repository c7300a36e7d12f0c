import Intents

/// The extension's principal class: one handler per intent, as an extension with several
/// intents usually writes it. Handlers keep no state between phases: the host may ask for
/// a fresh one each time.
final class BalanceExtension: INExtension {
    override func handler(for intent: INIntent) -> Any {
        switch intent {
        case is SwitchContractIntent: SwitchContractHandler()
        case is TopUpIntent: TopUpHandler()
        default: StatusHandler()
        }
    }
}
