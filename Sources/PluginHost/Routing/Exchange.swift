import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// One client request the host holds until its final answer.
///
/// Owned by the router thread.
final class Exchange {
    /// Where the request is. Every path leaves through `RouterCore.complete`, which sends
    /// the one final answer.
    enum Stage {
        /// The client is asked which plugin to use (a `plugin_choice` PROMPT is open);
        /// `pluginIndex` means nothing yet. Header and body wait here.
        case choosing(PluginChoiceStage, header: Frame, body: Frame)
        /// The plugin is chosen but has not seen the request: it is starting, or a
        /// remembered choice is being stored first. Header and body wait here.
        case pending(header: Frame, body: Frame)
        /// The plugin has the request.
        case delivered
        /// The plugin (or its flow) asked the client something; a PROMPT is open.
        case prompting
    }

    /// The host's own id for this request (see `ExchangeTable`).
    let hostId: UInt64
    /// `hostId` as it travels on the plugin side: the request id frame of every message
    /// between host and plugin.
    let wireId: String
    let client: RoutingEnvelope
    /// The client's entry in the router's `ClientTable` (its open requests).
    let clientState: ClientState
    let clientRequestId: String
    let intent: String
    /// The plugin the request was routed to.
    var pluginIndex: Int
    /// The timeout for each wait on the plugin.
    var timeout: UInt64
    /// Bumped whenever the deadline changes, so that stale timers do nothing.
    var generation: UInt64 = 0
    var stage: Stage
    /// The client's request header (parsed), or empty.
    var options: JSON
    /// A multi-phase flow (legacy, new style), or nil for the plain path.
    var flow: (any ExchangeFlow)?
    /// The intents whose results opened this one (`{"intent","plugin"}`, oldest first;
    /// Results/RouterCore+LeadOn.swift); empty for a request the client named itself.
    var openedBy: [JSON] = []
    /// A copy of the request as delivered, kept for an idempotent intent so that it can be
    /// sent again once if its plugin process dies (Pipeline/RequestPipeline+Redelivery.swift).
    var replay: Replay?
    /// When the host took the request (monotonic ns), for the latency in `HostStats`.
    let startedAt: UInt64
    /// Its header and body bytes, counted in the client's and the host's in-flight bytes
    /// until it ends (`host.limits.max_in_flight_bytes…`); a promoted lane request
    /// brings the bytes the lane counted for it (under 1 KiB).
    var requestBytes = 0

    init(hostId: UInt64, client: RoutingEnvelope, clientState: ClientState, clientRequestId: String, intent: String,
         pluginIndex: Int, timeout: UInt64, options: JSON, stage: Stage, startedAt: UInt64 = MonotonicClock.now()) {
        self.startedAt = startedAt
        self.hostId = hostId
        wireId = ExchangeTable.wireId(hostId)
        self.client = client
        self.clientState = clientState
        self.clientRequestId = clientRequestId
        self.intent = intent
        self.pluginIndex = pluginIndex
        self.timeout = timeout
        self.options = options
        self.stage = stage
    }

    /// Whether the plugin has the request (it counts in the plugin's `inFlight`).
    var isDelivered: Bool {
        switch stage {
        case .delivered, .prompting: true
        case .choosing, .pending: false
        }
    }

    /// Whether a PROMPT waits for the client's ANSWER.
    var isAwaitingClient: Bool {
        switch stage {
        case .choosing, .prompting: true
        case .pending, .delivered: false
        }
    }

    /// The plugin-choice stage, while the client is choosing.
    var choosing: PluginChoiceStage? {
        if case .choosing(let stage, _, _) = stage { return stage }
        return nil
    }
}
