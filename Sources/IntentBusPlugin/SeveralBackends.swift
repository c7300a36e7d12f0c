import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// The loop of a plugin that serves several hosts (`INTENTBUS_BACKEND=A,B`,
/// docs/scale-out.md "Plugins for every host"), as the Python SDK's does: one connection
/// per host, each saying its own HELLO and answering its own heartbeats; requests are
/// keyed by (backend, host request id), since two hosts may use one id, and answered on
/// the connection they came from. A host that is lost (its connection dropped, or it said
/// DISCONNECT) has its requests cancelled and is greeted with a new HELLO once it is back;
/// the others go on. A request under a run key is not cancelled with its host: it runs
/// on, so that the client's resend through another host joins it (`RunOnceBook`).
///
/// Simpler than the one-host loop on purpose: every handler runs as a task on the global
/// executor (no socket-thread fast path), and raw handlers answer in the loop.
///
/// Threading: `run()` on the loop's thread, which owns the sockets, `live` and the links;
/// handler tasks post their messages to `mailbox`.
final class SeveralBackends {
    private let runtime: PluginRuntime
    private let links: [BackendLink]
    private let mailbox: Mailbox<RoutedMessage>
    private let book = RunOnceBook()
    /// Requests being handled, by backend and host request id.
    private var live: [RunOnceBook.Waiter: PluginContext] = [:]
    /// The live requests that are their run key's run.
    private var keyed: Set<RunOnceBook.Waiter> = []
    private static let helloWait: UInt64 = 10_000_000_000

    init(runtime: PluginRuntime, backends: [(endpoint: String, serverKey: String?)], keys: CurveKeyPair?,
         context: ZMQContext) throws(ZMQError) {
        self.runtime = runtime
        var links: [BackendLink] = []
        for (i, b) in backends.enumerated() {
            let curve = keys.flatMap { k in b.serverKey.map { (keys: k, serverKey: $0) } }
            links.append(try BackendLink(index: i, endpoint: b.endpoint, context: context, curve: curve))
        }
        self.links = links
        mailbox = try Mailbox<RoutedMessage>(context: context, name: "plugin-\(runtime.pluginId)-backends")
    }

    /// Serves until the process is stopped.
    func run() throws -> Int32 {
        var sockets: [ZMQSocket] = [mailbox.receiver]
        var owners: [(link: Int, isMonitor: Bool)] = [(-1, false)]
        for link in links {
            sockets.append(link.socket)
            owners.append((link.index, false))
            for m in link.monitor.readableSockets {
                sockets.append(m)
                owners.append((link.index, true))
            }
        }
        var poller = Poller(sockets)
        while true {
            greet()
            try poller.wait(timeoutMs: 250)
            if poller.isReady(0) { for routed in mailbox.drain() { try send(routed) } }
            for (i, owner) in owners.enumerated() where poller.isReady(i) && owner.link >= 0 {
                let link = links[owner.link]
                if owner.isMonitor {
                    if link.connectionDropped() { lost(link, why: "its connection dropped") }
                    continue
                }
                while let frames = try link.socket.receive(dontWait: true) { try dispatch(frames, from: link) }
            }
        }
    }

    /// HELLO to every host that is not ready: once it is connected (the socket takes the
    /// message), again when WELCOME does not come within 10 s.
    private func greet() {
        let now = MonotonicClock.now()
        for link in links {
            let waitedOut = link.stage == .hello && now &- link.helloAt > Self.helloWait
            guard (link.stage == .idle && now >= link.retryAt) || waitedOut else { continue }
            if (try? link.socket.send(runtime.helloMessage().frames, dontWait: true)) == true {
                link.stage = .hello
                link.helloAt = now
            } else {
                link.stage = .idle  // not connected yet
                link.retryAt = now + 500_000_000
            }
        }
    }

    /// A host is gone: what it asked for can't be answered to it any more.
    private func lost(_ link: BackendLink, why: String) {
        if link.stage == .ready {
            runtime.logger.warning("lost the host at \(link.endpoint) (\(why)); greeting it again when it is back")
        }
        link.stage = .idle
        link.retryAt = MonotonicClock.now() + 200_000_000
        link.generation += 1
        book.dropLink(link.index)
        let reason = "the host at \(link.endpoint) is gone"
        for (key, ctx) in live where key.link == link.index {
            live[key] = nil
            // A run under a run key goes on: the client may send it again through another host.
            if keyed.remove(key) != nil { ctx.detach(reason: reason) } else { ctx.cancel(reason: reason) }
        }
    }

    private func send(_ routed: RoutedMessage) throws {
        let link = links[routed.link]
        let out = routed.message
        let key = RunOnceBook.Waiter(link: routed.link, requestId: out.requestId)
        let current = routed.generation == -1 || routed.generation == link.generation
        if out.kind.isFinal && current {
            live[key] = nil
            keyed.remove(key)
        }
        guard current, link.stage == .ready else { return }  // the host that asked is gone
        _ = try link.socket.send([Frame(WireProtocol.signature), Frame(out.kind.rawValue), Frame(out.requestId), Frame(out.intent),
                                  out.header.map { Frame(json: $0) } ?? Frame(), out.body.map { Frame(json: $0) } ?? Frame()])
    }

    private func reply(_ link: BackendLink, _ msg: WireMessage) throws {
        _ = try link.socket.send(msg.frames)
    }

