import Foundation
import IntentBusCore

/// Converts between Foundation's property-list objects and `JSON`, the value type the
/// rest of the project already uses: an `.intentdefinition` holds only dictionaries,
/// arrays, strings, booleans and numbers, which JSON has too.
package enum PropertyListJSON {
    /// Reads `data` (XML, binary or OpenStep property list; `Intents.strings` is the
    /// OpenStep form) with `PropertyListSerialization`.
    package static func read(_ data: Data, file: String) throws(DefinitionFormatError) -> JSON {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw DefinitionFormatError(FormatDiagnostic(file: file, keyPath: "", "not a property list: \(reason)"))
        }
        return try json(object, file: file, path: "")
    }

    private static func json(_ object: Any, file: String, path: String) throws(DefinitionFormatError) -> JSON {
        // Bool before NSNumber: on Linux a plist <true/> is a Swift Bool, an <integer> an NSNumber.
        if let b = object as? Bool, type(of: object) == Bool.self { return .bool(b) }
        if let s = object as? String { return .string(s) }
        if let n = object as? NSNumber {
            let d = n.doubleValue
            if d == d.rounded(), abs(d) < 9e15 { return .int(n.int64Value) }
            return .double(d)
        }
        if let a = object as? [Any] {
            var items: [JSON] = []
            for (index, item) in a.enumerated() { items.append(try json(item, file: file, path: "\(path)[\(index)]")) }
            return .array(items)
        }
        if let d = object as? [AnyHashable: Any] {
            var out: [String: JSON] = [:]
            for (key, value) in d {
                guard let key = key as? String else {
                    throw DefinitionFormatError(FormatDiagnostic(file: file, keyPath: path, "a dictionary key is not a string"))
                }
                out[key] = try json(value, file: file, path: path.isEmpty ? key : "\(path).\(key)")
            }
            return .object(out)
        }
        throw DefinitionFormatError(FormatDiagnostic(file: file, keyPath: path,
            "\(type(of: object)) values (data, dates) have no meaning in an intent definition"))
    }

    /// The property-list object for `value`, for `PropertyListSerialization` to write.
    /// `null` has no plist form; callers leave such keys out.
    package static func object(_ value: JSON) -> Any {
        switch value {
        case .null: return ""
        case .bool(let b): return b
        case .int(let i): return NSNumber(value: i)
        case .double(let d): return NSNumber(value: d)
        case .string(let s): return s
        case .array(let a): return a.map(object)
        case .object(let o): return o.mapValues(object)
        }
    }

    /// XML property list text, as Xcode writes it (sorted keys, tabs).
    package static func xml(_ value: JSON) -> Data {
        // Only dictionaries, arrays, strings, booleans and numbers go in: cannot fail.
        (try? PropertyListSerialization.data(fromPropertyList: object(value), format: .xml, options: 0)) ?? Data()
    }
}
