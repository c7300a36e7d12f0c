import Intents

/// The app's stored contracts and which one is active, shared by the handlers; changed
/// at run time, so behind a lock.
final class ContractStore: @unchecked Sendable {
    // @unchecked: `activeId` is only touched under `lock`.
    static let shared = ContractStore()
    private let lock = NSLock()
    private var activeId = "privat"
    private let all: [(id: String, label: String, phoneNumber: String)] = [
        ("privat", "Privat", "0176 1234567"), ("geschaeft", "Geschäftlich", "0176 7654321"),
        ("tochter", "Tochter", "0151 5550000"), ("oma", "Oma", "0160 2220000"),
    ]

    var activeIdentifier: String { lock.withLock { activeId } }

    func activate(_ identifier: String) { lock.withLock { activeId = identifier } }

    /// The contracts whose id, label or number (without spaces) contains `query`.
    func matching(_ query: String) -> [Contract] {
        let q = query.lowercased().replacingOccurrences(of: " ", with: "")
        return all.filter {
            $0.id == q || $0.label.lowercased().contains(q) || $0.phoneNumber.replacingOccurrences(of: " ", with: "").contains(q)
        }.map {
            let contract = Contract(identifier: $0.id, display: $0.label)
            contract.label = $0.label
            contract.phoneNumber = $0.phoneNumber
            return contract
        }
    }
}
