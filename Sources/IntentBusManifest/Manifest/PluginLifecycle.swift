/// How the host runs one plugin's process (docs/lifecycle.md): when it starts, how its
/// liveness is checked, and when the host stops restarting it for a while.
package struct PluginLifecycle: Sendable, Equatable {
    package enum Activation: String, Sendable {
        /// Started with the host (the default).
        case eager
        /// Started by the first request for one of its intents; stopped again after
        /// `idleTimeout` without requests.
        case onDemand = "on-demand"
    }

    package var activation: Activation = .eager
    /// On-demand plugins: stop after this long with nothing in flight (nil: never).
    package var idleTimeout: Duration?
    /// The host sends HEARTBEAT every half of this; a plugin silent for 1.5 × this is
    /// hung. So a frozen plugin is detected within twice this interval.
    package var heartbeat: Duration = .seconds(1)
    /// The circuit breaker: this many crashes within `crashWindow` open it …
    package var crashLimit: Int = 5
    package var crashWindow: Duration = .seconds(60)
    /// … and after this long one start is tried (half-open); a handshake closes it.
    package var breakerCooldown: Duration = .seconds(30)

    package init() {}
}

extension ManifestAssembler {
    /// The accepted ranges (docs/manifest.md).
    static let heartbeatRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(60)
    static let lifecycleDurationRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(86_400)

    /// Reads a plugin's lifecycle keys: `activation`, `idle_timeout`, `heartbeat`,
    /// `crash_limit`, `crash_window`, `breaker_cooldown`.
    func decodeLifecycle(_ m: YAMLMapping) -> PluginLifecycle {
        var lifecycle = PluginLifecycle()
        if let activation = m.optional("activation", as: Marked<String>.self) {
            if let value = PluginLifecycle.Activation(rawValue: activation.value) {
                lifecycle.activation = value
            } else {
                error("must be eager or on-demand, got '\(activation.value)'", key: "activation", at: activation.mark)
            }
        }
        func duration(_ key: String, _ range: ClosedRange<Duration>) -> Duration? {
            guard let value = m.optional(key, as: Marked<Duration>.self) else { return nil }
            guard range.contains(value.value) else {
                error("must be from \(range.lowerBound.humanText) to \(range.upperBound.humanText), got \(value.value.humanText)",
                      key: key, at: value.mark)
                return nil
            }
            return value.value
        }
        lifecycle.idleTimeout = duration("idle_timeout", Self.lifecycleDurationRange)
        if lifecycle.idleTimeout != nil, lifecycle.activation != .onDemand, let mark = m.keyMark(for: "idle_timeout") {
            error("only an on-demand plugin is stopped when idle (set activation: on-demand)", key: "idle_timeout", at: mark)
        }
        if let heartbeat = duration("heartbeat", Self.heartbeatRange) { lifecycle.heartbeat = heartbeat }
        if let limit = m.optional("crash_limit", as: Marked<Int>.self) {
            if (1...1_000).contains(limit.value) { lifecycle.crashLimit = limit.value } else {
                error("must be an integer from 1 to 1000, got \(limit.value)", key: "crash_limit", at: limit.mark)
            }
        }
        if let window = duration("crash_window", Self.lifecycleDurationRange) { lifecycle.crashWindow = window }
        if let cooldown = duration("breaker_cooldown", Self.lifecycleDurationRange) { lifecycle.breakerCooldown = cooldown }
        return lifecycle
    }
}
