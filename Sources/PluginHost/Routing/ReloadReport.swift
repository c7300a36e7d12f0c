import Foundation
import IntentBusCore

/// What a hot reload did (RouterCore+Reload.swift): the answer to `ib.reload`, and a
/// line in the log.
struct ReloadReport {
    /// What asked for it: `SIGHUP`, `ib.reload`, `plugins.d/20-x.yaml`, ….
    let trigger: String
    /// False when the new manifest was rejected (see `errors`): nothing changed.
    var applied = false
    /// `file:line:column: error: message`, one per problem, when rejected.
    var errors: [String] = []
    var warnings: [String] = []
    /// Plugin ids: new entries (started now when eager).
    var added: [String] = []
    /// Entries gone: stopped, their requests ended.
    var removed: [String] = []
    /// Entries whose change needs a new process (exec, env, IntentsSupported, enabled).
    var restarted: [String] = []
    /// Entries changed in keys the running process takes as they are (timeout, …).
    var updated: [String] = []
    /// Entries the reload left as they were (a list, like the others).
    var unchanged: [String] = []
    /// Changes the running host can't make: `host.frontend`, `plugins[x].definitions`, ….
    var needsRestart: [String] = []

    init(trigger: String) { self.trigger = trigger }

    var json: JSON {
        func list(_ items: [String]) -> JSON { .array(items.map { .string($0) }) }
        return [
            "applied": .bool(applied), "trigger": .string(trigger), "errors": list(errors), "warnings": list(warnings),
            "added": list(added), "removed": list(removed), "restarted": list(restarted), "updated": list(updated),
            "unchanged": list(unchanged), "needs_restart": list(needsRestart),
        ]
    }

    /// One line for the log.
    var summary: String {
        func part(_ name: String, _ ids: [String]) -> String? { ids.isEmpty ? nil : "\(name) \(ids.joined(separator: ", "))" }
        let parts = [part("added", added), part("removed", removed), part("restarted", restarted),
                     part("updated", updated), part("needs a host restart:", needsRestart)].compactMap { $0 }
        return (parts.isEmpty ? "nothing changed" : parts.joined(separator: "; ")) + " (\(unchanged.count) unchanged)"
    }
}
