import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

extension IntentClient {
    /// Host intents that only read: sending one again changes nothing.
    static let readOnlyHostIntents: Set<String> = [
        "ib.ping", "ib.status", "ib.metrics", "ib.plugins", "ib.explain", "ib.logs",
        "ib.choices.list", "ib.shortcuts.list", "ib.donations.list", "ib.suggestions",
    ]

    /// Whether `intent` may be sent again after its host was lost: the request's own
    /// `idempotent` when set, else a read-only host intent, else what the manifest says,
    /// asked of host `candidate` once per client (the hosts of one deployment share a
    /// manifest; docs/scale-out.md).
    func mayResend(_ intent: String, options: RequestOptions, asking candidate: Int) -> Bool {
        if let idempotent = options.idempotent { return idempotent }
        if intent.hasPrefix("ib.") { return Self.readOnlyHostIntents.contains(intent) }
        if manifestIdempotent == nil { manifestIdempotent = learnIdempotent(from: links[candidate]) }
        return manifestIdempotent?.contains(intent) ?? false
    }

    /// The intents every claimant marks `idempotent`, from `ib.plugins` on `link`'s host
    /// (each plugin lists them under `idempotent`); nil when that host does not answer
    /// within 2 s, so that the next loss asks again.
    private func learnIdempotent(from link: HostLink) -> Set<String>? {
        let requestId = "\(current ?? "learn")-plugins"
        let ask = WireMessage(kind: .request, requestId: requestId, intent: "ib.plugins",
                              header: ["timeout_ms": 2_000], body: .object([:]))
        guard (try? link.send(ask.frames, wait: connectWait)) == true,
              let answer = try? receive(link, requestId: requestId, wait: .seconds(2)),
              answer.kind == .reply, let body = try? answer.bodyJSON() else { return nil }
        var claimed: [String: Int] = [:]
        var marked: [String: Int] = [:]
        for plugin in body["plugins"]?.arrayValue ?? [] {
            for intent in plugin["intents"]?.arrayValue ?? [] {
                if let name = intent.stringValue { claimed[name, default: 0] += 1 }
            }
            for intent in plugin["idempotent"]?.arrayValue ?? [] {
                if let name = intent.stringValue { marked[name, default: 0] += 1 }
            }
        }
        return Set(marked.filter { claimed[$0.key] == $0.value }.keys)
    }
}
