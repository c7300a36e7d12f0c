import Foundation
import IntentBus

/// What the clients saw, counted as it happened (thread-safe).
final class RunTally: @unchecked Sendable {
    // @unchecked: every field is only touched under `lock`.
    private let lock = NSLock()
    private(set) var requests = 0
    private(set) var replies = 0
    private(set) var errors = 0
    /// The first few ERRORs, to be read when a run looks wrong.
    private(set) var errorSamples: [String] = []
    private(set) var hostLost = 0
    private(set) var resent = 0
    /// Requests that got no final answer (the client gave up waiting, or a socket failed).
    private(set) var lost: [String] = []
    /// Tags of requests that are not idempotent, to find any that ran twice.
    private(set) var plainTags: Set<String> = []
    /// Acknowledged choice writes: client id → (plugin, the host that acknowledged it).
    private(set) var writes: [String: (plugin: String, host: String)] = [:]

    func sent(tag: String, idempotent: Bool) {
        lock.withLock {
            requests += 1
            if !idempotent { plainTags.insert(tag) }
        }
    }

    /// One request's outcome.
    func ended(_ outcome: Result<IntentReply, ClientError>, tag: String) {
        lock.withLock {
            switch outcome {
            case .success(let reply):
                replies += 1
                resent += reply.resent
            case .failure(let error):
                switch error {
                case .bus(let e):
                    errors += 1
                    if errorSamples.count < 3 { errorSamples.append("\(tag): \(e)") }
                case .hostLost: hostLost += 1
                default: lost.append("\(tag): \(error)")
                }
            }
        }
    }

    func acknowledged(client: String, plugin: String, host: String) {
        lock.withLock { writes[client] = (plugin, host) }
    }

    var finals: Int { lock.withLock { replies + errors + hostLost } }
}
