import Foundation
import IntentBusCore

/// Parameter names the built-in standard intents used to have, still accepted from
/// clients so that nothing that worked breaks: a request that gives one is taken as the
/// current parameter, logged, and answered with a notice in the REPLY header
/// (`deprecations`; docs/definitions.md "Standard intents").
package enum DeprecatedParameters {
    /// Intent → old name → (new name, whether the new one is a list).
    static let aliases: [String: [String: (name: String, list: Bool)]] = [
        "INSendMessageIntent": ["recipient": ("recipients", true), "groupName": ("speakableGroupName", false)],
    ]

    /// Whether `apply` takes a parameter named `name` as another (a deprecated name of the
    /// intent's): for any other name it leaves a value as it is.
    package static func renames(_ name: String, in definition: IntentDefinition) -> Bool {
        definition.isStandard && aliases[definition.name]?[name] != nil
    }

    /// The parameters with every deprecated name replaced, and one notice per name.
    package static func apply(_ given: [String: JSON], _ definition: IntentDefinition) -> ([String: JSON], [String]) {
        guard definition.isStandard, let table = aliases[definition.name] else { return (given, []) }
        var out = given
        var notices: [String] = []
        for old in given.keys.sorted() {
            guard let (new, list) = table[old], let value = out.removeValue(forKey: old) else { continue }
            if let current = out[new], !current.isNull {
                notices.append("\(definition.name): parameter '\(old)' is deprecated and was ignored, because '\(new)' is given")
                continue
            }
            out[new] = list && value.arrayValue == nil && !value.isNull ? .array([value]) : value
            notices.append("\(definition.name): parameter '\(old)' is deprecated; it was taken as '\(new)'\(list ? " (a list)" : "")")
        }
        return (out, notices)
    }
}
