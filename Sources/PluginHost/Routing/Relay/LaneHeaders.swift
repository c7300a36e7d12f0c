import Foundation
import IntentBusCore

/// The client REQUEST headers the relay lane carries (docs/design.md, "Client headers on
/// the lane"): a header whose fields are only `timeout_ms`, `client`, `credential` and
/// `locale`, each as `RequestHeaderCheck` accepts it. For a request the lane may take at
/// all (one claimant, not restricted: `RouterCore.laneRoute`) the general path does with
/// these exactly this: the timeout sets the deadline; the client's name goes to the plugin
/// (`Admission.deliveryHeader`, or the style's header: `LaneRequestCheck.pluginHeader`)
/// and to the host's donation; the credential is read only for a restricted intent, so it
/// changes nothing here (and never reaches the plugin); the locale goes in a new-style
/// request's header. Any other field (`plugin`, `choice`, `remember`, `context`,
/// `run_key`, …), an unknown one, a malformed header or one the check refuses is the
/// general path's, which answers it as always.
///
/// A header is parsed once per distinct bytes: the table keeps up to `capacity` of them
/// with what the general path would have read (`options`), and counts the open lane
/// requests that use each; a header not in use makes room for a new one. Owned by the
/// lane, on the router thread.
struct LaneHeaders {
    /// A header the lane carries, as the general path reads it.
    struct Header {
        let bytes: [UInt8]
        let hash: UInt64
        /// The plugin timeout it asks for (ns), or nil for the route's.
        let timeout: UInt64?
        let client: String?
        let locale: String?
        /// The header as the general path's `Exchange.options` (for a promotion).
        let options: JSON
        /// A plain request's delivery header (`Admission.deliveryHeader`): `{"client":…}` or empty.
        let plainHeader: [UInt8]
        /// By check (a style's header for this client and locale, nil: not on the lane),
        /// made when first asked; emptied at each routing change (the checks are new).
        var styled: [(check: ObjectIdentifier, header: [UInt8]?)] = []
        /// Open lane requests with this header.
        var open: Int32 = 0
    }

    /// The most distinct headers kept at once (a header seen while all are in use goes to
    /// the general path).
    static let capacity = 64
    /// The most styles' headers kept per header.
    static let stylesPerHeader = 8
    /// The fields the lane carries.
    static let carried: Set<String> = ["timeout_ms", "client", "credential", "locale"]

    private(set) var headers: [Header] = []
    private var index = ByteIndex(capacity: capacity)

    /// The index of the header with these bytes, parsed and added when it is new; nil when
    /// the general path must read it (or the table is full of headers in use).
    mutating func find(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let hash = ByteHash.hash(bytes)
        if let known = index.find(hash, { headers[Int($0)].bytes.withUnsafeBytes { $0.sameBytes(bytes) } }) {
            return Int(known)
        }
        guard let header = Self.read(bytes, hash: hash) else { return nil }
        if headers.count < Self.capacity {
            headers.append(header)
            index.insert(hash, Int32(headers.count - 1))
            return headers.count - 1
        }
        guard let free = headers.firstIndex(where: { $0.open == 0 }) else { return nil }
        index.remove(headers[free].hash, Int32(free))
        headers[free] = header
        index.insert(hash, Int32(free))
        return free
    }

    /// The header as the lane carries it, or nil when the general path must read it.
    static func read(_ bytes: UnsafeRawBufferPointer, hash: UInt64) -> Header? {
        guard bytes.count > 0, let options = try? JSON.parse(bytes: bytes), let fields = options.objectValue,
              fields.keys.allSatisfy(carried.contains), RequestHeaderCheck.problem(options) == nil else { return nil }
        var timeout: UInt64?
        if case .int(let ms)? = fields["timeout_ms"] { timeout = UInt64(ms) * 1_000_000 }
        let plain = Admission.deliveryHeader(options: options)
        return Header(bytes: [UInt8](bytes), hash: hash, timeout: timeout, client: fields["client"]?.stringValue,
                      locale: fields["locale"]?.stringValue, options: options, plainHeader: [UInt8](plain.data))
    }

    /// The header `check` sends the plugin for requests with header `h` (nil: the general
    /// path's), asked of the check once per header and check.
    mutating func styledHeader(_ h: Int, _ check: any LaneRequestCheck) -> [UInt8]? {
        let id = ObjectIdentifier(check)
        if let known = headers[h].styled.first(where: { $0.check == id }) { return known.header }
        let made = check.pluginHeader(client: headers[h].client, locale: headers[h].locale)
        if headers[h].styled.count < Self.stylesPerHeader { headers[h].styled.append((id, made)) }
        return made
    }

    mutating func opened(_ h: Int) { headers[h].open += 1 }
    mutating func closed(_ h: Int) { headers[h].open -= 1 }

    /// At a routing change: the checks are new objects (an old one's identifier may be reused).
    mutating func routesChanged() {
        for h in headers.indices { headers[h].styled.removeAll() }
    }
}
