import Foundation
import IntentBusCore

/// `@Property`, as App Intents spells it.
public typealias Property = EntityProperty

/// A property of an entity that clients see (App Intents' `EntityProperty`):
/// `@Property(title: "Fällig") var dueDate: Date?`. Its value goes in the entity's wire
/// form under `properties`, by the property's name: `{"id", "title", "type",
/// "properties": {"dueDate": "2026-12-15"}}`.
@propertyWrapper
public final class EntityProperty<Value: IntentValue>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    public let title: LocalizedStringResource
    private let lock = Lock()
    private var value: Value?

    public init(wrappedValue: Value, title: LocalizedStringResource) {
        self.title = title
        value = wrappedValue
    }

    /// A property set later, in the entity's init (`self.author = author`).
    public init(title: LocalizedStringResource) {
        self.title = title
        value = Value.absentValue
    }

    /// The property itself: `\BookEntity.$author` names it in a property query.
    public var projectedValue: EntityProperty<Value> { self }

    /// The value. Reading one never set is a programming error.
    public var wrappedValue: Value {
        get {
            guard let value = lock.withLock({ value }) else { preconditionFailure("entity property \(title.sourceText) was never set") }
            return value
        }
        set { lock.withLock { value = newValue } }
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
