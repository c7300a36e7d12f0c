import Intents

/// One of a contract's counters, as the app shows it ("11,0 GB" of "11,0 GB").
struct Counter {
    enum Kind { case dataVolume, inclusiveUnits }
    let type: Kind
    let leftString: String
    let totalString: String
    /// What the units are ("Freiminuten"); empty for data.
    let unitDescription: String
}
