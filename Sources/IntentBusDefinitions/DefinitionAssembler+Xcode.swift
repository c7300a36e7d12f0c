import Foundation
import IntentBusManifest
import IntentDefinitionFormat

/// What the YAML form gained from Xcode's: parameter combinations.
extension DefinitionAssembler {
    /// `parameterCombinations:`: each names parameters of the intent (`a,b`) and may
    /// have a title and subtitle whose placeholders name them.
    func decodeCombinations(_ nodes: [YAMLNode], parameterNames: [String]) -> [ParameterCombination] {
        var out: [ParameterCombination] = []
        for (index, node) in nodes.enumerated() {
            context.withPath(.index(index)) {
                context.mapping(node) { m -> Void in
                    guard let names = m.require("parameters", as: Marked<String>.self) else { return }
                    let list = names.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    for name in list where !parameterNames.contains(name) {
                        context.withPath(.key("parameters")) {
                            context.error("'\(name)' names no parameter of the intent (parameters: \(parameterNames.joined(separator: ", ")))", at: names.mark)
                        }
                    }
                    let allowed = Set(parameterNames)
                    let title = formatString(m, "title", allowed: allowed, what: "a combination title")
                    let subtitle = formatString(m, "subtitle", allowed: allowed, what: "a combination subtitle")
                    let background = m.optional("supportsBackgroundExecution", as: Bool.self, default: false)
                    m.allow("titleID", "subtitleID", "primary", "linked", "updatesLinked", "managed")
                    out.append(ParameterCombination(parameters: list, title: title, subtitle: subtitle,
                                                    supportsBackgroundExecution: background))
                }
            }
        }
        return out
    }
}
