import Foundation
import IntentBusDefinitions

// libFuzzer target: the intent definition loader, YAML parser included
// (docs/reliability.md). Any text gives definitions and diagnostics; nothing else may happen.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDefinitions(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: start == nil ? 0 : count), as: UTF8.self)
    _ = DefinitionLoader.decode(text: text, file: "fuzz.yaml")
    return 0
}
