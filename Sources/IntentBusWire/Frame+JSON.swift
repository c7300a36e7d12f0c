import Foundation
import IntentBusCore
import IntentBusZMQ

extension Frame {
    /// A frame holding `value`'s canonical JSON text.
    public convenience init(json value: JSON) {
        self.init(bytes: value.canonicalBytes)
    }

    /// The frame's bytes parsed as JSON, read in place (no copy into `Data` first). An
    /// empty frame is an empty object, as everywhere on the wire.
    public func parseJSON() throws(JSONParseError) -> JSON {
        let result = withBytes { raw -> Result<JSON, JSONParseError> in
            do throws(JSONParseError) { return .success(try JSON.parse(bytes: raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
