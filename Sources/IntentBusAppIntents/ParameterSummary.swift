import IntentBusCore
import IntentBusMetadata

/// An intent's parameter summary (App Intents' `ParameterSummary`): the sentence a
/// client shows for the intent with its values in place.
///
/// ```swift
/// static var parameterSummary: some ParameterSummary {
///     When(\.$project, .hasAnyValue) {
///         Summary("Fokus-Session von \(\.$minutes) Minuten für \(\.$project)") { \.$note }
///     } otherwise: {
///         Summary("Fokus-Session von \(\.$minutes) Minuten starten")
///     }
/// }
/// ```
///
/// It goes in HELLO as `summary`, with `${minutes}` for each parameter (Apple's string
/// catalog key); the host checks that every slot names a parameter, fills it with the
/// request's values in the questions it asks (PROMPT `summary`), and `intentbus describe`
/// shows it. The host has no editor, so there is nothing to tap in it.
public protocol ParameterSummary: Sendable {
    /// The declaration sent in HELLO; nil for none.
    var summaryDeclaration: NewStyleSummary? { get }
}

/// The summary of an intent that declares none.
public struct NoParameterSummary: ParameterSummary {
    public init() {}
    public var summaryDeclaration: NewStyleSummary? { nil }
}

/// `Summary("…")`: a sentence with `\(\.$parameter)` slots, optionally with the
/// parameters listed beside it (`Summary("…") { \.$note }`).
public struct IntentParameterSummary<Intent: AppIntent>: ParameterSummary {
    let text: String
    let listed: [String]

    public init(_ summary: ParameterSummaryString<Intent>) {
        text = summary.text
        listed = []
    }

    public init(_ summary: ParameterSummaryString<Intent>, @ParameterSummaryParameters<Intent> _ parameters: () -> [String]) {
        text = summary.text
        listed = parameters()
    }

    public var summaryDeclaration: NewStyleSummary? { .sentence(text, parameters: listed) }
}

/// `When(\.$p, .equalTo, value) { … } otherwise: { … }` and `When(\.$p, .hasAnyValue) { … }`:
/// a summary chosen by a parameter's value. Without `otherwise` and when the condition
/// does not hold, there is no summary.
public struct ParameterSummaryWhen<Intent: AppIntent>: ParameterSummary {
    let condition: NewStyleSummary.Condition
    let then: NewStyleSummary?
    let otherwise: NewStyleSummary?

    public init<V: IntentValue>(_ parameter: KeyPath<Intent, IntentParameter<V>>, _ comparison: EquatableComparisonOperator, _ value: V,
                                _ then: () -> some ParameterSummary, otherwise: () -> some ParameterSummary) {
        self.init(parameter, comparison.name, value.intentJSON, then().summaryDeclaration, otherwise().summaryDeclaration)
    }

    public init<V: IntentValue>(_ parameter: KeyPath<Intent, IntentParameter<V>>, _ comparison: EquatableComparisonOperator, _ value: V,
                                _ then: () -> some ParameterSummary) {
        self.init(parameter, comparison.name, value.intentJSON, then().summaryDeclaration, nil)
    }

    public init<V: IntentValue>(_ parameter: KeyPath<Intent, IntentParameter<V>>, _ comparison: HasValueComparisonOperator,
                                _ then: () -> some ParameterSummary, otherwise: () -> some ParameterSummary) {
        self.init(parameter, comparison.name, nil, then().summaryDeclaration, otherwise().summaryDeclaration)
    }

    public init<V: IntentValue>(_ parameter: KeyPath<Intent, IntentParameter<V>>, _ comparison: HasValueComparisonOperator,
                                _ then: () -> some ParameterSummary) {
        self.init(parameter, comparison.name, nil, then().summaryDeclaration, nil)
    }

    private init<V>(_ parameter: KeyPath<Intent, IntentParameter<V>>, _ comparison: NewStyleSummary.Condition.Comparison,
                    _ value: JSON?, _ then: NewStyleSummary?, _ otherwise: NewStyleSummary?) {
        // An entity compares by its id, as requests carry it.
        let compared = value.map { $0["id"] ?? $0 }
        condition = .init(parameter: IntentReflection.parameterName(parameter) ?? "?", comparison: comparison, value: compared)
        self.then = then
        self.otherwise = otherwise
    }

    public var summaryDeclaration: NewStyleSummary? {
        guard let then else { return otherwise }
        return .when(condition, then: then, otherwise: otherwise)
    }
}

/// `.equalTo`, `.notEqualTo` in a `When` (App Intents' `EquatableComparisonOperator`).
public enum EquatableComparisonOperator: Sendable {
    case equalTo, notEqualTo
    var name: NewStyleSummary.Condition.Comparison { self == .equalTo ? .equalTo : .notEqualTo }
}

/// `.hasAnyValue`, `.hasNoValue` in a `When` (App Intents' `HasValueComparisonOperator`).
public enum HasValueComparisonOperator: Sendable {
    case hasAnyValue, hasNoValue
    var name: NewStyleSummary.Condition.Comparison { self == .hasAnyValue ? .hasAnyValue : .hasNoValue }
}

/// The sentence of a `Summary`: a literal whose `\(\.$parameter)` interpolations become
/// `${parameter}` slots.
public struct ParameterSummaryString<Intent: AppIntent>: Sendable, ExpressibleByStringInterpolation {
    let text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + 12 * interpolationCount) }
        public mutating func appendLiteral(_ literal: String) { text += literal }
        /// A parameter's slot: `${name}`.
        public mutating func appendInterpolation<V>(_ parameter: KeyPath<Intent, IntentParameter<V>>) {
            // "?" names no parameter: the host's check reports it rather than dropping it.
            text += "${\(IntentReflection.parameterName(parameter) ?? "?")}"
        }
    }
}

/// The parameters listed beside a summary's sentence: `{ \.$note; \.$project }`.
@resultBuilder
public enum ParameterSummaryParameters<Intent: AppIntent> {
    public static func buildExpression<V>(_ parameter: KeyPath<Intent, IntentParameter<V>>) -> [String] {
        [IntentReflection.parameterName(parameter) ?? "?"]
    }
    public static func buildBlock(_ parts: [String]...) -> [String] { parts.flatMap { $0 } }
}

extension AppIntent {
    /// `Summary("…")` inside `parameterSummary`.
    public typealias Summary = IntentParameterSummary<Self>
    /// `When(…) { … } otherwise: { … }` inside `parameterSummary`.
    public typealias When = ParameterSummaryWhen<Self>
}

extension AppIntent where SummaryContent == NoParameterSummary {
    public static var parameterSummary: NoParameterSummary { NoParameterSummary() }
}
