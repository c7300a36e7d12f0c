import Foundation
import IntentBusCore
import IntentBusLegacy

/// The disambiguation options of the value classes' resolution results: each value's
/// text as title, its wire form as what the parameter becomes; ids unique even where two
/// values read alike ("Alex Meyer", "Alex Meyer 2").
enum INWireResolutionOptions {
    static func options(_ items: [(title: String, subtitle: String?, id: String?, value: JSON)]) -> [ResolutionOption] {
        var seen: Set<String> = []
        return items.map { item in
            var id = item.id ?? item.title
            var n = 2
            while !seen.insert(id).inserted { id = "\(item.id ?? item.title) \(n)"; n += 1 }
            return ResolutionOption(id: id, title: item.title, subtitle: item.subtitle, value: item.value)
        }
    }

    static func options(_ values: [some INWireConvertible & CustomStringConvertible]) -> [ResolutionOption] {
        options(values.map { (title: $0.description, subtitle: nil, id: nil, value: $0.wireValue) })
    }
}
