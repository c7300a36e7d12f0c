import Intents

/// The app's backend call, answering on another thread as a network call does.
/// `BALANCE_CONTRACT` picks the contract's counters (`dataAndPhone`, the default;
/// `data`; `phone`; `classic`, none); `BALANCE_BACKEND_DOWN=1` makes the call fail.
struct UserStatusHandler {
    func request(completion: @escaping (Bool, Any?) -> Void) {
        let environment = ProcessInfo.processInfo.environment
        let data = Counter(type: .dataVolume, leftString: "11,0 GB", totalString: "11,0 GB", unitDescription: "")
        let phone = Counter(type: .inclusiveUnits, leftString: "200", totalString: "300", unitDescription: "Freiminuten")
        let counters: [Counter] = switch environment["BALANCE_CONTRACT"] ?? "dataAndPhone" {
        case "data": [data]
        case "phone": [phone]
        case "classic": []
        default: [data, phone]
        }
        let down = environment["BALANCE_BACKEND_DOWN"] == "1"
        let response = HomeResponse(balanceString: "1,21 €", counters: counters)
        nonisolated(unsafe) let answer = completion
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            down ? answer(false, nil) : answer(true, response)
        }
    }
}
