import Foundation
import IntentBusCore

// libFuzzer target: the JSON parser and the canonical writer (docs/reliability.md). Any
// input either is refused with a JSONParseError or parses to a value whose canonical text
// parses back to the same value and the same text; the parser calls the input canonical
// exactly when that text is the input itself (the SDK then sends the input back for an
// unchanged value), and the value writes the same bytes as its reparsed copy.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    guard let value = try? JSON.parse(data) else { return 0 }
    let text = value.canonicalData
    guard let again = try? JSON.parse(text), again == value, again.canonicalData == text else {
        fatalError("canonical round trip changed \(value) into \(String(decoding: text, as: UTF8.self))")
    }
    var canonical = false
    _ = data.withUnsafeBytes { try? JSON.parse(bytes: $0, isCanonical: &canonical) }
    guard canonical == (text == data), value.writesSameBytes(as: again) else {
        fatalError("isCanonical \(canonical) for \(String(decoding: data, as: UTF8.self)), whose canonical text is \(String(decoding: text, as: UTF8.self))")
    }
    return 0
}
