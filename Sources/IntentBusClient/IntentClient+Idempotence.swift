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

    /// Whether a request may be resent to another host, so that it needs a run key: with
    /// several hosts, unless the request says it is not idempotent.
    func mayRunTwice(_ options: RequestOptions) -> Bool {
        links.count > 1 && options.idempotent != false
    }

    /// The REQUEST header with `run_key`: the key the hosts turn into the one a plugin
    /// connected to several of them uses to run a resent request once (docs/protocol.md
    /// §4.10). Made once per request and sent again, unchanged, with every resend.
    static func header(_ options: RequestOptions, runKey: String?) -> JSON? {
        guard let runKey else { return options.header }
        guard case .object(var fields)? = options.header else { return .object(["run_key": .string(runKey)]) }
        fields["run_key"] = .string(runKey)
        return .object(fields)
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
