// The SiriKit test plugin: an Intents extension on Intents.intentdefinition beside it,
// whose CompletionIntent handler calls its completion as the `mode` parameter says, so
// that the suites can check what the Intents module does with each (docs/sirikit.md);
// it also serves the standard INSendMessageIntent with seed 001's handler.
INExtensionMain(CompletionHandler.self)
