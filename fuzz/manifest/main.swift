import Foundation
import IntentBusManifest

// libFuzzer target: the manifest loader, YAML parser included (docs/reliability.md). Any
// text either loads or is refused with a ConfigError; nothing else may happen. The path
// names a directory that does not exist, so no drop-in directory is read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: start == nil ? 0 : count), as: UTF8.self)
    _ = try? ManifestLoader.load(text: text, path: "/nonexistent-intentbus-fuzz/plugins.yaml")
    return 0
}
