import Intents

/// The app's answer from its backend: the balance and the contract's counters.
struct HomeResponse {
    let balanceString: String
    let counters: [Counter]
}
