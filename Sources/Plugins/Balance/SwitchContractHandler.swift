import Intents

/// SwitchContractIntent: resolves the contract by label or number, disambiguating
/// when several match; confirm notices a contract that is already active.
final class SwitchContractHandler: SwitchContractIntentHandling {
    func resolveContract(for intent: SwitchContractIntent, with completion: @escaping (ContractResolutionResult) -> Void) {
        // What the user said arrives as a contract whose identifier is the words said.
        let query = intent.contract.map { $0.identifier ?? $0.displayString } ?? ""
        guard !query.isEmpty else {
            completion(.needsValue())
            return
        }
        let found = account.matching(query)
        switch found.count {
        case 0: completion(.unsupported(forReason: "unknownContract"))
        case 1: completion(.success(with: found[0].object))
        default: completion(.disambiguation(with: found.map(\.object)))
        }
    }

    func confirm(intent: SwitchContractIntent, completion: @escaping (SwitchContractIntentResponse) -> Void) {
        guard let id = intent.contract?.identifier, let c = account.matching(id).first else {
            completion(SwitchContractIntentResponse(code: .failure, userActivity: nil))
            return
        }
        if account.active?.id == c.id {
            completion(.alreadyActive(label: c.label, phoneNumber: c.phoneNumber))
            return
        }
        completion(SwitchContractIntentResponse(code: .ready, userActivity: nil))
    }

    func handle(intent: SwitchContractIntent, completion: @escaping (SwitchContractIntentResponse) -> Void) {
        guard let id = intent.contract?.identifier, let c = account.matching(id).first else {
            completion(SwitchContractIntentResponse(code: .failure, userActivity: nil))
            return
        }
        account.activate(c.id)
        completion(.success(label: c.label, phoneNumber: c.phoneNumber))
    }
}
