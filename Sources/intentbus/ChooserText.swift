/// The CLI's own words around a prompt (the "Choose 1–3:" line, the yes/no hint), in
/// the language of the prompt's dialog: a legacy definition's prompts carry `language`
/// (docs/protocol.md §4.4), so a German dialog is not followed by an English chooser.
/// English for every other language and for prompts without one.
struct ChooserText {
    let choose: (Int) -> String
    let chooseOrValue: (Int) -> String
    let chooseOrName: (Int) -> String
    let pickNumber: (Int) -> String
    let yesNo: String
    let answerYesNo: String
    let nameOrId: String

    static func forLanguage(_ language: String?) -> ChooserText {
        switch language {
        case "de":
            ChooserText(choose: { "Wählen Sie 1–\($0): " }, chooseOrValue: { "Wählen Sie 1–\($0) oder geben Sie einen Wert ein: " },
                        chooseOrName: { "Wählen Sie 1–\($0) oder geben Sie einen Namen ein: " },
                        pickNumber: { "Bitte eine Zahl von 1 bis \($0) eingeben." },
                        yesNo: "[j/n]", answerYesNo: "Bitte mit j oder n antworten.", nameOrId: "(ein Name oder eine ID)")
        default:
            ChooserText(choose: { "Choose 1–\($0): " }, chooseOrValue: { "Choose 1–\($0) or type a value: " },
                        chooseOrName: { "Choose 1–\($0) or type a name: " },
                        pickNumber: { "Please type a number from 1 to \($0)." },
                        yesNo: "[y/n]", answerYesNo: "Please answer y or n.", nameOrId: "(a name or id)")
        }
    }
}
