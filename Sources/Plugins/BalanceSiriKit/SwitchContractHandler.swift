import Intents

/// SwitchContractIntent as an iOS extension writes it against the generated classes:
/// resolves the contract (disambiguating when a number fits several), confirms that it
/// is not already active, then switches.
class SwitchContractHandler: SwitchContractIntentHandling {
    let store = ContractStore.shared

    func resolveContract(for intent: SwitchContractIntent, with completion: @escaping (ContractResolutionResult) -> Void) {
        guard let given = intent.contract else {
            completion(.needsValue())
            return
        }
        let found = store.matching(given.identifier ?? given.displayString)
        switch found.count {
        case 0: completion(.unsupported(forReason: "unknownContract"))
        case 1: completion(.success(with: found[0]))
        default: completion(.disambiguation(with: found))
        }
    }

    func confirm(intent: SwitchContractIntent, completion: @escaping (SwitchContractIntentResponse) -> Void) {
        guard let contract = intent.contract, contract.identifier == store.activeIdentifier else {
            completion(SwitchContractIntentResponse(code: .ready, userActivity: nil))
            return
        }
        completion(.alreadyActive(label: contract.label ?? contract.displayString, phoneNumber: contract.phoneNumber ?? ""))
    }

    func handle(intent: SwitchContractIntent, completion: @escaping (SwitchContractIntentResponse) -> Void) {
        guard let contract = intent.contract, let identifier = contract.identifier else {
            completion(SwitchContractIntentResponse(code: .failure, userActivity: nil))
            return
        }
        store.activate(identifier)
        completion(.success(label: contract.label ?? contract.displayString, phoneNumber: contract.phoneNumber ?? ""))
    }
}
