import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// What a handler can do while it works on one request: report progress, ask the user,
/// and notice cancellation.
///
/// Thread-safe: any task may use it.
public final class PluginContext: @unchecked Sendable {
    // @unchecked: mutable state (`cancelled`, `waiting`) is guarded by `lock`.
    public let request: PluginRequest
    private let outbox: @Sendable (OutgoingMessage) -> Void
    private let lock = RequestLock()
    private var cancelled: String?
    /// Set when its host was lost while it ran under a run key (`RunOnceBook`): it goes
    /// on for a repeat from another host, but can't start a conversation.
    private var detached: String?
    private var waiting: CheckedContinuation<JSON, any Error>?
    /// The handler's task, cancelled with the request (`Task.isCancelled`,
    /// `CancellationError` in the handler).
    private var task: Task<Void, Never>?
    /// Whether the loop's turn that started the handler still waits for its result, and
    /// the result when the handler finished before that turn stopped waiting
    /// (`serveImmediately`: `keepInline`, `closeInline`).
    private var waitsInline: Bool
    private var inlineResult: Result<PluginReply, any Error>?

    /// `waitsInline`: the handler starts in the turn that received the request, which
    /// takes its result with `closeInline` if it finished meanwhile.
    init(request: PluginRequest, outbox: @escaping @Sendable (OutgoingMessage) -> Void, waitsInline: Bool = false) {
        self.request = request
        self.outbox = outbox
        self.waitsInline = waitsInline
    }

    /// The handler's task keeps its result for the waiting turn; false when the turn no
    /// longer waits (the task suspended, and the result goes through the outbox).
    func keepInline(_ result: Result<PluginReply, any Error>) -> Bool {
        lock.withLock {
            guard waitsInline else { return false }
            inlineResult = result
            return true
        }
    }

    /// The turn stops waiting: the result, when the handler finished meanwhile.
    func closeInline() -> Result<PluginReply, any Error>? {
        lock.withLock {
            waitsInline = false
            defer { inlineResult = nil }
            return inlineResult
        }
    }

    /// Sends a PROGRESS update to the client (legacy `inProgress`).
    public func progress(_ message: String, fraction: Double? = nil, extra: [String: JSON] = [:]) {
        var body = extra
        body["message"] = .string(message)
        if let fraction { body["fraction"] = .double(fraction) }
        outbox(OutgoingMessage(kind: .progress, requestId: request.id, intent: request.intent,
                               header: nil, body: .object(body)))
    }

    /// Asks the user through the host and waits for the answer's `value`.
    ///
    /// `prompt` is a PROMPT body (docs/protocol.md §4.4). Throws `RequestCancelled` when
    /// the request is cancelled or times out meanwhile.
    public func prompt(_ prompt: JSON) async throws -> JSON {
        let answer: JSON = try await withCheckedThrowingContinuation { cont in
            let reason: String? = lock.withLock {
                if let c = cancelled ?? detached { return c }
                precondition(waiting == nil, "one prompt at a time per request")
                waiting = cont
                return nil
            }
            if let reason {
                cont.resume(throwing: RequestCancelled(reason: reason))
                return
            }
            outbox(OutgoingMessage(kind: .prompt, requestId: request.id, intent: request.intent,
                                   header: nil, body: prompt))
        }
        return answer["value"] ?? .null
    }

    /// Whether the host cancelled this request (timeout or client CANCEL).
    public var isCancelled: Bool { lock.withLock { cancelled != nil } }

    func deliverAnswer(_ body: JSON) {
        let cont = lock.withLock { () -> CheckedContinuation<JSON, any Error>? in
            defer { waiting = nil }
            return waiting
        }
        cont?.resume(returning: body)
    }

    func cancel(reason: String) {
        let (cont, task) = lock.withLock { () -> (CheckedContinuation<JSON, any Error>?, Task<Void, Never>?) in
            cancelled = reason
            defer { waiting = nil }
            return (waiting, self.task)
        }
        cont?.resume(throwing: RequestCancelled(reason: reason))
        task?.cancel()
    }

    /// Its host is lost, but its run may answer a repeat through another host: it goes
    /// on without a host; a prompt waiting for the lost host's answer ends as cancelled.
    func detach(reason: String) {
        let waitingNow = lock.withLock { () -> Bool in
            detached = reason
            return waiting != nil
        }
        if waitingNow { cancel(reason: reason) }
    }

    /// Ties the handler's task to the request: cancelling the request cancels it (at
    /// once, if the CANCEL came first).
    func attach(_ task: Task<Void, Never>) {
        let already = lock.withLock { () -> Bool in
            self.task = task
            return cancelled != nil
        }
        if already { task.cancel() }
    }
}

/// A message a handler task wants sent; the plugin's socket thread sends it.
struct OutgoingMessage: Sendable {
    let kind: MessageKind
    let requestId: String
    let intent: String
    let header: JSON?
    let body: JSON?
}
