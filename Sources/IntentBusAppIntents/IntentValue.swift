import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// The wire type of a new-style parameter, as declared in HELLO metadata
/// (docs/protocol.md "New-style metadata").
public enum IntentValueType: Sendable {
    /// A whole number (`Int`); JSON integer on the wire.
    case integer
    /// A decimal number (`Double`); JSON number on the wire.
    case decimal
    /// `Bool`; JSON `true`/`false`.
    case boolean
    /// `String`.
    case string
    /// A `Date`: an ISO 8601 string on the wire (`IntentDateText`).
    case date
    /// A `URL`: an absolute URL string on the wire (`IntentURLText`).
    case url
    /// An app entity, given by id or by text to match; the descriptor carries its query.
    case entity(EntityDescriptor)
    /// An app enum, given by its raw value.
    case enumeration(EnumDescriptor)

    /// The declared type, metadata `type` (the descriptor goes in `entity` or `enum`).
    public var declaredType: NewStyleParameter.ValueType {
        switch self {
        case .integer: .integer
        case .decimal: .decimal
        case .boolean: .boolean
        case .string: .string
        case .date: .date
        case .url: .url
        case .entity: .entity
        case .enumeration: .enumeration
        }
    }

    /// The `type` field of a parameter in the metadata.
    public var wireName: String { declaredType.rawValue }
}

/// A Swift type that can be the value of a new-style `@Parameter` or a returned value.
///
/// `Int`, `Double`, `Bool`, `String`, `Date`, `URL`, `Optional` of those, `AppEntity` and `AppEnum`
/// types conform. The host has already checked the wire value against the declaration
/// (type, range) before the plugin sees it, so conversions here only fail when a
/// plugin is called without the host (or with an answer of the wrong type).
public protocol IntentValue: Sendable {
    /// The declared wire type.
    static var intentValueType: IntentValueType { get }
    /// True for `Optional`: the parameter may stay without a value.
    static var isOptionalValue: Bool { get }
    /// True for an array (`[ProjectEntity]`): the parameter takes a list (metadata
    /// `"multiple": true`), and `intentValueType` is its items' type.
    static var isListValue: Bool { get }
    /// The value a parameter has when it is optional and nothing was given (`nil`).
    static var absentValue: Self? { get }
    /// Turns a wire value into the Swift value. Entities run their query here (and may
    /// ask the user to disambiguate through `context`).
    static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Self
    /// The same conversion when it needs nothing asynchronous (no query to run, nothing to
    /// ask): the value, or the error `intentValue(from:parameter:context:)` would throw;
    /// nil when only that one can tell (the default). The SDK's scalar types, `Date`,
    /// `URL` and their optionals answer here, so binding them costs no async call.
    static func immediateIntentValue(from json: JSON, parameter: String) throws -> Self?
    /// The wire form of the value (entities: id, title, subtitle, type).
    var intentJSON: JSON { get }
    /// The value as a disambiguation option: `{"id": …, "title": …}`.
    var intentOption: JSON { get }
    /// The value as a client sends it in a request's parameters (an entity by its id):
    /// what an opened intent and a donation carry.
    var intentArgument: JSON { get }
}

extension IntentValue {
    public static var isOptionalValue: Bool { false }
    public static var isListValue: Bool { false }
    public static var absentValue: Self? { nil }
    public static func immediateIntentValue(from json: JSON, parameter: String) throws -> Self? { nil }
    public var intentOption: JSON { ["id": .string(intentJSON.displayText), "title": .string(intentJSON.displayText)] }
    public var intentArgument: JSON { intentJSON }
}

/// The error a conversion throws for a wire value of the wrong type.
func wrongType(_ json: JSON, parameter: String, expected: String) -> BusError {
    BusError(.invalidParameters, "parameter \(parameter) expects \(expected), got \(json.typeName)",
             details: ["parameter": .string(parameter), "expected": .string(expected)])
}

/// A numeric parameter type, which may declare an inclusive range.
public protocol IntentNumber: IntentValue, Comparable {}

extension Int: IntentNumber {
    public static var intentValueType: IntentValueType { .integer }
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Int {
        try immediateIntentValue(from: json, parameter: parameter)!
    }
    public static func immediateIntentValue(from json: JSON, parameter: String) throws -> Int? {
        if let i = json.intValue { return Int(i) }
        if let s = json.stringValue, let i = Int(s) { return i }
        throw wrongType(json, parameter: parameter, expected: "an integer")
    }
    public var intentJSON: JSON { .int(Int64(self)) }
}

extension Double: IntentNumber {
    public static var intentValueType: IntentValueType { .decimal }
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Double {
        try immediateIntentValue(from: json, parameter: parameter)!
    }
    public static func immediateIntentValue(from json: JSON, parameter: String) throws -> Double? {
        if let d = json.doubleValue { return d }
        if let s = json.stringValue, let d = Double(s) { return d }
        throw wrongType(json, parameter: parameter, expected: "a decimal number")
    }
    public var intentJSON: JSON { .double(self) }
}

extension Bool: IntentValue {
    public static var intentValueType: IntentValueType { .boolean }
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Bool {
        try immediateIntentValue(from: json, parameter: parameter)!
    }
    public static func immediateIntentValue(from json: JSON, parameter: String) throws -> Bool? {
        if let b = json.boolValue { return b }
        throw wrongType(json, parameter: parameter, expected: "a boolean")
    }
    public var intentJSON: JSON { .bool(self) }
}

extension String: IntentValue {
    public static var intentValueType: IntentValueType { .string }
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> String {
        try immediateIntentValue(from: json, parameter: parameter)!
    }
    public static func immediateIntentValue(from json: JSON, parameter: String) throws -> String? {
        switch json {
        case .string(let s): return s
        case .int, .double, .bool: return json.displayText
        default: throw wrongType(json, parameter: parameter, expected: "a string")
        }
    }
    public var intentJSON: JSON { .string(self) }
}

extension Optional: IntentValue where Wrapped: IntentValue {
    public static var intentValueType: IntentValueType { Wrapped.intentValueType }
    public static var isOptionalValue: Bool { true }
    public static var isListValue: Bool { Wrapped.isListValue }
    public static var absentValue: Optional<Wrapped>? { .some(.none) }
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Wrapped? {
        if json.isNull { return nil }
        return try await Wrapped.intentValue(from: json, parameter: parameter, context: context)
    }
    public static func immediateIntentValue(from json: JSON, parameter: String) throws -> Wrapped?? {
        if json.isNull { return .some(nil) }
        return try Wrapped.immediateIntentValue(from: json, parameter: parameter).map { .some($0) }
    }
    public var intentJSON: JSON { self?.intentJSON ?? .null }
    public var intentOption: JSON { self?.intentOption ?? ["id": "", "title": ""] }
    public var intentArgument: JSON { self?.intentArgument ?? .null }
}
