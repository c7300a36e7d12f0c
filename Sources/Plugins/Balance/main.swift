import Foundation
import IntentBus

// The balance plugin, after the FONIC app in seed 000, with legacy (SiriKit-style)
// handlers and the intents of definitions/balance.yaml:
//   StatusIntent          "Zeige mein FONIC Konto": the balance and free units of the
//                         active contract, answered with one of five response codes
//   SwitchContractIntent  makes another contract active; "0176" matches two contracts,
//                         so the host asks which one (disambiguation)
//   TopUpIntent           tops up the balance; slow, so it reports progress
// BALANCE_LOGGED_OUT=1 makes it behave as if nobody had logged in (code userMissing).

/// One stored contract. Units are shown as the app shows them.
struct Contract: Sendable {
    let id: String
    let label: String
    let phoneNumber: String
    var balanceCents: Int
    let data: (left: String, total: String)?
    let phone: (left: String, total: String, description: String)?

    var json: JSON {
        ["identifier": .string(id), "displayString": .string("\(label) (\(phoneNumber))"),
         "phoneNumber": .string(phoneNumber), "label": .string(label)]
    }
}

/// Euros the way Germans write them: 1,21 €.
func euros(_ cents: Int) -> String { String(format: "%d,%02d €", cents / 100, cents % 100) }

/// The plugin's account data. Contracts and the active one change at run time, so they
/// live behind a lock; handlers themselves keep no state between phases.
final class Account: @unchecked Sendable {
    // @unchecked: every field is only touched under `lock`.
    private let lock = Lock()
    private var contracts: [Contract] = [
        Contract(id: "privat", label: "Privat", phoneNumber: "0176 1234567", balanceCents: 121,
                 data: ("11,0 GB", "11,0 GB"), phone: ("200", "300", "Freiminuten")),
        Contract(id: "geschaeft", label: "Geschäftlich", phoneNumber: "0176 7654321", balanceCents: 1234,
                 data: ("2,5 GB", "5,0 GB"), phone: nil),
        Contract(id: "tochter", label: "Tochter", phoneNumber: "0151 5550000", balanceCents: 310,
                 data: nil, phone: ("50", "100", "SMS")),
        Contract(id: "oma", label: "Oma", phoneNumber: "0160 2220000", balanceCents: 4200, data: nil, phone: nil),
    ]
    private var activeId = "privat"
    let loggedOut = ProcessInfo.processInfo.environment["BALANCE_LOGGED_OUT"] == "1"

    var active: Contract? { lock.withLock { contracts.first { $0.id == activeId } } }

    /// Contracts whose id, label or number contains `query` (ignoring case and spaces).
    func matching(_ query: String) -> [Contract] {
        let q = query.lowercased().replacingOccurrences(of: " ", with: "")
        return lock.withLock {
            contracts.filter {
                $0.id == q || $0.label.lowercased().contains(q) || $0.phoneNumber.replacingOccurrences(of: " ", with: "").contains(q)
            }
        }
    }

    func activate(_ id: String) { lock.withLock { activeId = id } }

    func topUp(_ euros: Int) -> Contract? {
        lock.withLock {
            guard let i = contracts.firstIndex(where: { $0.id == activeId }) else { return nil }
            contracts[i].balanceCents += euros * 100
            return contracts[i]
        }
    }
}

let account = Account()

/// StatusIntent: picks the code by what the contract has, as the FONIC extension does.
struct StatusHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode {
        case success, successData, successPhone, successDataAndPhone, userMissing
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        guard !account.loggedOut, let c = account.active else { return LegacyResponse(.userMissing) }
        var values: [String: JSON] = ["balance": .string(euros(c.balanceCents))]
        if let data = c.data {
            values["dataUnitsLeft"] = .string(data.left)
            values["dataUnitsTotal"] = .string(data.total)
        }
        if let phone = c.phone {
            values["phoneUnitsLeft"] = .string(phone.left)
            values["phoneUnitsTotal"] = .string(phone.total)
            values["phoneDescription"] = .string(phone.description)
        }
        switch (c.data != nil, c.phone != nil) {
        case (true, true): return LegacyResponse(.successDataAndPhone, values)
        case (true, false): return LegacyResponse(.successData, values)
        case (false, true): return LegacyResponse(.successPhone, values)
        case (false, false): return LegacyResponse(.success, values)
        }
    }
}

/// SwitchContractIntent: resolves the contract by label or number, disambiguating
/// when several match; confirm notices a contract that is already active.
struct SwitchContractHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success, alreadyActive, failure }

    func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult {
        guard parameter == "contract" else { return .notRequired }
        guard let query = intent.identifier("contract"), !query.isEmpty else { return .needsValue }
        let found = account.matching(query)
        switch found.count {
        case 0: return .unsupported(reason: "unknownContract")
        case 1: return .success(found[0].json)
        default:
            return .disambiguation(found.map {
                ResolutionOption(id: $0.id, title: $0.label, subtitle: $0.phoneNumber, value: .string($0.id))
            })
        }
    }

    func confirm(_ intent: LegacyIntent, context: PluginContext) async throws -> ConfirmOutcome<Code>? {
        guard let id = intent.identifier("contract"), let c = account.matching(id).first else {
            return .failure(LegacyResponse(.failure))
        }
        if account.active?.id == c.id {
            return .failure(LegacyResponse(.alreadyActive, ["label": .string(c.label), "phoneNumber": .string(c.phoneNumber)]))
        }
        return .ready
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        guard let id = intent.identifier("contract"), let c = account.matching(id).first else {
            return LegacyResponse(.failure)
        }
        account.activate(c.id)
        return LegacyResponse(.success, ["label": .string(c.label), "phoneNumber": .string(c.phoneNumber)])
    }
}

/// TopUpIntent: only 5-euro steps; asks before large amounts; the booking is slow and
/// reports progress while it runs.
struct TopUpHandler: LegacyIntentHandling {
    enum Code: String, LegacyResponseCode { case success, userMissing, failure }

    func resolve(_ parameter: String, of intent: LegacyIntent, context: PluginContext) async throws -> ResolutionResult {
        guard parameter == "amount" else { return .notRequired }
        guard let amount = intent.int("amount") else { return .needsValue }
        if amount % 5 != 0 { return .unsupported(reason: "notMultipleOfFive") }
        if amount > 50 { return .confirmationRequired(.int(Int64(amount))) }
        return .success(.int(Int64(amount)))
    }

    func handle(_ intent: LegacyIntent, context: PluginContext) async throws -> LegacyResponse<Code> {
        guard !account.loggedOut, let amount = intent.int("amount") else { return LegacyResponse(.userMissing) }
        let steps = ["Zahlung wird autorisiert", "Guthaben wird gebucht", "Buchung wird bestätigt"]
        for (i, step) in steps.enumerated() {
            context.progress(step + "…", fraction: Double(i + 1) / Double(steps.count))
            try await Task.sleep(for: .milliseconds(300))
        }
        guard let c = account.topUp(amount) else { return LegacyResponse(.failure) }
        return LegacyResponse(.success, ["amount": .string(euros(amount * 100)), "balance": .string(euros(c.balanceCents))])
    }
}

do {
    let runtime = try PluginRuntime()
    runtime.onLegacy(["StatusIntent", "SwitchContractIntent", "TopUpIntent"]) { intent in
        switch intent {
        case "StatusIntent": StatusHandler()
        case "SwitchContractIntent": SwitchContractHandler()
        case "TopUpIntent": TopUpHandler()
        default: nil
        }
    }
    runtime.run()
} catch {
    print("plugin-balance: \(error)")
    exit(2)
}
