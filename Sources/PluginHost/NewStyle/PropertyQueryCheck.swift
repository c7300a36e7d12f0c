import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusMetadata

/// Checks an `ib.entities` query `property` (docs/protocol.md §9.4) against the entity's
/// declared property query before it is forwarded: every filter names a declared
/// property and one of its comparators and carries a value of the property's type
/// (`[low, high]` for `is_between`); sorts name sortable properties; counts and the limit
/// are bounded. The forwarded body holds only the checked, normalised fields.
enum PropertyQueryCheck {
    static let maxFilters = 16
    static let maxSorts = 4
    static let maxLimit = 1000

    static func check(_ body: JSON, entity: String, declared: NewStylePropertyQuery,
                      catalog: NewStyleCatalog) -> Result<[String: JSON], BusError> {
        func fail(_ why: String) -> Result<[String: JSON], BusError> {
            .failure(BusError(.invalidParameters, "property query of \(entity): \(why)"))
        }
        let filters = body["filters"] ?? .array([])
        guard let list = filters.arrayValue else { return fail("filters must be an array") }
        guard list.count <= maxFilters else { return fail("at most \(maxFilters) filters, got \(list.count)") }
        var checked: [JSON] = []
        for (i, filter) in list.enumerated() {
            let name = filter["property"]?.stringValue ?? ""
            guard let property = declared.properties.first(where: { $0.name == name }) else {
                return fail("filter \(i + 1): no queryable property \"\(name.prefix(80))\" (it has: \(declared.properties.map(\.name).joined(separator: ", ")))")
            }
            let comparator = filter["comparator"]?.stringValue ?? ""
            guard property.comparators.contains(comparator) else {
                return fail("filter \(i + 1): \(name) is compared with \(property.comparators.joined(separator: ", ")), not \"\(comparator.prefix(40))\"")
            }
            let asParameter = NewStyleParameter(name: name, title: name, type: property.type)
            let given = filter["value"] ?? .null
            let value: JSON
            if comparator == "is_between" {
                guard let pair = given.arrayValue, pair.count == 2 else { return fail("filter \(i + 1): is_between takes [low, high]") }
                var bounds: [JSON] = []
                for bound in pair {
                    switch ParameterCheck.checkOne(bound, asParameter, catalog: catalog) {
                    case .success(let v): bounds.append(v)
                    case .failure(let why): return fail("filter \(i + 1) (\(name)): \(why)")
                    }
                }
                value = .array(bounds)
            } else {
                switch ParameterCheck.checkOne(given, asParameter, catalog: catalog) {
                case .success(let v): value = v
                case .failure(let why): return fail("filter \(i + 1) (\(name)): \(why)")
                }
            }
            checked.append(["property": .string(name), "comparator": .string(comparator), "value": value])
        }
        var out: [String: JSON] = ["filters": .array(checked)]
        let mode = body["mode"]?.stringValue ?? "and"
        guard mode == "and" || mode == "or" else { return fail("mode is and or or, got \"\(mode.prefix(40))\"") }
        out["mode"] = .string(mode)
        let sorts = body["sort"] ?? .array([])
        guard let sortList = sorts.arrayValue, sortList.count <= maxSorts else { return fail("sort is an array of at most \(maxSorts)") }
        var checkedSorts: [JSON] = []
        for s in sortList {
            let name = s["property"]?.stringValue ?? ""
            guard declared.sortable.contains(name) else {
                return fail("cannot sort by \"\(name.prefix(80))\" (sortable: \(declared.sortable.joined(separator: ", ")))")
            }
            let order = s["order"]?.stringValue ?? "ascending"
            guard order == "ascending" || order == "descending" else { return fail("order is ascending or descending") }
            checkedSorts.append(["property": .string(name), "order": .string(order)])
        }
        out["sort"] = .array(checkedSorts)
        if let limit = body["limit"], !limit.isNull {
            guard let n = limit.intValue, n >= 1, n <= maxLimit else { return fail("limit is an integer within 1…\(maxLimit)") }
            out["limit"] = .int(n)
        }
        return .success(out)
    }
}
