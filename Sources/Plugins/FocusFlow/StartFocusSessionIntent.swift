import AppIntents

struct StartFocusSessionIntent: AppIntent {
    static let title: LocalizedStringResource = "Fokus-Session starten"
    static let description = IntentDescription(
        "Startet eine Fokus-Session mit der angegebenen Dauer.",
        categoryName: "Produktivität"
    )

    // openAppWhenRun steuert, ob die App in den Vordergrund kommt.
    // Für Hintergrund-Aktionen (typischer Fall) auf false lassen.
    static let openAppWhenRun: Bool = false

    @Parameter(
        title: "Dauer",
        description: "Länge der Session in Minuten.",
        default: 25,
        controlStyle: .field,
        inclusiveRange: (5, 180)
    )
    var minutes: Int

    func perform() async throws -> some IntentResult & ProvidesDialog {
        try await FocusSessionManager.shared.start(minutes: minutes)
        let dialog = IntentDialog("Fokus-Session für \(minutes) Minuten gestartet.")
        return .result(dialog: dialog)
    }
}
