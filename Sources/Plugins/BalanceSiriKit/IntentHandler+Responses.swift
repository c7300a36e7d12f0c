import Intents

// The response helpers seed 000's statusIntentResponse(from:) calls (the seed does not
// show them): each fills the generated per-code initializer from the app's counters.
extension IntentHandler {
    func dataAndPhoneIntentResponse(dataCounter: Counter, inclusiveUnitsCounter: Counter, balance: String) -> StatusIntentResponse {
        .successDataAndPhone(dataUnitsLeft: dataCounter.leftString, dataUnitsTotal: dataCounter.totalString,
                             phoneUnitsLeft: inclusiveUnitsCounter.leftString, phoneUnitsTotal: inclusiveUnitsCounter.totalString,
                             phoneDescription: inclusiveUnitsCounter.unitDescription, balance: balance)
    }

    func dataIntentResponse(dataCounter: Counter, balance: String) -> StatusIntentResponse {
        .successData(dataUnitsLeft: dataCounter.leftString, dataUnitsTotal: dataCounter.totalString, balance: balance)
    }

    func inclusiveUnitsIntentResponse(inclusiveUnitsCounter: Counter, balance: String) -> StatusIntentResponse {
        .successPhone(phoneUnitsLeft: inclusiveUnitsCounter.leftString, phoneUnitsTotal: inclusiveUnitsCounter.totalString,
                      phoneDescription: inclusiveUnitsCounter.unitDescription, balance: balance)
    }

    func classicIntentResponse(from response: HomeResponse) -> StatusIntentResponse {
        .success(balance: response.balanceString)
    }
}
