import IntentBusCore
import IntentBusPlugin
@_spi(Reflection) import Swift

/// Where an intent type keeps its `@Parameter`s: each one's wire name and its storage
/// offset in the struct, found once per type. Reading a new intent's parameters is then
/// a load per parameter, where `Mirror` looked up every field's type by its mangled name
/// on every request (about a tenth of a `perform()`'s CPU in the plugin, measured with
/// perf; docs/performance.md).
///
/// Uses the standard library's field walker (`_forEachField`, the SPI that `Mirror` is
/// built on). A type it cannot describe (a class, or a walk that fails) has no table,
/// and `IntentReflection` falls back to `Mirror`.
package struct IntentParameterTable: @unchecked Sendable {
    // @unchecked: immutable after init; the metatypes it holds are Sendable in practice.
    package struct Field {
        package let name: String
        package let offset: Int
        package let type: any AnyIntentParameter.Type
    }

    package let fields: [Field]

    private static let lock = Lock()
    nonisolated(unsafe) private static var tables: [ObjectIdentifier: IntentParameterTable?] = [:]

    /// The table of `I`, built on first use; nil when `I` must be read with `Mirror`.
    package static func of<I: AppIntent>(_ type: I.Type) -> IntentParameterTable? {
        let key = ObjectIdentifier(I.self)
        if let cached = lock.withLock({ tables[key] }) { return cached }
        let table = build(I.self)
        lock.withLock { tables[key] = .some(table) }
        return table
    }

    private static func build<I: AppIntent>(_ type: I.Type) -> IntentParameterTable? {
        guard !(I.self is AnyClass) else { return nil }
        var fields: [Field] = []
        let complete = _forEachField(of: I.self) { name, offset, fieldType, _ in
            if let parameterType = fieldType as? any AnyIntentParameter.Type {
                let label = String(cString: name)
                fields.append(Field(name: label.hasPrefix("_") ? String(label.dropFirst()) : label,
                                    offset: offset, type: parameterType))
            }
            return true
        }
        return complete ? IntentParameterTable(fields: fields) : nil
    }

    /// The parameters of `intent`, by wire name, in declaration order.
    package func parameters<I: AppIntent>(of intent: I) -> [(String, any AnyIntentParameter)] {
        withUnsafeBytes(of: intent) { raw in
            fields.map { field in (field.name, Self.load(field.type, from: raw.baseAddress! + field.offset)) }
        }
    }

    private static func load<P: AnyIntentParameter>(_ type: P.Type, from address: UnsafeRawPointer) -> any AnyIntentParameter {
        address.assumingMemoryBound(to: P.self).pointee
    }
}
