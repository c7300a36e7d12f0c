// A messenger plugin, a SiriKit Intents extension: Apple's standard INSendMessageIntent
// (INSendMessageIntentHandling) and its custom MessageStatusIntent, whose classes are
// generated at build time from messenger.yaml (a link to definitions/messenger.yaml).
// Each recipient is resolved on its own, as resolveRecipients does, so "send a message to
// Alex and Sam" finds three Alexes and the host asks which one for that recipient only;
// an empty message needs a value; sending reports progress (INIntentProgress).
INExtensionMain(MessengerExtension.self)
