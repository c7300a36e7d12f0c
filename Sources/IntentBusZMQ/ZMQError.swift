import IntentBusCore
internal import CZeroMQ

/// A failed libzmq call. Keeps the `zmq_errno()` value and the name of the C function
/// that failed, so that a log line says exactly what went wrong.
public struct ZMQError: Error, Sendable, CustomStringConvertible {
    /// The value of `zmq_errno()` right after the failing call.
    public let code: Int32
    /// The libzmq function that failed, for example `zmq_bind`.
    public let function: String
    /// Extra context, such as the endpoint.
    public let context: String

    public init(code: Int32, function: String, context: String = "") {
        self.code = code
        self.function = function
        self.context = context
    }

    /// libzmq's own text for `code`.
    public var message: String { String(cString: zmq_strerror(code)) }

    public var description: String {
        context.isEmpty ? "\(function): \(message) (errno \(code))"
            : "\(function) \(context): \(message) (errno \(code))"
    }

    /// The peer named in a ROUTER send is not connected (ZMQ_ROUTER_MANDATORY).
    public var isHostUnreachable: Bool { code == EHOSTUNREACH }
    /// The context was terminated; the owning loop should stop.
    public var isTerminated: Bool { code == ETERM }
}

/// The outcome of a libzmq call that may legitimately not complete now.
enum ZMQCallResult {
    case done(Int32)
    case wouldBlock
}

/// Every libzmq call goes through here: `EINTR` is retried, `EAGAIN` becomes a value,
/// anything else throws a `ZMQError` that keeps `zmq_errno()`.
@inline(__always)
func zmqCall(_ function: StaticString, context: @autoclosure () -> String = "",
             _ body: () -> Int32) throws(ZMQError) -> ZMQCallResult {
    while true {
        let rc = body()
        if rc >= 0 { return .done(rc) }
        let err = zmq_errno()
        if err == EINTR { continue }
        if err == EAGAIN { return .wouldBlock }
        throw ZMQError(code: err, function: "\(function)", context: context())
    }
}

/// Like `zmqCall`, for calls where `EAGAIN` is an error too.
@inline(__always)
func zmqCheck(_ function: StaticString, context: @autoclosure () -> String = "",
              _ body: () -> Int32) throws(ZMQError) {
    switch try zmqCall(function, context: context(), body) {
    case .done: return
    case .wouldBlock:
        throw ZMQError(code: EAGAIN, function: "\(function)", context: context())
    }
}
