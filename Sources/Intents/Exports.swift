// An extension's files start with `import Intents` and use Foundation without importing
// it, as on Apple platforms, where the Intents framework brings Foundation along.
@_exported import Foundation
