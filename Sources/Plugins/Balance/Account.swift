import Intents

/// One stored contract. Units are shown as the app shows them.
struct StoredContract: Sendable {
    let id: String
    let label: String
    let phoneNumber: String
    var balanceCents: Int
    let data: (left: String, total: String)?
    let phone: (left: String, total: String, description: String)?

    /// The contract as the generated `Contract` class (balance.yaml's custom type): what
    /// resolving hands back to the host.
    var object: Contract {
        let contract = Contract(identifier: id, display: label)
        contract.label = label
        contract.phoneNumber = phoneNumber
        return contract
    }
}

/// Euros the way Germans write them: 1,21 €.
func euros(_ cents: Int) -> String { String(format: "%d,%02d €", cents / 100, cents % 100) }

/// The plugin's account data. Contracts and the active one change at run time, so they
/// live behind a lock; handlers themselves keep no state between phases.
final class Account: @unchecked Sendable {
    // @unchecked: every field is only touched under `lock`.
    private let lock = NSLock()
    private var contracts: [StoredContract] = [
        StoredContract(id: "privat", label: "Privat", phoneNumber: "0176 1234567", balanceCents: 121,
                 data: ("11,0 GB", "11,0 GB"), phone: ("200", "300", "Freiminuten")),
        StoredContract(id: "geschaeft", label: "Geschäftlich", phoneNumber: "0176 7654321", balanceCents: 1234,
                 data: ("2,5 GB", "5,0 GB"), phone: nil),
        StoredContract(id: "tochter", label: "Tochter", phoneNumber: "0151 5550000", balanceCents: 310,
                 data: nil, phone: ("50", "100", "SMS")),
        StoredContract(id: "oma", label: "Oma", phoneNumber: "0160 2220000", balanceCents: 4200, data: nil, phone: nil),
    ]
    private var activeId = "privat"
    let loggedOut = ProcessInfo.processInfo.environment["BALANCE_LOGGED_OUT"] == "1"

    var active: StoredContract? { lock.withLock { contracts.first { $0.id == activeId } } }

    /// Contracts whose id, label or number contains `query` (ignoring case and spaces).
    func matching(_ query: String) -> [StoredContract] {
        let q = query.lowercased().replacingOccurrences(of: " ", with: "")
        return lock.withLock {
            contracts.filter {
                $0.id == q || $0.label.lowercased().contains(q) || $0.phoneNumber.replacingOccurrences(of: " ", with: "").contains(q)
            }
        }
    }

    func activate(_ id: String) { lock.withLock { activeId = id } }

    func topUp(_ euros: Int) -> StoredContract? {
        lock.withLock {
            guard let i = contracts.firstIndex(where: { $0.id == activeId }) else { return nil }
            contracts[i].balanceCents += euros * 100
            return contracts[i]
        }
    }
}

let account = Account()
