import Foundation
import IntentBusCore

/// A file a parameter carries (SiriKit's `INFile`). On the wire it is the host's File
/// value: a path, or `{"filename", "url"}` or `{"filename", "data" (base64)}`.
public final class INFile: INWireConvertible, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: built and read by one handler at a time.
    public var filename: String
    public var typeIdentifier: String?
    public let fileURL: URL?
    private let contents: Data?

    public init(data: Data, filename: String, typeIdentifier: String?) {
        contents = data
        fileURL = nil
        self.filename = filename
        self.typeIdentifier = typeIdentifier
    }

    public init(fileURL: URL, filename: String, typeIdentifier: String?) {
        contents = nil
        self.fileURL = fileURL
        self.filename = filename
        self.typeIdentifier = typeIdentifier
    }

    /// The file's bytes: the data it was made with, or what `fileURL` holds (empty when
    /// it can't be read, as Apple's `INFile.data` is never nil).
    public var data: Data { contents ?? fileURL.flatMap { try? Data(contentsOf: $0) } ?? Data() }

    public var description: String { "INFile(\(filename))" }

    public static func fromWire(_ value: JSON) -> INFile? {
        if let path = value.stringValue {
            let url = URL(fileURLWithPath: path)
            return INFile(fileURL: url, filename: url.lastPathComponent, typeIdentifier: nil)
        }
        guard let filename = value["filename"]?.stringValue else { return nil }
        let type = value["typeIdentifier"]?.stringValue
        if let text = value["data"]?.stringValue, let data = Data(base64Encoded: text) {
            return INFile(data: data, filename: filename, typeIdentifier: type)
        }
        guard let text = value["url"]?.stringValue, let url = URL(string: text) else { return nil }
        return INFile(fileURL: url, filename: filename, typeIdentifier: type)
    }

    public var wireValue: JSON {
        var o: [String: JSON] = ["filename": .string(filename)]
        if let typeIdentifier { o["typeIdentifier"] = .string(typeIdentifier) }
        if let fileURL { o["url"] = .string(fileURL.absoluteString) } else { o["data"] = .string(data.base64EncodedString()) }
        return .object(o)
    }
}
