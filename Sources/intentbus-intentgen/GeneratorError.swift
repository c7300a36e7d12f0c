/// A definition the generator cannot write Swift for: names the file and the key path.
struct GeneratorError: Error, CustomStringConvertible {
    let file: String
    let keyPath: String
    let message: String
    var description: String { "\(file): \(keyPath): \(message)" }
}
