import Foundation
import Testing
@testable import IntentBus

@Suite("List resolution (SDK)")
struct ListResolutionUnitTests {
    @Test("one result per item is an array on the wire")
    func itemsJSON() {
        let r = ResolutionResult.items([.needsValue, .success("x")])
        #expect(r.json.canonicalString == #"[{"result":"needsValue"},{"result":"success","value":"x"}]"#)
    }
}
