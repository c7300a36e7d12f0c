import Foundation
import IntentBusCore

/// `@Property`, as App Intents spells it.
public typealias Property = EntityProperty

/// A property of an entity that clients see (App Intents' `EntityProperty`):
/// `@Property(title: "Fällig") var dueDate: Date?`. Its value goes in the entity's wire
/// form under `properties`, by the property's name: `{"id", "title", "type",
/// "properties": {"dueDate": "2026-12-15"}}`.
@propertyWrapper
public struct EntityProperty<Value: IntentValue>: Sendable {
    public let title: LocalizedStringResource
    public var wrappedValue: Value

    public init(wrappedValue: Value, title: LocalizedStringResource) {
        self.wrappedValue = wrappedValue
        self.title = title
    }

    /// A property without a value yet, for optional values.
    public init<W: IntentValue>(title: LocalizedStringResource) where Value == W? {
        self.init(wrappedValue: nil, title: title)
    }
}

/// Reads an entity's `@Property` values.
protocol AnyEntityProperty { var argument: JSON { get } }
extension EntityProperty: AnyEntityProperty { var argument: JSON { wrappedValue.intentJSON } }

enum EntityPropertyReflection {
    /// The entity's `@Property` values by name; empty for an entity without any.
    static func values(of entity: some AppEntity) -> [String: JSON] {
        var out: [String: JSON] = [:]
        for child in Mirror(reflecting: entity).children {
            guard let label = child.label, let property = child.value as? any AnyEntityProperty else { continue }
            out[label.hasPrefix("_") ? String(label.dropFirst()) : label] = property.argument
        }
        return out
    }
}
