import Foundation
import IntentBusManifest

/// The core's side of the request pipeline (Pipeline/RequestPipeline.swift): what it needs
/// of the core (`PipelineHost`), the relay lane's requests promoted into its book first.
extension RouterCore: PipelineHost {
    var limits: HostLimits { manifest.host.limits }
    var flows: FlowDriver { conversation.flows }
    func promoteLane(slot: Int) { relayLane?.promote(slot: slot, self) }
    func promoteLane(client identity: Data) { relayLane?.promote(client: identity, self) }
}
