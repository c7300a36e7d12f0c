import Foundation
import IntentBusCore
import IntentBusPlugin
import IntentBusMetadata

/// `@Parameter`, as App Intents spells it.
public typealias Parameter = IntentParameter

/// Declares a parameter of a new-style intent (App Intents' `IntentParameter`):
///
/// ```swift
/// @Parameter(title: "Dauer", default: 25, controlStyle: .field, inclusiveRange: (5, 180)) var minutes: Int
/// @Parameter(title: "Projekt", requestValueDialog: "Welches Projekt?") var project: ProjectEntity
/// @Parameter(title: "Notiz") var note: String?          // optional
/// ```
///
/// The parameter's wire name is the property's name. `$minutes` is the parameter itself,
/// for questions in the middle of `perform()`: `requestValue`, `requestConfirmation`,
/// `requestDisambiguation` and `needsValueError`. The host checks defaults and ranges at
/// HELLO and every value against them before `perform()` runs.
///
/// Threading: a parameter belongs to one intent instance, which the runtime binds and then
/// performs in one task; `lock` guards the value anyway, so that a stray read from
/// another task is safe.
@propertyWrapper
public final class IntentParameter<Value: IntentValue>: @unchecked Sendable {
    // @unchecked: `value`, `boundName` and `context` are only touched under `lock`.
    public let title: LocalizedStringResource
    public let parameterDescription: LocalizedStringResource?
    public let defaultValue: Value?
    public let requestValueDialog: IntentDialog?
    /// The inclusive range of a numeric parameter, as wire values.
    let range: (min: JSON, max: JSON)?
    /// `control_style` and `input_options` of the metadata, for clients that draw controls.
    let controlStyle: String?
    let inputOptions: JSON?
    private let lock = RequestLock()
    private var value: Value?
    private var boundName = ""
    private var context: PluginContext?

    // `@_specialize`: the methods a request runs (init, bindImmediately, the value's getter) are generic
    // over `Value`, and generic code asks the runtime for `Optional<Value>`'s metadata at
    // each use (about 325 instructions each, five per `perform()`); for the SDK's own scalar
    // types the generic entry checks `Value` once and runs code specialized for it
    // (docs/performance.md, "perfplug2"). Entities, enums and lists take the generic code.

    /// A parameter with a title (required: the host rejects metadata without one), an
    /// optional description, default and dialog for asking its value.
    @_specialize(exported: false, where Value == String)
    @_specialize(exported: false, where Value == Int)
    @_specialize(exported: false, where Value == Double)
    @_specialize(exported: false, where Value == Bool)
    @_specialize(exported: false, where Value == String?)
    @_specialize(exported: false, where Value == Int?)
    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
                requestValueDialog: IntentDialog? = nil) {
        self.title = title
        self.parameterDescription = description
        self.defaultValue = defaultValue
        self.requestValueDialog = requestValueDialog
        self.range = nil
        controlStyle = nil
        inputOptions = nil
    }

    @_specialize(exported: false, where Value == String)
    @_specialize(exported: false, where Value == Int)
    @_specialize(exported: false, where Value == Double)
    @_specialize(exported: false, where Value == Bool)
    @_specialize(exported: false, where Value == String?)
    @_specialize(exported: false, where Value == Int?)
    init(title: LocalizedStringResource, description: LocalizedStringResource?, default defaultValue: Value?, range: (JSON, JSON)?,
         requestValueDialog: IntentDialog?, controlStyle: ParameterControlStyle? = nil, inputOptions: String.IntentInputOptions? = nil) {
        self.title = title
        self.parameterDescription = description
        self.defaultValue = defaultValue
        self.requestValueDialog = requestValueDialog
        self.range = range
        // .automatic is what a client does anyway: not sent.
        self.controlStyle = controlStyle.flatMap { $0 == .automatic ? nil : "\($0)" }
        self.inputOptions = inputOptions?.json
    }

    /// The value: what was given, else the default, else nil for an optional. Reading a
    /// required parameter that has none is a programming error (the runtime always binds
    /// or asks before `perform`).
    public var wrappedValue: Value {
        @_specialize(exported: false, where Value == String)
        @_specialize(exported: false, where Value == Int)
        @_specialize(exported: false, where Value == Double)
        @_specialize(exported: false, where Value == Bool)
        @_specialize(exported: false, where Value == String?)
        @_specialize(exported: false, where Value == Int?)
        get {
            lock.withLock {
                if let value { return value }
                if let defaultValue { return defaultValue }
                if let absent = Value.absentValue { return absent }
                preconditionFailure("parameter \(boundName.isEmpty ? title.sourceText : boundName) has no value; perform() runs only after binding")
            }
        }
        set { lock.withLock { value = newValue } }
    }

    /// The parameter itself, for mid-perform questions (`$minutes.requestValue()`).
    public var projectedValue: IntentParameter<Value> { self }

    /// The wire name (the property name), once bound.
    public var name: String { lock.withLock { boundName } }

    /// The value set or given (not the default), as a client would send it; nil when there is none.
    package var currentArgument: JSON? {
        lock.withLock { value.map(\.intentArgument) }
    }

    // MARK: - Questions in the middle of perform()

    /// Asks the user for a value now (PROMPT kind `value`) and returns it. The parameter
    /// keeps its old value; assign the answer if it should change.
    public func requestValue(_ dialog: IntentDialog? = nil) async throws -> Value {
        let (name, context) = try bound()
        let answer = try await context.prompt(valuePrompt(name: name, dialog: dialog))
        return try await Value.intentValue(from: answer, parameter: name, context: context)
    }

    /// Asks the user to confirm `itemToConfirm` for this parameter (PROMPT kind `confirmation`).
    public func requestConfirmation(for itemToConfirm: Value, dialog: IntentDialog? = nil) async throws -> Bool {
        let (name, context) = try bound()
        let text = dialog?.text ?? "Use \(itemToConfirm.intentJSON.displayText) for \(title.resolved())?"
        let answer = try await context.prompt(["kind": PromptKind.confirmation.json, "parameter": .string(name),
                                               "value": itemToConfirm.intentJSON, "dialog": .string(text)])
        return answer.boolValue ?? false
    }

    /// Asks the user to pick one of `options` (PROMPT kind `disambiguation`).
    public func requestDisambiguation(among options: [Value], dialog: IntentDialog? = nil) async throws -> Value {
        let (name, context) = try bound()
        return try await IntentQuestions.disambiguate(parameter: name, among: options,
                                                      dialog: dialog?.text ?? "Which \(title.resolved().lowercased())?", context: context)
    }

    /// The error to throw from `perform()` when this parameter's value won't do: the
    /// runtime asks the user for a new value and runs `perform()` again from the start.
    public func needsValueError(_ dialog: IntentDialog? = nil) -> NeedsValueError {
        let name = lock.withLock { boundName }
        return NeedsValueError(parameter: name, prompt: valuePrompt(name: name, dialog: dialog).addingFields(["reason": "needs_value"]))
    }

    private func bound() throws -> (String, PluginContext) {
        let (name, context) = lock.withLock { (boundName, self.context) }
        guard let context else {
            throw BusError(.internalError, "parameter \(title.sourceText) is not bound to a request; ask questions only inside perform()")
        }
        return (name, context)
    }

    private func valuePrompt(name: String, dialog: IntentDialog?) -> JSON {
        // The fields both handler styles share (type, type_title, multiple, range, options).
        var prompt = Value.intentValueType.promptFields
        prompt["kind"] = PromptKind.value.json
        prompt["parameter"] = .string(name)
        prompt["dialog"] = .string((dialog ?? requestValueDialog)?.text ?? "What is the \(title.resolved().lowercased())?")
        if Value.isListValue { prompt["multiple"] = true }
        if let controlStyle { prompt["control_style"] = .string(controlStyle) }
        if let inputOptions { prompt["input_options"] = inputOptions }
        if let range {
            prompt["minimum"] = range.min
            prompt["maximum"] = range.max
            prompt["range"] = .string("\(range.min.displayText)…\(range.max.displayText)")
        }
        return .object(prompt)
    }
}

