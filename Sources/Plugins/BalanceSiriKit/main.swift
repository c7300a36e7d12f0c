// The FONIC balance plugin as a SiriKit Intents extension (seed 000), on the Xcode
// definition beside it (Intents.intentdefinition, a link to definitions/FONIC): the
// classes StatusIntent, StatusIntentResponse and StatusIntentHandling are generated at
// build time by the IntentDefinitionPlugin; IntentHandler.swift is the seed's code.
INExtensionMain(IntentHandler.self)
