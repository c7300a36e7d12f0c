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

    /// `parseJSON()`, also telling whether the frame holds exactly the value's canonical
    /// text (`JSON.parse(bytes:isCanonical:)`), so that the frame itself can be sent back
    /// for a value that comes back unchanged.
    package func parseJSON(isCanonical: inout Bool) throws(JSONParseError) -> JSON {
        var canonical = false
        let result = withBytes { raw -> Result<JSON, JSONParseError> in
            do throws(JSONParseError) { return .success(try JSON.parse(bytes: raw, isCanonical: &canonical)) } catch { return .failure(error) }
        }
        isCanonical = canonical
        return try result.get()
    }
}
