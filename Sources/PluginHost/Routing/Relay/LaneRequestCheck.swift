import Foundation
import IntentBusCore
import IntentBusZMQ

/// An extension's declaration that the relay lane may take requests for one intent of a
/// style other than plain (the new-style extension's, for an App Intents `perform()`:
/// NewStyle/NewStyleLaneCheck.swift). The extension decides, from its catalog at HELLO,
/// that nothing the host's flow does for the intent depends on the request beyond its
/// body; the lane then asks `passes` of each body and knows nothing else of the style.
/// A body that does not pass goes to the general path, whose flow answers it as always.
protocol LaneRequestCheck: AnyObject {
    /// The header frame the plugin gets with such a request (constant: what the flow's
    /// REQUEST carries when the client sent no options).
    var pluginHeader: [UInt8] { get }
    /// The header frame for a request whose client header (one the lane carries:
    /// LaneHeaders) names this client and locale, as the flow's REQUEST would carry it;
    /// nil when such a request needs the flow (legacy: a locale its definition is
    /// translated into). Asked once per distinct client header.
    func pluginHeader(client: String?, locale: String?) -> [UInt8]?
    /// Whether the flow would forward this body unchanged to the plugin, having found
    /// nothing to answer, add or ask: every given value valid as given, no default to
    /// add, no required parameter missing, no unknown one. Nil when not; else what the
    /// check read of the body (`LanePass`), which the lane keeps with the request until it
    /// ends and hands back to `rewrite` and `deliveredFlow`, so that the body is read once.
    /// Cheap: one reading, in place where it can be.
    func passes(body: UnsafeRawBufferPointer) -> LanePass?
    /// Whether the flow would forward a REPLY with this body to the client as it is, with
    /// nothing to read in it (no result that leads on to a view or another intent).
    func forwards(replyBody: UnsafeRawBufferPointer) -> Bool
    /// The client's final REPLY the flow would make of the plugin's REPLY (header and body
    /// bytes), for a style whose flow writes it itself (legacy: LegacyLaneCheck), or nil:
    /// then the REPLY is forwarded when `forwards` says so, else the request is promoted.
    /// `requestId` is the client's, `passed` what `passes` gave for its body; the lines the
    /// flow would log on the way go to `logger` (the core's).
    func rewrite(requestId: UnsafeRawBufferPointer, passed: LanePass, replyHeader: UnsafeRawBufferPointer,
                 replyBody: UnsafeRawBufferPointer, logger: Logger) -> LaneRewrite?
    /// The flow of the request once promoted to an `Exchange`: as after its REQUEST (with
    /// `body`, which `passes` passed, giving `passed`) was sent (it relays the plugin's
    /// PROMPT, PROGRESS, ERROR and REPLY, checks answers).
    func deliveredFlow(body: UnsafeRawBufferPointer, passed: LanePass) -> any ExchangeFlow
}

extension LaneRequestCheck {
    func rewrite(requestId: UnsafeRawBufferPointer, passed: LanePass, replyHeader: UnsafeRawBufferPointer,
                 replyBody: UnsafeRawBufferPointer, logger: Logger) -> LaneRewrite? { nil }
}

/// What a check's `passes` read of a body it passed: kept by the lane with the request (by
/// its entry, so as many as the lane's open requests at most) and handed back to the check
/// at its REPLY (`rewrite`) or its promotion (`deliveredFlow`), which then need not read the
/// body again. No cache: each request's own reading, gone when the request ends.
struct LanePass {
    /// The body's parameters as the flow takes them (legacy: what `LegacyFlow.take` leaves,
    /// which for a passed body are the body's own); nil for a check that reads the body no
    /// further (new style).
    let parameters: [String: JSON]?
    /// The body's bytes, which are the parameters' canonical text (legacy: the check passes
    /// only a canonical body the flow sends as it is); nil with `parameters`.
    var text: [UInt8]? = nil

    /// Passed, nothing kept.
    static let unread = LanePass(parameters: nil)
}

/// The client's final REPLY a check made of its plugin's (`LaneRequestCheck.rewrite`):
/// header and body frames, and whether it is a success (the extensions see it end then:
/// `LaneCore.laneSucceeded`).
struct LaneRewrite {
    let header: [UInt8]
    let body: [UInt8]
    let succeeded: Bool
}
