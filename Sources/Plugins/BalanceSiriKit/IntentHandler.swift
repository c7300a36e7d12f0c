import Intents

/// The extension's principal class, as the FONIC app's: it handles StatusIntent itself,
/// SwitchContractIntent with its own handler.
/// `handle(intent:completion:)` and `statusIntentResponse(from:)` are seed 000's, as the
/// seed writes them; only the app's model (`UserStorage`, `UserStatusHandler`,
/// `HomeResponse`) and the four response helpers the seed calls are written here.
class IntentHandler: INExtension, StatusIntentHandling {
    let userStorage = UserStorage()
    let userStatusHandler = UserStatusHandler()

    override func handler(for intent: INIntent) -> Any {
        if intent is SwitchContractIntent { return SwitchContractHandler() }
        return self
    }

    func handle(intent: StatusIntent, completion: @escaping (StatusIntentResponse) -> Void) {

        guard userStorage.activeUser() != nil else {

            completion(StatusIntentResponse(code: .userMissing, userActivity: nil))

            return

        }

        userStatusHandler.request(completion: { (success, response) in

            guard let response = response as? HomeResponse, success == true else {

                completion(StatusIntentResponse(code: .continueInApp, userActivity: nil))

                return

            }

            completion(self.statusIntentResponse(from: response))

        })

    }

    private func statusIntentResponse(from response: HomeResponse) -> StatusIntentResponse {

        let dataCounter = response.counters.filter({ $0.type == .dataVolume }).first

        let inclusiveUnitsCounter = response.counters.filter({ $0.type == .inclusiveUnits }).first

        if let dataCounter = dataCounter, let inclusiveUnitsCounter = inclusiveUnitsCounter {

            return dataAndPhoneIntentResponse(dataCounter: dataCounter, inclusiveUnitsCounter: inclusiveUnitsCounter, balance: response.balanceString)

        } else if let dataCounter = dataCounter {

            return dataIntentResponse(dataCounter: dataCounter, balance: response.balanceString)

        } else if let inclusiveUnitsCounter = inclusiveUnitsCounter {

            return inclusiveUnitsIntentResponse(inclusiveUnitsCounter: inclusiveUnitsCounter, balance: response.balanceString)

        } else {

            return classicIntentResponse(from: response)

        }

    }
}
