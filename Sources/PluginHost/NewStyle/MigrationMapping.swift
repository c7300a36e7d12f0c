import Foundation
import IntentBusCore
import IntentBusMetadata
import IntentBusDefinitions

/// Maps one parameter of a request for a migrated legacy intent onto the new-style
/// intent's parameter of the same name, **by type** as App Intents does: when the host
/// has the legacy intent's definition, the declared legacy type must correspond to the
/// new parameter's type, whatever the value happens to look like. Without a
/// definition (a plain-style legacy handler had none), only the value is checked.
///
/// Pure value code; the caller reports a failure in `unmapped_parameters`.
enum MigrationMapping {
    /// The value to pass to the new intent, or why it does not map (a phrase naming
    /// both sides).
    static func map(_ value: JSON, legacy: ParameterDefinition?, of definition: IntentDefinition?,
                    to p: NewStyleParameter, of intent: NewStyleIntent, catalog: NewStyleCatalog) -> Result<JSON, ParameterProblem> {
        var candidate = value
        if let legacy, let definition {
            let declared = "\(definition.name) declares \(legacy.name) as \(legacy.type)\(legacy.multiple ? " (multiple)" : "")"
            if legacy.multiple != p.multiple {
                return .failure(legacy.multiple ? "\(declared), but \(intent.identifier).\(p.name) takes one value"
                                                : "\(declared), but \(intent.identifier).\(p.name) takes a list")
            }
            guard correspond(legacy.type, p) else {
                return .failure("\(declared), but \(intent.identifier).\(p.name) is \(article(p.type)) \(p.type)")
            }
            // Normalise as the legacy flow would (an enum's display name becomes its
            // case name, "25" an integer) before checking against the new declaration.
            switch ParameterCoercion.coerce(value, legacy, in: definition) {
            case .success(let v): candidate = v
            case .failure(let problem): return .failure("not a valid \(legacy.type) for \(definition.name): \(problem.message)")
            }
            if case .object = legacy.type {
                candidate = candidate.arrayValue.map { .array($0.map(entityReference)) } ?? entityReference(candidate)
            }
        }
        return ParameterCheck.check(candidate, p, catalog: catalog)
            .mapError { "\(intent.identifier).\(p.name) (\(p.type)): \($0)" }
    }

    /// Whether a legacy definition type and a new-style parameter type are the same
    /// kind of value. Duration and CurrencyAmount have no new-style counterpart; a Date
    /// maps when its value is in the new-style date form (docs/migration.md).
    static func correspond(_ legacy: ParameterType, _ p: NewStyleParameter) -> Bool {
        switch (legacy, p.type) {
        case (.string, .string), (.integer, .integer), (.decimal, .decimal), (.boolean, .boolean),
             (.enumeration, .enumeration), (.object, .entity), (.date, .date):
            true
        default:
            false
        }
    }

    /// A legacy custom object (`identifier`, `displayString`) as an entity reference
    /// (`id`, else `text`); strings pass unchanged.
    private static func entityReference(_ value: JSON) -> JSON {
        guard let o = value.objectValue else { return value }
        if let id = o["identifier"]?.stringValue, !id.isEmpty { return ["id": .string(id)] }
        if let text = o["displayString"]?.stringValue, !text.isEmpty { return ["text": .string(text)] }
        return value
    }

    private static func article(_ type: NewStyleParameter.ValueType) -> String {
        [.integer, .enumeration, .entity].contains(type) ? "an" : "a"
    }
}