    private func dispatch(_ frames: [Frame], from link: BackendLink) throws {
        let msg: WireMessage
        do { msg = try WireMessage.decode(frames[...]) } catch {
            runtime.logger.error("malformed message from the host at \(link.endpoint): \(error)")
            return
        }
        if link.stage == .hello {
            if msg.kind == .welcome {
                link.stage = .ready
                runtime.logger.info("connected to \(link.endpoint)")
            } else if msg.kind == .reject {
                let body = (try? msg.bodyJSON()) ?? .null
                runtime.logger.error("the host at \(link.endpoint) rejected the handshake: \(body["reason"]?.stringValue ?? body.canonicalString); trying again in 30 s")
                link.stage = .idle
                link.retryAt = MonotonicClock.now() + 30_000_000_000
            }
            return
        }
        guard link.stage == .ready else { return }  // a lost host's last words
        let key = RunOnceBook.Waiter(link: link.index, requestId: msg.requestId)
        switch msg.kind {
        case .request:
            try start(msg, from: link)
        case .answer:
            live[key]?.deliverAnswer((try? msg.bodyJSON()) ?? .object([:]))
        case .cancel:
            let reason = ((try? msg.bodyJSON())?["reason"]?.stringValue) ?? "cancelled"
            if let ctx = live.removeValue(forKey: key) {
                keyed.remove(key)
                ctx.cancel(reason: reason)
            } else if book.dropWaiter(key) {
                // A repeat waiting for another delivery's run: it alone ends.
                try reply(link, WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent,
                                            header: nil, body: BusError(.cancelled, reason).json))
            }
        case .disconnect:
            lost(link, why: "it said DISCONNECT")
        case .heartbeat:
            // Answered here, never by handler code: a plugin whose handlers are all busy is alive.
            try reply(link, WireMessage(kind: .heartbeat, header: nil, body: nil))
        default:
            runtime.logger.warning("unexpected \(msg.kind.rawValue) from the host at \(link.endpoint)")
        }
    }

    private func start(_ msg: WireMessage, from link: BackendLink) throws {
        if let raw = runtime.rawHandlers[msg.intent] {
            let body = raw(msg.requestId, msg.intent, msg.header, msg.body)
            return try reply(link, WireMessage(kind: .reply, requestId: msg.requestId, intent: msg.intent,
                                               header: Frame(json: PluginReply.header(status: .success, pluginId: runtime.pluginId)),
                                               body: body))
        }
        let synchronous = runtime.syncHandlers[msg.intent].map { sync -> PluginHandler in { try sync($0, $1) } }
        guard let handler = runtime.asyncHandlers[msg.intent]?.1.run ?? synchronous else {
            return try reply(link, WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent, header: nil,
                                               body: BusError(.pluginError, "plugin \(runtime.pluginId) has no handler for \(msg.intent)").json))
        }
        let header: JSON, params: JSON
        do {
            header = msg.header.count == 0 ? .object([:]) : try msg.headerJSON()
            params = try msg.bodyJSON()
            guard case .object = params else { throw ParametersNotObject(found: params.typeName) }
        } catch {
            return try reply(link, WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent, header: nil,
                                               body: BusError(.invalidParameters, "the parameters body must be a JSON object: \(error)").json))
        }
        let key = RunOnceBook.Waiter(link: link.index, requestId: msg.requestId)
        let runKey = RunOnceBook.key(in: header)
        var verdict = RunOnceBook.Verdict.untracked
        if let runKey {
            verdict = book.claim(runKey, by: key)
            switch verdict {
            case .done(let final):
                runtime.logger.info("request \(msg.requestId) ran already (run key \(runKey.prefix(12))…): its answer again")
                return try reply(link, WireMessage(kind: final.kind, requestId: msg.requestId, intent: msg.intent,
                                                   header: final.header, body: final.body))
            case .join:
                runtime.logger.info("request \(msg.requestId) is running already (run key \(runKey.prefix(12))…): joined")
                return
            case .run, .untracked:
                break
            }
        }
        let request = PluginRequest(id: msg.requestId, intent: msg.intent, header: header, parameters: params)
        let (mailbox, index, generation) = (self.mailbox, link.index, link.generation)
        let ctx = PluginContext(request: request) { mailbox.post(RoutedMessage(link: index, generation: generation, message: $0)) }
        live[key] = ctx
        let book = self.book
        let tracked = verdict == .run ? runKey : nil
        if tracked != nil { keyed.insert(key) }
        let (pluginId, logger) = (runtime.pluginId, runtime.logger)
        ctx.attach(Task {
            let result: Result<PluginReply, any Error>
            do { result = .success(try await handler(request, ctx)) } catch { result = .failure(error) }
            let final = PluginRuntime.finalMessage(result, request: request, pluginId: pluginId, logger: logger)
            if let tracked {
                let kept = RunOnceBook.FinalAnswer(kind: final.kind, header: final.header, body: final.body)
                for waiter in book.finish(tracked, with: kept) {
                    mailbox.post(RoutedMessage(link: waiter.link, generation: -1, message: OutgoingMessage(
                        kind: final.kind, requestId: waiter.requestId, intent: final.intent, header: final.header, body: final.body)))
                }
            }
            mailbox.post(RoutedMessage(link: index, generation: generation, message: final))
        })
    }
}
