// `import AppIntents`: Apple's App Intents API for IntentBus plugins (docs/appintents.md).
// Like Apple's module it brings Foundation (UUID, Date, URL) with it. The types live in
// IntentBusAppIntents, which `import IntentBus` re-exports too: one API either way. The
// date and URL text forms (`IntentDateText`, `IntentURLText`) live in IntentBusMetadata,
// shared with the host, and come with it.
@_exported import Foundation
@_exported import IntentBusAppIntents
@_exported import IntentBusMetadata
