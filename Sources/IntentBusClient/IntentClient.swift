import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// A blocking IntentBus client over DEALER sockets, to one host or to several.
///
/// With several endpoints (docs/protocol.md, "Several hosts") each request goes to one
/// host, chosen by `selection`, and stays there. While it waits the client sends that
/// host a HEARTBEAT every `heartbeat`; the host is lost when its connection drops or when
/// it has said nothing for `heartbeat × heartbeatLiveness`. An idempotent request is then
/// sent again, under the same id, to another host; any other ends with one
/// `ClientError.hostLost` naming the host. A request that no host took (none connected
/// within `connectWait`) was never delivered and goes to the next host, whatever it is.
///
/// Threading: use one `IntentClient` from one thread at a time (it owns ZeroMQ sockets).
public final class IntentClient {
    /// Every host this client knows, in the order given.
    public let endpoints: [String]
    /// The host the last request went to (the first one before any request).
    public var endpoint: String { links[active].endpoint }
    /// Whether the connection to the current host speaks the packed form (docs/protocol.md
    /// §2.1): a CURVE client announces it, and packs once the host has answered in it.
    package var speaksPackedForm: Bool { links[active].hostPacks }
    let links: [HostLink]
    /// The index in `links` of the host that holds (or last held) a request.
    var active = 0
    private var counter = 0
    /// Requests sent so far, for round robin.
    private var turn = 0
    private let prefix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    /// Extra time, beyond the request's own timeout, to wait for the host's final answer.
    public var hostSlack: Duration = .seconds(5)
    /// Which host a new request goes to.
    public var selection: HostSelection = .leastRecentlyFailed
    /// How often the client sends its host a HEARTBEAT while a request is open.
    public var heartbeat: Duration = .seconds(1)
    /// Heartbeats in a row the host may leave unanswered (and say nothing else) before it
    /// is lost; at least 2.
    public var heartbeatLiveness = 3
    /// How long a send waits for a connection to the chosen host: past it the request is
    /// sent to the next host (it was never delivered), or fails with `noAnswer` when no
    /// host is left. Default 5 s with one endpoint, 1 s with several.
    public var connectWait: Duration
    /// Asked while a request waits (at least every 100 ms, and at once when a signal
    /// interrupts the wait): true when the caller wants it cancelled (Ctrl-C in
    /// `intentbus send`). The client then sends CANCEL once and goes on waiting for the
    /// request's one final answer, which is `cancelled` unless the plugin's came first.
    public var cancellation: (() -> Bool)?
    /// The request a CANCEL has been sent for, so that it is sent once.
    var cancelSentFor: String?
    /// The request `send` is waiting for, and its final answer when `requestEnded` saw it
    /// arrive while a prompt handler ran.
    var current: String?
    var stashedFinal: WireMessage?
    /// The intents the hosts' manifests mark `idempotent`, learned from `ib.plugins` the
    /// first time a lost host leaves the question open; nil until then.
    var manifestIdempotent: Set<String>?

    /// - Parameter curve: for a host that takes CURVE clients (a tcp frontend): this
    ///   client's key pair and the host's public key (docs/security.md).
    public convenience init(endpoint: String, context: ZMQContext = ZMQContext(),
                            curve: (keys: CurveKeyPair, serverKey: String)? = nil) throws(ZMQError) {
        try self.init(endpoints: [endpoint], context: context, curve: curve)
    }

    /// A client that knows several hosts (at least one; the same CURVE keys for all).
    public init(endpoints: [String], context: ZMQContext = ZMQContext(),
                curve: (keys: CurveKeyPair, serverKey: String)? = nil) throws(ZMQError) {
        precondition(!endpoints.isEmpty, "an IntentClient needs at least one endpoint")
        self.endpoints = endpoints
        connectWait = endpoints.count == 1 ? .seconds(5) : .seconds(1)
        var links: [HostLink] = []
        for (index, endpoint) in endpoints.enumerated() {
            links.append(try HostLink(endpoint: endpoint, name: "\(prefix)-\(index)", context: context, curve: curve))
        }
        self.links = links
    }

