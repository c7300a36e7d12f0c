// The host's API speaks of the spawner's types (`SpawnError`, `ExitStatus` in
// `RouterEffects` and `RouterEvent`), so whoever imports PluginHost gets them too.
@_exported import IntentBusProcess
