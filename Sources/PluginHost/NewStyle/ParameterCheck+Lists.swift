import Foundation
import IntentBusCore
import IntentBusMetadata

extension ParameterCheck {
    /// A list (`multiple`) parameter: an array whose every item fits the declaration (a
    /// single value becomes a list of one, as in the legacy flow). A problem names the item.
    static func checkList(_ value: JSON, _ p: NewStyleParameter, catalog: NewStyleCatalog,
                          checkRange: Bool) -> Result<JSON, ParameterProblem> {
        let items = value.arrayValue ?? [value]
        guard items.count <= ParameterLimits.listItems else {
            return .failure("takes at most \(ParameterLimits.listItems) items, got \(items.count)")
        }
        var out: [JSON] = []
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            switch checkOne(item, p, catalog: catalog, checkRange: checkRange) {
            case .success(let v): out.append(v)
            case .failure(let why): return .failure("item \(index + 1): \(why)")
            }
        }
        return .success(.array(out))
    }
}
