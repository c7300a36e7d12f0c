import Foundation
import IntentBus

/// The outcome of picking a plugin among those that claim an intent.
enum PluginChoice {
    case plugin(Int)
    case failure(BusError)
}

extension IntentRouter {
    /// Picks the plugin for a request. A `plugin` named in the header wins; a single
    /// claimant is taken; several claimants need a choice.
    func choosePlugin(_ intent: String, candidates: [Int], options: JSON) -> PluginChoice {
        if let named = options["plugin"]?.stringValue {
            guard let index = candidates.first(where: { slots[$0].spec.id == named }) else {
                let exists = slots.contains { $0.spec.id == named }
                return .failure(BusError(.unknownPlugin, exists
                    ? "plugin \(named) does not claim \(intent)"
                    : "there is no plugin \"\(named)\"",
                    details: ["candidates": candidateList(candidates, intent: intent)]))
            }
            return .plugin(index)
        }
        if candidates.count == 1 { return .plugin(candidates[0]) }
        let policy = options["choice"]?.stringValue ?? "ask"
        if policy == "default" {
            let best = candidates.max { slots[$0].spec.priority < slots[$1].spec.priority }!
            let top = candidates.filter { slots[$0].spec.priority == slots[best].spec.priority }
            if top.count == 1 { return .plugin(best) }
        }
        let names = candidates.map { slots[$0].spec.id }.joined(separator: ", ")
        return .failure(BusError(.choiceRequired,
            "\(candidates.count) plugins claim \(intent) (\(names)); name one with the header's \"plugin\"",
            details: ["candidates": candidateList(candidates, intent: intent)]))
    }

    /// The candidates as the client sees them: id, display name, handler style.
    func candidateList(_ candidates: [Int], intent: String) -> JSON {
        .array(candidates.map { i in
            ["id": .string(slots[i].spec.id), "name": .string(slots[i].spec.name),
             "style": .string(slots[i].style(for: intent).rawValue)]
        })
    }
}
