/// The bounds the host keeps on what clients and plugins can make it hold
/// (`host.limits:` in the manifest, docs/reliability.md). Every value is range-checked
/// when the manifest loads.
package struct HostLimits: Sendable, Equatable {
    /// Largest message (header plus body) the host accepts and answers: a larger one is
    /// answered `too_large` where the request can still be named.
    package var maxMessageSize: Int = 4 << 20
    /// Frames of more than this many bytes make libzmq drop the connection before the
    /// host sees them: the bound on memory where no answer is possible. Four times
    /// `maxMessageSize`, at least 64 KiB above it.
    package var transportFrameLimit: Int { max(maxMessageSize * 4, maxMessageSize + 65_536) }
    /// Frames one message may have on any connection: libzmq holds a message's frames
    /// until its last one, so one that never ends is cut off here (ConnectionGate).
    package var maxMessageFrames: Int = 1_024
    /// Open exchanges (requests without their final answer yet) over every client.
    package var maxOpenExchanges: Int = 65_536
    /// Open exchanges of one client connection.
    package var maxOpenPerClient: Int = 4_096
    /// Messages libzmq queues for one client (the frontend's send high-water mark). When
    /// that queue is full the client is not reading: what follows waits in the host's own
    /// backlog for it, bounded below, and its new requests get `busy`.
    package var clientQueue: Int = 100_000
    /// Messages the host keeps for one client whose pipe is full (it is not reading),
    /// to send once it reads again; beyond it further messages to that client are dropped
    /// and counted.
    package var clientBacklog: Int = 10_000
    /// Bytes those kept messages may take, per client.
    package var clientBacklogBytes: Int = 64 << 20
    /// Bytes of answers libzmq holds for one client (HeldBytes: frames of 1 KiB or more,
    /// counted until libzmq has written them out). Past it, further answers wait in the
    /// backlog above, bounded by `clientBacklogBytes`.
    package var clientQueueBytes: Int = 16 << 20
    /// Bytes of requests libzmq holds for one plugin connection that has not taken them;
    /// past it, requests for that plugin get `busy`.
    package var pluginQueueBytes: Int = 64 << 20
    /// Bytes libzmq and the clients' backlogs hold over all clients and plugins together.
    package var maxQueuedBytes: Int = 512 << 20
    /// Bytes of open requests (header plus body) the host keeps for one client, and for
    /// every client together; past them, new requests get `busy`.
    package var maxInFlightBytesPerClient: Int = 64 << 20
    package var maxInFlightBytes: Int = 512 << 20
    /// Remembered-choice writes one client may cause per second (`remember: true`,
    /// `ib.choices.set/reset`), and the burst above that rate.
    package var choiceWritesPerSecond: Int = 10
    package var choiceWriteBurst: Int = 20

    /// Client connections the frontend keeps at most (`max_connections`); nil: as many
    /// as the open-file limit allows (ConnectionBudget). Lowers that number, never raises it.
    package var maxConnections: Int?
    /// Frontend connections one peer uid keeps at most on ipc (`max_connections_per_user`);
    /// nil: three quarters of the frontend's budget.
    package var maxConnectionsPerUser: Int?

    package init() {}

    /// The accepted range of each key, as written in the manifest.
    static let ranges: [(key: String, range: ClosedRange<Int>)] = [
        ("max_message_size", 1_024...(256 << 20)),
        ("max_message_frames", 8...100_000),
        ("max_open_exchanges", 1...1_000_000),
        ("max_open_per_client", 1...1_000_000),
        ("client_queue", 10...1_000_000),
        ("client_backlog", 0...1_000_000),
        ("client_backlog_bytes", 0...(1 << 30)),
        ("client_queue_bytes", (64 << 10)...(1 << 30)),
        ("plugin_queue_bytes", (64 << 10)...(1 << 30)),
        ("max_queued_bytes", (1 << 20)...(16 << 30)),
        ("max_in_flight_bytes_per_client", (64 << 10)...(16 << 30)),
        ("max_in_flight_bytes", (1 << 20)...(16 << 30)),
        ("choice_writes_per_second", 1...10_000),
        ("choice_write_burst", 1...100_000),
        ("max_connections", 1...10_000_000),
        ("max_connections_per_user", 1...10_000_000),
    ]

    /// Sets the value of a manifest key (already range-checked).
    mutating func set(_ key: String, _ value: Int) {
        switch key {
        case "max_message_size": maxMessageSize = value
        case "max_message_frames": maxMessageFrames = value
        case "max_open_exchanges": maxOpenExchanges = value
        case "max_open_per_client": maxOpenPerClient = value
        case "client_queue": clientQueue = value
        case "client_backlog": clientBacklog = value
        case "client_backlog_bytes": clientBacklogBytes = value
        case "client_queue_bytes": clientQueueBytes = value
        case "plugin_queue_bytes": pluginQueueBytes = value
        case "max_queued_bytes": maxQueuedBytes = value
        case "max_in_flight_bytes_per_client": maxInFlightBytesPerClient = value
        case "max_in_flight_bytes": maxInFlightBytes = value
        case "choice_writes_per_second": choiceWritesPerSecond = value
        case "choice_write_burst": choiceWriteBurst = value
        case "max_connections": maxConnections = value
        case "max_connections_per_user": maxConnectionsPerUser = value
        default: break
        }
    }
}
