import Foundation
import IntentBus

// The balance plugin, after the FONIC app in seed 000: "Wie ist mein Guthaben?"
// StatusIntent answers with the credit and the data left on the current contract.
struct Contract: Sendable {
    let id: String
    let phone: String
    let balance: String
    let dataLeft: String
    let dataTotal: String
}

let contracts = [
    Contract(id: "c1", phone: "0176 1234567", balance: "12,34 €", dataLeft: "1,5 GB", dataTotal: "3 GB"),
    Contract(id: "c2", phone: "0151 7654321", balance: "3,10 €", dataLeft: "200 MB", dataTotal: "1 GB"),
]

do {
    let runtime = try PluginRuntime()
    runtime.on("StatusIntent") { request, _ in
        let id = request.parameters["contract"]?.stringValue ?? contracts[0].id
        guard let c = contracts.first(where: { $0.id == id }) else {
            return .failure(["dialog": "Zu diesem Vertrag liegen keine Daten vor.", "code": "userMissing"])
        }
        return .success([
            "dialog": .string("Sie haben \(c.dataLeft) von \(c.dataTotal) und \(c.balance) Guthaben."),
            "code": "successDataAndPhone", "balance": .string(c.balance), "phone": .string(c.phone),
        ])
    }
    runtime.on("SwitchContractIntent") { request, _ in
        let id = request.parameters["contract"]?.stringValue ?? ""
        guard let c = contracts.first(where: { $0.id == id }) else {
            return .failure(["dialog": "Welchen Vertrag meinen Sie?", "code": "failure"])
        }
        return .success(["dialog": .string("Vertrag \(c.phone) ist jetzt aktiv."), "code": "success"])
    }
    runtime.run()
} catch {
    print("plugin-balance: \(error)")
    exit(2)
}
