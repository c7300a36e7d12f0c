import Foundation

/// An image a person or object carries (SiriKit's `INImage`). Nothing shows it here:
/// it is kept for the handler's own use and never sent (results are text, docs/results.md).
public final class INImage: @unchecked Sendable {
    // @unchecked: immutable after init.
    public let imageData: Data?
    public let url: URL?
    /// The asset name of `INImage(named:)`: there is no asset catalog to look it up in.
    public let name: String?

    public init(imageData: Data) { (self.imageData, url, name) = (imageData, nil, nil) }
    public init?(url: URL) { (imageData, self.url, name) = (nil, url, nil) }
    public init(named name: String) { (imageData, url, self.name) = (nil, nil, name) }
}
