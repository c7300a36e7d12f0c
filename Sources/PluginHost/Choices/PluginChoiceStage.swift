import Foundation

/// What an exchange in the "choosing" stage remembers: the plugins offered, and how
/// many unusable answers the client has sent.
final class PluginChoiceStage {
    let candidates: [Int]
    /// Why the client's default no longer applies, repeated when asking again.
    let staleReason: String?
    var badAnswers = 0

    init(candidates: [Int], staleReason: String?) {
        self.candidates = candidates
        self.staleReason = staleReason
    }
}
