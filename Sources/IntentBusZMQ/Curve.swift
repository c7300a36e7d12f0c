internal import CZeroMQ
import Foundation
import IntentBusCore

/// A CURVE key pair (ZeroMQ RFC 26) as Z85 text: 40 characters each. libzmq makes and
/// checks the keys; nothing here is cryptography of its own.
public struct CurveKeyPair: Sendable, Equatable {
    public let publicKey: String
    public let secretKey: String

    public init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Whether this libzmq was built with CURVE (Debian's is, with libsodium).
    public static var isAvailable: Bool { zmq_has("curve") != 0 }

    /// A fresh key pair from libzmq (`zmq_curve_keypair`).
    public static func generate() throws(ZMQError) -> CurveKeyPair {
        var pub = [CChar](repeating: 0, count: 41)
        var sec = [CChar](repeating: 0, count: 41)
        try zmqCheck("zmq_curve_keypair") { zmq_curve_keypair(&pub, &sec) }
        return CurveKeyPair(publicKey: String(cString: pub), secretKey: String(cString: sec))
    }

    /// The key pair whose secret key is `secretKey` (Z85), its public key derived by
    /// libzmq (`zmq_curve_public`); nil when the text is not a Z85 key.
    public init?(secretKey: String) {
        guard CurveKeyPair.isKey(secretKey) else { return nil }
        var pub = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&pub, secretKey) == 0 else { return nil }
        self.init(publicKey: String(cString: pub), secretKey: secretKey)
    }

    /// Whether `text` is a Z85 CURVE key: 40 characters of the Z85 alphabet.
    public static func isKey(_ text: String) -> Bool { CurveKeyText.isKey(text) }

    /// The Z85 text of a 32-byte binary key (as ZAP hands it over), or nil.
    public static func z85(binary: Data) -> String? {
        guard binary.count == 32 else { return nil }
        var out = [CChar](repeating: 0, count: 41)
        let ok = binary.withUnsafeBytes { raw in
            zmq_z85_encode(&out, raw.bindMemory(to: UInt8.self).baseAddress, 32) != nil
        }
        return ok ? String(cString: out) : nil
    }

    /// Reads a key file: the first line that is a Z85 key, comments (#) and blank lines
    /// skipped; nil when there is none.
    public static func readKey(path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            return isKey(trimmed) ? trimmed : nil
        }
        return nil
    }
}

extension ZMQSocket {
    private func setString(_ option: Int32, _ value: String, name: String) throws(ZMQError) {
        let bytes = Array(value.utf8)
        try zmqCheck("zmq_setsockopt", context: name) { zmq_setsockopt(handle, option, bytes, bytes.count) }
    }

    /// Makes this socket a CURVE server with the given secret key: every peer must
    /// speak CURVE, and the ZAP handler (if one is bound) decides which keys may connect.
    public func makeCurveServer(secretKey: String, zapDomain: String) throws(ZMQError) {
        try setOption(ZMQ_CURVE_SERVER, 1)
        try setString(ZMQ_CURVE_SECRETKEY, secretKey, name: "ZMQ_CURVE_SECRETKEY")
        try setString(ZMQ_ZAP_DOMAIN, zapDomain, name: "ZMQ_ZAP_DOMAIN")
    }

    /// Makes this socket a CURVE client of the server whose public key is `serverKey`.
    public func makeCurveClient(_ keys: CurveKeyPair, serverKey: String) throws(ZMQError) {
        try setString(ZMQ_CURVE_SERVERKEY, serverKey, name: "ZMQ_CURVE_SERVERKEY")
        try setString(ZMQ_CURVE_PUBLICKEY, keys.publicKey, name: "ZMQ_CURVE_PUBLICKEY")
        try setString(ZMQ_CURVE_SECRETKEY, keys.secretKey, name: "ZMQ_CURVE_SECRETKEY")
    }
}

extension Frame {
    /// A metadata property of the message this frame came with (`zmq_msg_gets`): for
    /// example "User-Id", which the ZAP handler set for the peer's connection.
    public func property(_ name: String) -> String? {
        if let metadataSource { return metadataSource.property(name) }
        return withMsg { msg in zmq_msg_gets(msg, name).map { String(cString: $0) } }
    }
}
