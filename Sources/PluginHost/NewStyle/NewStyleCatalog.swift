import Foundation
import IntentBusCore
import IntentBusMetadata

/// A plugin's new-style declarations as the host looks them up: HELLO
/// `metadata.new_style` decoded and checked by the shared metadata model
/// (IntentBusMetadata, `NewStyleSection.decode`), by name.
struct NewStyleCatalog {
    var intents: [String: NewStyleIntent] = [:]
    var entities: [String: NewStyleEntity] = [:]
    var enums: [String: NewStyleEnum] = [:]
    /// Legacy intent name → the identifier of the new-style intent that replaces it.
    var migrations: [String: String] = [:]
    /// Assistant schema name → the identifier of the intent implementing it (AssistantSchema).
    var schemas: [String: String] = [:]

    /// The intent a request for `name` runs, and the legacy name when it is a migration.
    func lookup(_ name: String) -> (NewStyleIntent, migratedFrom: String?)? {
        if let decl = intents[name] { return (decl, nil) }
        if let id = migrations[name], let decl = intents[id] { return (decl, name) }
        if let id = schemas[name], let decl = intents[id] { return (decl, nil) }
        return nil
    }

    /// Parses and checks a HELLO body. Returns the catalog and every problem found, each
    /// a sentence naming the intent, parameter or type it is about.
    static func parse(hello: JSON) -> (NewStyleCatalog, [String]) {
        let decoded = NewStyleSection.decode(hello: hello, checks: HostMetadataChecks())
        var catalog = NewStyleCatalog(migrations: decoded.migrations, schemas: decoded.schemas)
        for intent in decoded.section.intents { catalog.intents[intent.identifier] = intent }
        for entity in decoded.section.entities { catalog.entities[entity.name] = entity }
        for declared in decoded.section.enums { catalog.enums[declared.name] = declared }
        return (catalog, decoded.problems)
    }
}

/// The metadata checks, for `intentbus validate` (the host applies the same at HELLO).
package enum NewStyleMetadata {
    /// Every problem in a HELLO body's new-style declarations; empty when it is valid.
    package static func problems(inHello hello: JSON) -> [String] {
        NewStyleCatalog.parse(hello: hello).1
    }
}
