import IntentBusMetadata

/// A predefined intent signature that several plugins can implement (App Intents'
/// `@AssistantIntent(schema: .system.search)`, docs/schemas.md). A new-style intent
/// declares `"schema": NAME` in its metadata; the host checks its parameters against the
/// schema at HELLO, and a client calls the schema by NAME like any intent: when several
/// plugins implement it, the usual plugin choice applies.
///
/// Pure value code.
struct AssistantSchema {
    /// One parameter the schema defines.
    struct Parameter {
        let name: String
        /// The metadata types an implementation may give it.
        let types: Set<NewStyleParameter.ValueType>
        /// Whether an implementation must declare it.
        let required: Bool
        /// Whether it is a list (`"multiple": true`), as INSendMessageIntent's recipients.
        var multiple = false
    }

    let name: String
    let summary: String
    let parameters: [Parameter]

    /// The schemas the host knows, by name.
    static let known: [String: AssistantSchema] = [
        "system.search": AssistantSchema(
            name: "system.search", summary: "search the app's content for a criteria string",
            parameters: [Parameter(name: "criteria", types: [.string], required: true)]),
        "messages.sendMessage": AssistantSchema(
            name: "messages.sendMessage", summary: "send a message, as INSendMessageIntent does",
            parameters: [Parameter(name: "recipients", types: [.string, .entity], required: true, multiple: true),
                         Parameter(name: "content", types: [.string], required: true),
                         Parameter(name: "speakableGroupName", types: [.string], required: false),
                         Parameter(name: "serviceName", types: [.string], required: false)]),
    ]

    /// What is wrong with `intent` as an implementation of this schema: a schema
    /// parameter missing or of another type, or a parameter of its own that a caller of
    /// the schema could not give (required, without a default). Empty when it matches.
    func problems(_ intent: NewStyleIntent) -> [String] {
        var problems: [String] = []
        for p in parameters {
            guard let declared = intent.parameters.first(where: { $0.name == p.name }) else {
                if p.required { problems.append("\(intent.identifier) implements \(name) but has no parameter \(p.name) (\(typeList(p)))") }
                continue
            }
            if !p.types.contains(declared.type) {
                problems.append("\(intent.identifier) implements \(name), whose \(p.name) is \(typeList(p)), but declares it as \(declared.type)")
            } else if p.multiple != declared.multiple {
                problems.append("\(intent.identifier) implements \(name), whose \(p.name) is \(p.multiple ? "a list" : "one value"), but declares it as \(declared.multiple ? "a list" : "one value")\(p.multiple ? " (\"multiple\": true; Swift [String], Python [str])" : "")")
            }
        }
        for own in intent.parameters where !parameters.contains(where: { $0.name == own.name }) {
            if !own.optional && own.defaultValue == nil {
                problems.append("\(intent.identifier) implements \(name) but requires \(own.name), which \(name) does not define (make it optional or give it a default)")
            }
        }
        return problems
    }

    private func typeList(_ p: Parameter) -> String { p.types.map(\.rawValue).sorted().joined(separator: " or ") }

    static var names: String { known.keys.sorted().joined(separator: ", ") }
}
