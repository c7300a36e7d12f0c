import Foundation
import IntentBusCore

/// The relay lane's first reading of a plugin's `run` REPLY body (`LegacyLaneCheck.rewrite`):
/// its bytes, in place, with no JSON tree but the response's, for the answer a one-trip
/// legacy request gets most: a run that went all the way with every parameter resolved to
/// the value the client gave. It answers only where the parse's reading (`JSON.parse`,
/// then `LegacyFlow.finalOfRun`) is provably the same, and only for bytes exactly as the
/// SDKs write that answer (canonical, `LegacyRunReply.canonicalBody`):
///
///     {"confirm":C,"handle":{"code":"K","response":R},"resolutions":{"N":{"result":"success","value":V},…}}
///
/// (a resolution may also be `{"result":"success"}`, without a value),
///
/// - `C` is `{"implemented":false}` or `{"code":"ready"}`: confirm goes on to handle
///   (`LegacyFlow.goesOn(afterConfirm:)`);
/// - `K` is ASCII with no escape; `R` is a canonical object, parsed as the parse parses it;
///   nothing else in `handle` (no `opens_intent`);
/// - every declared parameter is resolved once, in byte order of the names, with `success`
///   and, as `V`, the value the client gave, byte for byte, of a kind the body scan reads
///   (`LegacyBodyScan.value`: one that `ParameterCoercion.coerce` keeps as it is), or `null`
///   for an optional parameter the client left out; or no `value` at all, the parameter as
///   it is, for one the client gave or an optional one. `applyResolutions` then settles every
///   parameter and leaves the parameters as given (`finalOfRun`'s `parameters == given`);
/// - nil for anything else, hostile or not: the parse then decides, as it always did
///   (`LegacyLaneCheck.rewriteParsed`).
///
/// What is left is the flow's own: the code's dialog rendered and checked (`rendered`).
/// LegacyRunScanTests compares the two readings over many REPLY bodies.
extension LegacyBodyScan {
    /// A `run` REPLY the scan read: confirm's answer and handle's code and response.
    struct Run {
        /// Whether the handler has a confirm step (then it answered ready).
        let confirmImplemented: Bool
        let code: String
        let response: JSON
        /// Where the response's canonical text is in the body.
        let responseText: Range<Int>
    }

    /// The run in `body` when the scan reads it (see above) for a request whose parameters
    /// the lane check passed as `given`; nil: the parse decides.
    func run(_ body: UnsafeRawBufferPointer, given: [String: JSON]) -> Run? {
        guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let bytes = UnsafeBufferPointer(start: base, count: body.count)
        let n = bytes.count
        var i = 0
        func expect(_ word: StaticString) -> Bool {
            guard Self.literal(word, bytes, at: i) else { return false }
            i += word.utf8CodeUnitCount
            return true
        }
        let quote = UInt8(ascii: "\"")
        guard expect(#"{"confirm":{"#) else { return nil }
        let implemented: Bool
        if expect(#""implemented":false},"#) {
            implemented = false
        } else if expect(#""code":"ready"},"#) {
            implemented = true
        } else {
            return nil
        }
        guard expect(#""handle":{"code":""#) else { return nil }
        var nonASCII = false
        let codeEnd = JSONByteScan.plainRunEnd(bytes, from: i, nonASCII: &nonASCII)
        guard codeEnd < n, bytes[codeEnd] == quote, !nonASCII else { return nil }
        let code = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<codeEnd]), as: UTF8.self)
        i = codeEnd + 1
        guard expect(#","response":"#), i < n, bytes[i] == UInt8(ascii: "{") else { return nil }
        var canonical = false
        let responseStart = i
        guard let (response, end) = try? JSON.parseValue(in: bytes, at: i, isCanonical: &canonical), canonical else { return nil }
        i = end
        guard expect(#"},"resolutions":{"#) else { return nil }
        var seen: UInt64 = 0
        if i < n, bytes[i] != UInt8(ascii: "}") {
            var previousRank = -1
            while true {
                // The name: a declared one, byte for byte, after the previous one in byte order.
                guard i < n, bytes[i] == quote else { return nil }
                let keyStart = i + 1
                var keyNonASCII = false
                let k = JSONByteScan.plainRunEnd(bytes, from: keyStart, nonASCII: &keyNonASCII)
                guard k < n, bytes[k] == quote, !keyNonASCII,
                      let d = index(of: UnsafeBufferPointer(rebasing: bytes[keyStart..<k])), rank(d) > previousRank else { return nil }
                previousRank = rank(d)
                i = k + 1
                guard expect(#":{"result":"success""#), i < n else { return nil }
                let bit: UInt64 = 1 << UInt64(d)
                let client = given[name(d)]
                if bytes[i] == UInt8(ascii: "}") {
                    // No value: the parameter as it is (the Python SDK's default resolve),
                    // settled unless it is required and the client left it out.
                    guard client != nil || required & bit == 0 else { return nil }
                } else if !expect(#","value":"#) || i == n {
                    return nil
                } else if expect("null") {
                    // Nothing, for a parameter the client left out: settled unless required.
                    guard client == nil, required & bit == 0 else { return nil }
                } else if case .string(var text)? = client, isString(d), bytes[i] == quote {
                    // A String the client gave: its bytes compared in place, where `value`
                    // would make a string to compare (the same answer: a plain run of
                    // exactly the client's UTF-8 is the string `value` reads, and the same
                    // bytes are `isSameScalar`).
                    let start = i + 1
                    var runNonASCII = false
                    let end = JSONByteScan.plainRunEnd(bytes, from: start, nonASCII: &runNonASCII)
                    guard end < n, bytes[end] == quote,
                          text.withUTF8({ $0.count == end - start && ($0.isEmpty || memcmp($0.baseAddress!, base + start, $0.count) == 0) })
                    else { return nil }
                    i = end + 1
                } else {
                    // The client's value, byte for byte (`==` alone may join canonically
                    // equivalent strings, which the flow would write as the plugin's).
                    guard let value = value(bytes, &i, d), value.isSameScalar(as: client) else { return nil }
                }
                seen |= bit
                guard expect("}"), i < n else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                break
            }
        }
        let all: UInt64 = count == 64 ? .max : (1 << UInt64(count)) - 1
        guard expect("}}"), i == n, seen == all else { return nil }
        return Run(confirmImplemented: implemented, code: code, response: response, responseText: responseStart..<end)
    }
}