    /// Sends a host intent (`ib.*`) and returns the reply body.
    public func control(_ intent: String, _ body: JSON = .object([:]), wait: Duration = .seconds(5)) throws(ClientError) -> JSON {
        var options = RequestOptions()
        options.timeout = wait
        let reply = try send(intent, parameters: body, options: options) { _ in nil }
        return reply.body
    }

    /// Sends a request and blocks until its final answer.
    ///
    /// - Parameter onEvent: called for every PROGRESS and PROMPT. For a prompt, return the
    ///   ANSWER body (`{"value": …}`), or nil to give up (the request is cancelled and
    ///   `ClientError.unanswered` is thrown).
    /// - Parameter onResult: called for each RESULT (an intent's result that opened the
    ///   next one) as it arrives; the final reply lists them in `earlier` too.
    /// - Throws: `ClientError.hostLost` when the host holding the request was lost and the
    ///   request was not sent again (see the type's description).
    public func send(_ intent: String, parameters: JSON = .object([:]), options: RequestOptions = RequestOptions(),
                     onEvent: (ClientEvent) -> JSON?, onResult: ((IntentReply) -> Void)? = nil) throws(ClientError) -> IntentReply {
        counter += 1
        turn += 1
        let requestId = "\(prefix)-\(counter)"
        current = requestId
        stashedFinal = nil
        defer { current = nil; stashedFinal = nil }
        // The host answers every request, at the latest when the plugin's timeout runs out.
        let wait = (options.timeout ?? .seconds(60)) + hostSlack
        var tried: Set<Int> = []
        var conversation = Conversation()
        var resent = 0
        var next = pickHost(excluding: tried)
        let header = Self.header(options, runKey: mayRunTwice(options) ? UUID().uuidString : nil)
        while let index = next {
            tried.insert(index)
            active = index
            let link = links[index]
            _ = link.connectionDropped()  // events from before this request say nothing about it
            let request = WireMessage(kind: .request, requestId: requestId, intent: intent,
                                      header: header, body: parameters)
            let delivered: Bool
            do { delivered = try link.send(request.frames, wait: connectWait) } catch { throw .transport(error) }
            guard delivered else {
                // Not connected: the host never saw the request, so any other host may take it.
                hostFailed(link)
                next = pickHost(excluding: tried)
                if next == nil { throw .noAnswer(endpoint: endpoints.count == 1 ? link.endpoint : endpoints.joined(separator: ", "), waited: connectWait) }
                continue
            }
            let outcome = Result { () throws(ClientError) -> IntentReply in
                try converse(link, requestId: requestId, intent: intent, wait: wait,
                             conversation: &conversation, onEvent: onEvent, onResult: onResult)
            }
            switch outcome {
            case .success(var reply):
                reply.host = link.endpoint
                reply.resent = resent
                return reply
            case .failure(.hostLost(let endpoint, let id, let why)):
                hostFailed(link)
                // Resent only what may run twice, before any conversation (its state lived
                // on the lost host), and only to a host that has not had it yet.
                next = conversation.startedTalking ? nil : pickHost(excluding: tried)
                if let candidate = next, mayResend(intent, options: options, asking: candidate) {
                    resent += 1
                    continue
                }
                throw .hostLost(endpoint: endpoint, requestId: id, why: why)
            case .failure(let error):
                throw error
            }
        }
        throw .noAnswer(endpoint: endpoints.joined(separator: ", "), waited: connectWait)
    }

    /// The host for a request, leaving out those it already went to.
    func pickHost(excluding tried: Set<Int>) -> Int? {
        selection.pick(failures: links.map(\.lastFailure), excluded: tried, turn: turn, now: MonotonicClock.now())
    }

    /// Notes the failure and drops what was queued for the host (see `HostLink.reset`).
    func hostFailed(_ link: HostLink) {
        link.lastFailure = MonotonicClock.now()
        try? link.reset()
    }
}

/// What one request has been through so far, kept across a resend.
struct Conversation {
    /// RESULT messages received (intents that opened the next one).
    var earlier: [IntentReply] = []
    /// Whether the host prompted: a conversation lives on the host that started it.
    var prompted = false

    var startedTalking: Bool { prompted || !earlier.isEmpty }
}
