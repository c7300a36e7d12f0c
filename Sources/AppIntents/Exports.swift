// `import AppIntents`: Apple's App Intents API for IntentBus plugins (docs/appintents.md).
// Like Apple's module it brings Foundation (UUID, Date, URL) with it. The types live in
// IntentBusAppIntents, which `import IntentBus` re-exports too: one API either way.
@_exported import Foundation
@_exported import IntentBusAppIntents
