import Foundation
import IntentBus

// The parts of App Intents that tell a client how to present an intent, for
// AppIntentsPresentationTests (NEWSTYLE_PRESENTATION=1): parameterSummary with When,
// controlStyle, inputOptions, IntentDialog's supporting text and image, a hidden intent,
// an entity image. NEWSTYLE_BROKEN=summary sends what another language's SDK might get
// wrong in the same declarations (a summary naming no parameter, a control style on text).

/// A session with a summary that depends on whether a label is given.
struct PlanSessionIntent: AppIntent {
    static let title: LocalizedStringResource = "Session planen"
    static let isDiscoverable = false

    @Parameter(title: "Dauer", controlStyle: .slider, inclusiveRange: (5, 120)) var minutes: Int
    @Parameter(title: "Label") var label: String?
    @Parameter(title: "Notiz", inputOptions: String.IntentInputOptions(capitalizationType: .none, multiline: true)) var note: String?

    static var parameterSummary: some ParameterSummary {
        When(\.$label, .hasAnyValue) {
            Summary("Plane \(\.$minutes) Minuten für \(\.$label)") { \.$note }
        } otherwise: {
            Summary("Plane \(\.$minutes) Minuten")
        }
    }

    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: IntentDialog(full: "Geplant: \(minutes) Minuten\(label.map { " für \($0)" } ?? "").",
                                     supporting: "Geplant.", systemImageName: "calendar"))
    }
}

/// Asks mid-perform for a text with input options, and compares an enum-free value in its summary.
struct ContactIntent: AppIntent {
    static let title: LocalizedStringResource = "Kontakt aufnehmen"

    @Parameter(title: "Weg") var channel: String
    @Parameter(title: "E-Mail", inputOptions: String.IntentInputOptions(keyboardType: .emailAddress, capitalizationType: .none,
                                                                           autocorrect: false))
    var address: String

    static var parameterSummary: some ParameterSummary {
        When(\.$channel, .equalTo, "mail") {
            Summary("Schreibe an \(\.$address)")
        } otherwise: {
            Summary("Kontaktiere über \(\.$channel)")
        }
    }

    func perform() async throws -> some IntentResult & ProvidesDialog {
        // A second address, asked by the plugin itself: its PROMPT carries the input options too.
        let copy = try await $address.requestValue("Und eine Kopie an?")
        return .result(dialog: "An \(address), Kopie an \(copy)")
    }
}

/// Breaks the presentation rules in the wire form, as a plugin in another language might.
func breakPresentation(_ plugin: IntentPlugin) {
    guard var section = plugin.metadata.objectValue, var intents = section["intents"]?.arrayValue,
          let i = intents.firstIndex(where: { $0["identifier"] == "PlanSessionIntent" }),
          var intent = intents[i].objectValue, var parameters = intent["parameters"]?.arrayValue else { return }
    intent["summary"] = ["text": "Plane ${stunden} Stunden", "parameters": ["notiz"]]
    if var label = parameters[1].objectValue {
        label["control_style"] = "slider"
        parameters[1] = .object(label)
    }
    intent["parameters"] = .array(parameters)
    intents[i] = .object(intent)
    section["intents"] = .array(intents)
    plugin.runtime.metadata = ["new_style": .object(section)]
}
