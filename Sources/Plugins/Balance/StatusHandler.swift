import Intents

/// StatusIntent: picks the code by what the contract has, as the FONIC extension does.
final class StatusHandler: StatusIntentHandling {
    func handle(intent: StatusIntent, completion: @escaping (StatusIntentResponse) -> Void) {
        guard !account.loggedOut, let c = account.active else {
            completion(StatusIntentResponse(code: .userMissing, userActivity: nil))
            return
        }
        let balance = euros(c.balanceCents)
        switch (c.data, c.phone) {
        case let (data?, phone?):
            completion(.successDataAndPhone(dataUnitsLeft: data.left, dataUnitsTotal: data.total, phoneUnitsLeft: phone.left,
                                            phoneUnitsTotal: phone.total, phoneDescription: phone.description, balance: balance))
        case let (data?, nil):
            completion(.successData(dataUnitsLeft: data.left, dataUnitsTotal: data.total, balance: balance))
        case let (nil, phone?):
            completion(.successPhone(phoneUnitsLeft: phone.left, phoneUnitsTotal: phone.total,
                                     phoneDescription: phone.description, balance: balance))
        case (nil, nil):
            completion(.success(balance: balance))
        }
    }
}
