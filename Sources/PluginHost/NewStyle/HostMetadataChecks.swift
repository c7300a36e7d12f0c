import IntentBusCore
import IntentBusMetadata

/// What the host adds to the metadata model's checks at HELLO: a default is checked as
/// a request's value would be (ParameterCheck), and a `schema` against the assistant
/// schemas the host knows (AssistantSchema).
struct HostMetadataChecks: NewStyleHostChecks {
    func checkDefault(_ value: JSON, of parameter: NewStyleParameter,
                      enums: [String: NewStyleEnum]) -> Result<JSON, any Error> {
        ParameterCheck.check(value, parameter, catalog: NewStyleCatalog(enums: enums), checkRange: false)
            .mapError { $0 }
    }

    var schemaNames: String { AssistantSchema.names }

    func schemaProblems(_ name: String, of intent: NewStyleIntent) -> [String]? {
        AssistantSchema.known[name]?.problems(intent)
    }
}
