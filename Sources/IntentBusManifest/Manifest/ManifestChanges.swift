import Foundation

/// What differs between two manifests, key by key, for a hot reload
/// (docs/lifecycle.md, "Hot reload"). Positions (`mark`, `intentMarks`) are not
/// compared: moving an entry within its file changes nothing.
extension PluginSpec {
    /// The manifest keys whose values differ from `old`'s.
    package func changedKeys(from old: PluginSpec) -> [String] {
        var keys: [String] = []
        func check(_ key: String, _ same: Bool) { if !same { keys.append(key) } }
        check("name", name == old.name)
        check("exec", exec == old.exec)
        check("IntentsSupported", intentsSupported == old.intentsSupported)
        check("IntentsRestrictedWhileLocked", intentsRestrictedWhileLocked == old.intentsRestrictedWhileLocked)
        check("env", environment == old.environment)
        check("inherit_env", inheritedEnvironment == old.inheritedEnvironment)
        check("timeout", timeout == old.timeout)
        check("priority", priority == old.priority)
        check("definitions", definitions == old.definitions)
        check("max_in_flight", maxInFlight == old.maxInFlight)
        check("enabled", enabled == old.enabled)
        check("remote", remoteKey == old.remoteKey)
        check("mdp_worker", mdpWorker == old.mdpWorker && mdpWorkerKey == old.mdpWorkerKey)
        check("lifecycle", lifecycle == old.lifecycle)
        check("synonyms", synonyms == old.synonyms)
        check("instances", instances == old.instances)
        check("idempotent", idempotentIntents == old.idempotentIntents)
        check("memory_limit", guards.memoryLimit == old.guards.memoryLimit)
        check("cpu_limit", guards.cpuLimit == old.guards.cpuLimit)
        check("sha256", guards.sha256 == old.guards.sha256)
        return keys
    }

    /// Keys whose change needs a new process: the plugin is restarted. Other keys
    /// (timeout, priority, max_in_flight, heartbeat, …) apply to the running one.
    /// `definitions` is one: the host reads the files again at each reload, and the
    /// plugin's HELLO is checked against its new definitions.
    package static let restartKeys: Set<String> = ["exec", "IntentsSupported", "env", "inherit_env", "enabled", "cpu_limit", "sha256", "definitions"]

    /// Keys a running host can't take: the CURVE handler's key table and the Majordomo
    /// broker's services are built at start.
    package static let hostRestartKeys: Set<String> = ["remote", "mdp_worker"]
}

extension HostSettings {
    /// The `host:` keys whose values differ from `old`'s. None of them can change at run
    /// time: a reload reports them as needing a restart of the host.
    package func changedKeys(from old: HostSettings) -> [String] {
        var keys: [String] = []
        func check(_ key: String, _ same: Bool) { if !same { keys.append("host.\(key)") } }
        check("frontend", frontend == old.frontend)
        check("backend", backend == old.backend)
        check("state_dir", stateDirectory == old.stateDirectory)
        check("state", state == old.state)
        check("conversation_timeout", conversationTimeout == old.conversationTimeout)
        check("client_credential", clientCredential == old.clientCredential)
        check("defaults", presetDefaults == old.presetDefaults)
        check("choice_context", choiceContext == old.choiceContext)
        check("metrics_file", metricsFile == old.metricsFile)
        check("metrics_interval", metricsInterval == old.metricsInterval)
        check("insecure", insecure == old.insecure)
        check("clients", clients == old.clients)
        check("drain_timeout", drainTimeout == old.drainTimeout)
        check("limits", limits == old.limits)
        return keys
    }
}
