// The host's API speaks of the spawner's types (`SpawnError`, `ExitStatus` in
// `RouterEffects` and `RouterEvent`), of the manifest (`IntentHost(manifest:)`,
// `RouterCore.reload`) and of the legacy definitions (the catalog the router holds), so
// whoever imports PluginHost gets them too.
@_exported import IntentBusProcess
@_exported import IntentBusManifest
@_exported import IntentBusDefinitions
