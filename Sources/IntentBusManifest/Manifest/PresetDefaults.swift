import Foundation

/// One `host.defaults` entry as written (read by `HostSectionReader`, checked by the
/// assembler once every file is read): `INSendMessageIntent: messenger`.
struct PresetDefaultEntry {
    let intent: Marked<String>
    let plugin: Marked<String>
}

extension HostSectionReader {
    /// Decodes `host.defaults`, a mapping of intent names to plugin ids. Only the shape is
    /// checked here; whether the plugins exist and claim the intents can only be known
    /// after the drop-ins are read (`checkPresetDefaults`).
    func decodePresetDefaults(_ node: YAMLNode?) -> [PresetDefaultEntry] {
        guard let node, !node.isNull else { return [] }
        return context.withPath(.key("defaults")) {
            guard let mapping = YAMLMapping(node, in: context) else { return [] }
            var entries: [PresetDefaultEntry] = []
            for pair in mapping.pairs {
                guard let intent = pair.key.scalar?.text else { continue }
                context.withPath(.key(intent)) {
                    if let problem = ManifestAssembler.intentNameProblem(intent) {
                        context.error(problem, at: pair.key.mark)
                        return
                    }
                    guard let plugin = context.decode(pair.value, as: Marked<String>.self) else { return }
                    if plugin.value.isEmpty {
                        context.error("needs a plugin id", at: pair.value.mark)
                        return
                    }
                    entries.append(PresetDefaultEntry(intent: Marked(intent, at: pair.key.mark), plugin: plugin))
                }
            }
            return entries
        }
    }
}

extension ManifestAssembler {
    /// Checks each preset default against every plugin of the manifest and its drop-ins:
    /// the plugin must exist and claim the intent. A preset for an intent that only one
    /// plugin claims is kept, with a warning, since a second claimant may come later.
    ///
    /// - Returns: intent → plugin id, for the entries without errors.
    func checkPresetDefaults() -> [String: String] {
        var result: [String: String] = [:]
        for entry in hostReader.presetDefaultEntries {
            let intent = entry.intent.value
            let id = entry.plugin.value
            context.withPath(.key("host")) {
                context.withPath(.key("defaults")) {
                    context.withPath(.key(intent)) {
                        guard let spec = plugins.first(where: { $0.id == id }) else {
                            // A plugin whose entry had errors is not in `plugins`, but its id is known.
                            if idMarks[id] != nil { return }
                            let known = plugins.map(\.id).sorted().joined(separator: ", ")
                            context.error("there is no plugin '\(id)' in the manifest or its drop-ins (plugins: \(known))",
                                          at: entry.plugin.mark)
                            return
                        }
                        // Disabled plugins are named but not counted: they route nothing.
                        let claimants = plugins.filter { $0.intentsSupported.contains(intent) && $0.enabled }.map(\.id)
                        guard spec.intentsSupported.contains(intent) else {
                            let who = claimants.isEmpty ? "no plugin claims it" : "claimed by \(claimants.joined(separator: ", "))"
                            context.error("plugin '\(id)' does not list \(intent) in IntentsSupported (\(who))",
                                          at: entry.plugin.mark)
                            return
                        }
                        if !spec.enabled {
                            context.warning("plugin '\(id)' is disabled (enabled: false); clients will be asked to choose instead",
                                            at: entry.plugin.mark)
                        } else if claimants.count == 1 {
                            context.warning("only '\(id)' claims \(intent), so this default changes nothing until another plugin claims it",
                                            at: entry.intent.mark)
                        }
                        result[intent] = id
                    }
                }
            }
        }
        return result
    }
}
