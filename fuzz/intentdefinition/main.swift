import Foundation
import IntentBusDefinitions

// libFuzzer target: Xcode's .intentdefinition read as the host reads it (docs/reliability.md):
// PropertyListSerialization, the shape reader, the assembler. Any bytes give definitions
// and diagnostics; nothing else may happen. Run with leak detection off (scripts/fuzz.sh):
// Foundation's property-list parser leaks a little for every plist it rejects.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIntentDefinition(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
    // A path with no .lproj folders beside it: the strings tables are not read.
    _ = DefinitionLoader.decodeXcode(data, path: "/nonexistent/Base.lproj/Intents.intentdefinition", file: "fuzz.intentdefinition")
    return 0
}
