import Foundation
import IntentBusCore

// libFuzzer target: the JSON parser and the canonical writer (docs/reliability.md). Any
// input either is refused with a JSONParseError or parses to a value whose canonical text
// parses back to the same value and the same text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    guard let value = try? JSON.parse(data) else { return 0 }
    let text = value.canonicalData
    guard let again = try? JSON.parse(text), again == value, again.canonicalData == text else {
        fatalError("canonical round trip changed \(value) into \(String(decoding: text, as: UTF8.self))")
    }
    return 0
}
