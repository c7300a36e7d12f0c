/// A load process step that could not run.
struct LoadFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
