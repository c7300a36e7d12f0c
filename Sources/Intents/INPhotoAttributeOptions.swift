import Foundation
import IntentBusCore

/// What a photo is or shows (SiriKit's `INPhotoAttributeOptions`, an option set with
/// Apple's bits). On the wire, a list of the options' names (enum PhotoAttribute).
public struct INPhotoAttributeOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The names in bit order, as the host's PhotoAttribute enum lists them.
    static let names = ["photo", "video", "gif", "flash", "landscapeOrientation", "portraitOrientation", "favorite", "selfie",
                        "frontFacingCamera", "screenshot", "burstPhoto", "hdrPhoto", "squarePhoto", "panoramaPhoto",
                        "timeLapseVideo", "slowMotionVideo", "noirFilter", "chromeFilter", "instantFilter", "monoFilter",
                        "fadeFilter", "tonalFilter", "transferFilter", "processFilter", "portraitPhoto", "livePhoto",
                        "loopPhoto", "bouncePhoto", "longExposurePhoto"]

    public static let photo = Self(rawValue: 1 << 0)
    public static let video = Self(rawValue: 1 << 1)
    public static let gif = Self(rawValue: 1 << 2)
    public static let flash = Self(rawValue: 1 << 3)
    public static let landscapeOrientation = Self(rawValue: 1 << 4)
    public static let portraitOrientation = Self(rawValue: 1 << 5)
    public static let favorite = Self(rawValue: 1 << 6)
    public static let selfie = Self(rawValue: 1 << 7)
    public static let frontFacingCamera = Self(rawValue: 1 << 8)
    public static let screenshot = Self(rawValue: 1 << 9)
    public static let burstPhoto = Self(rawValue: 1 << 10)
    public static let hdrPhoto = Self(rawValue: 1 << 11)
    public static let squarePhoto = Self(rawValue: 1 << 12)
    public static let panoramaPhoto = Self(rawValue: 1 << 13)
    public static let timeLapseVideo = Self(rawValue: 1 << 14)
    public static let slowMotionVideo = Self(rawValue: 1 << 15)
    public static let noirFilter = Self(rawValue: 1 << 16)
    public static let chromeFilter = Self(rawValue: 1 << 17)
    public static let instantFilter = Self(rawValue: 1 << 18)
    public static let monoFilter = Self(rawValue: 1 << 19)
    public static let fadeFilter = Self(rawValue: 1 << 20)
    public static let tonalFilter = Self(rawValue: 1 << 21)
    public static let transferFilter = Self(rawValue: 1 << 22)
    public static let processFilter = Self(rawValue: 1 << 23)
    public static let portraitPhoto = Self(rawValue: 1 << 24)
    public static let livePhoto = Self(rawValue: 1 << 25)
    public static let loopPhoto = Self(rawValue: 1 << 26)
    public static let bouncePhoto = Self(rawValue: 1 << 27)
    public static let longExposurePhoto = Self(rawValue: 1 << 28)

    /// The options a list of names sets; names it does not know are left out.
    init(names: [String]) {
        self.init(rawValue: names.reduce(0) { bits, name in bits | (Self.names.firstIndex(of: name).map { 1 << UInt($0) } ?? 0) })
    }

    /// The names of the options set, in bit order.
    var names: [String] { Self.names.enumerated().filter { rawValue & (1 << UInt($0.offset)) != 0 }.map(\.element) }
}
