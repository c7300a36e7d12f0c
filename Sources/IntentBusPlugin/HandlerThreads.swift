/// Where a plugin's async handlers (plain, legacy and new-style) run
/// (`PluginRuntime.handlerThreads`; docs/plugin-guide.md, "Where handlers run").
public enum HandlerThreads: Sendable {
    /// The default: on the thread that runs the plugin's socket loop, so that a handler
    /// that answers at once costs no thread switch. When one handler job holds that thread
    /// for more than 10–20 ms (it blocks, or computes without suspending), the loop moves
    /// to another thread (`LoopHandover`), which keeps answering heartbeats and serving the
    /// other requests; the handler finishes where it is.
    case socketThread
    /// On the socket thread, and the loop never moves: no watcher thread, but a handler
    /// that blocks holds up the whole plugin, its heartbeat answers included, and the host
    /// restarts it as hung (`PluginRuntime.runsHandlersOnSocketThread`).
    case socketThreadOnly
    /// On Swift's global executor: every answer costs two thread switches (to the task's
    /// thread and back to the socket's). The default before the handover existed.
    case globalExecutor
}
