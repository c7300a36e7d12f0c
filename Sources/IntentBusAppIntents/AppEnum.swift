import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// An enum that intents take as a parameter (App Intents' `AppEnum`): string raw values
/// on the wire, and a display representation for each case.
///
/// ```swift
/// enum Mood: String, AppEnum {
///     case calm, wild
///     static let typeDisplayRepresentation: TypeDisplayRepresentation = "Stimmung"
///     static let caseDisplayRepresentations: [Mood: DisplayRepresentation] = [.calm: "Ruhig", .wild: "Wild"]
/// }
/// ```
public protocol AppEnum: IntentValue, CaseIterable, Hashable, RawRepresentable where RawValue == String {
    /// The name of the type for people ("Mood").
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    /// The enum's name on the wire; the Swift type name unless overridden.
    static var enumName: String { get }
    /// How each case is shown. A case missing here shows its raw value.
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

/// An enum type erased for the metadata.
public struct EnumDescriptor: Sendable {
    public let name: String
    public let typeDisplayName: String
    /// Raw value and display name of each case, in declaration order.
    public let cases: [(value: String, title: String)]

    /// Describes `type`.
    public init<E: AppEnum>(_ type: E.Type) {
        name = E.enumName
        typeDisplayName = E.typeDisplayRepresentation.name.sourceText
        cases = E.allCases.map { ($0.rawValue, E.caseDisplayRepresentations[$0]?.title.sourceText ?? $0.rawValue) }
    }

    /// The enum's declaration in the metadata.
    var declaration: NewStyleEnum {
        NewStyleEnum(name: name, typeDisplayName: typeDisplayName, cases: cases.map { .init(value: $0.value, title: $0.title) })
    }
}

extension AppEnum {
    public static var enumName: String { String(describing: Self.self) }
    public static var intentValueType: IntentValueType { .enumeration(EnumDescriptor(Self.self)) }

    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Self {
        if let raw = json.stringValue, let value = Self(rawValue: raw) { return value }
        let allowed = allCases.map(\.rawValue).joined(separator: ", ")
        throw BusError(.invalidParameters, "parameter \(parameter) is one of \(allowed); got \(json.displayText)",
                       details: ["parameter": .string(parameter)])
    }

    public var intentJSON: JSON { .string(rawValue) }
    public var intentOption: JSON {
        ["id": .string(rawValue), "title": .string(Self.caseDisplayRepresentations[self]?.title.resolved() ?? rawValue)]
    }
}