/// The runtime's view of a `Parameter` of any type.
package protocol AnyIntentParameter: AnyObject {
    /// The parameter's declaration in the metadata.
    func declaration(name: String) -> NewStyleParameter
    /// Entity and enum types the parameter uses.
    var valueType: IntentValueType { get }
    /// Sets the value from the request (or the default, or nil for an optional) before
    /// perform, when nothing in that is asynchronous (a given value of a type that converts
    /// at once); false, with only the name and context bound, when the value needs
    /// `bindAsynchronously` (an entity's query, a question).
    func bindImmediately(name: String, json: JSON?, context: PluginContext) throws -> Bool
    /// The rest of binding after `bindImmediately` said false: the async conversion of the
    /// given value, or asking for one.
    func bindAsynchronously(json: JSON?) async throws
    /// The value set or given, as a client would send it.
    var currentArgument: JSON? { get }
}

extension IntentParameter: AnyIntentParameter {
    package var valueType: IntentValueType { Value.intentValueType }

    package func declaration(name: String) -> NewStyleParameter {
        var entity: String?, enumName: String?
        switch Value.intentValueType {
        case .entity(let e): entity = e.name
        case .enumeration(let e): enumName = e.name
        default: break
        }
        return NewStyleParameter(name: name, title: title.sourceText, type: Value.intentValueType.declaredType,
                                 entity: entity, enumName: enumName, optional: Value.isOptionalValue,
                                 defaultValue: defaultValue?.intentJSON, min: range?.min, max: range?.max,
                                 requestValueDialog: requestValueDialog?.full.sourceText,
                                 description: parameterDescription?.sourceText, multiple: Value.isListValue,
                                 controlStyle: controlStyle, inputOptions: inputOptions)
    }

    @_specialize(exported: false, where Value == String)
    @_specialize(exported: false, where Value == Int)
    @_specialize(exported: false, where Value == Double)
    @_specialize(exported: false, where Value == Bool)
    @_specialize(exported: false, where Value == String?)
    @_specialize(exported: false, where Value == Int?)
    package func bindImmediately(name: String, json: JSON?, context: PluginContext) throws -> Bool {
        lock.withLock {
            boundName = name
            self.context = context
        }
        let resolved: Value?
        if let json, !json.isNull {
            guard let now = try Value.immediateIntentValue(from: json, parameter: name) else { return false }
            resolved = now
        } else if defaultValue != nil || Value.isOptionalValue {
            resolved = nil  // the getter falls back to the default or nil
        } else {
            return false  // to be asked: `bindAsynchronously`
        }
        lock.withLock { value = resolved }
        return true
    }

    package func bindAsynchronously(json: JSON?) async throws {
        let resolved: Value
        if let json, !json.isNull {
            resolved = try await Value.intentValue(from: json, parameter: name, context: lock.withLock { context })
        } else {
            // The host asks before perform; a plugin called without it asks here.
            resolved = try await requestValue()
        }
        lock.withLock { value = resolved }
    }
}

extension JSON {
    /// This object with `other`'s keys added (other wins).
    func addingFields(_ other: [String: JSON]) -> JSON {
        guard case .object(var o) = self else { return self }
        for (k, v) in other { o[k] = v }
        return .object(o)
    }
}
