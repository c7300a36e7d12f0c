/// Serves an extension that handles only standard intents (`INSendMessageIntent`…), one
/// with no definition file in its target; never returns. A target with a definition gets
/// the generator's `INExtensionMain`, which serves both and takes precedence over this one.
public func INExtensionMain(_ extensionType: INExtension.Type) -> Never {
    INExtensionRuntime.serve(extensionType, intents: [])
}
