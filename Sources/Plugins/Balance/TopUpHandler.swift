import Intents

/// TopUpIntent: only 5-euro steps; asks before large amounts; the booking is slow and
/// reports progress while it runs (`INIntentProgress`, which SiriKit has no counterpart
/// of). Written in Xcode's async forms.
final class TopUpHandler: TopUpIntentHandling {
    func resolveAmount(for intent: TopUpIntent) async -> INIntegerResolutionResult {
        guard let amount = intent.amount?.intValue else { return .needsValue() }
        if amount % 5 != 0 { return .unsupported(forReason: "notMultipleOfFive") }
        if amount > 50 { return .confirmationRequired(with: NSNumber(value: amount)) }
        return .success(with: amount)
    }

    func handle(intent: TopUpIntent) async -> TopUpIntentResponse {
        guard !account.loggedOut, let amount = intent.amount?.intValue else {
            return TopUpIntentResponse(code: .userMissing, userActivity: nil)
        }
        let steps = ["Zahlung wird autorisiert", "Guthaben wird gebucht", "Buchung wird bestätigt"]
        for (i, step) in steps.enumerated() {
            INIntentProgress.report(step + "…", fraction: Double(i + 1) / Double(steps.count))
            try? await Task.sleep(for: .milliseconds(300))
        }
        guard let c = account.topUp(amount) else { return TopUpIntentResponse(code: .failure, userActivity: nil) }
        return .success(amount: euros(amount * 100), balance: euros(c.balanceCents))
    }
}
