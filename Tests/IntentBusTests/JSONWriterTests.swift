import Foundation
import Testing
import IntentBusCore

/// `JSON.canonicalString` as `JSONWriter` writes it: Python's
/// `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`.
@Suite("JSON canonical writer")
struct JSONWriterTests {
    @Test("escapes, control characters and non-ASCII text as Python writes them")
    func strings() {
        #expect(JSON.string("plain / text").canonicalString == #""plain / text""#)
        #expect(JSON.string("q\"b\\n\nr\rt\tb\u{08}f\u{0C}z\u{01}\u{1F}").canonicalString
                == #""q\"b\\n\nr\rt\tb\bf\fz\u0001\u001f""#)
        #expect(JSON.string("héllo ✓ 😀").canonicalString == "\"héllo ✓ 😀\"")
        #expect(JSON.string("").canonicalString == "\"\"")
    }

    @Test("keys sorted by code point")
    func keyOrder() {
        let o: JSON = .object(["b": 1, "a": 2, "Z": 3, "é": 4, "😀": 5, "ﬀ": 6, "aa": 7, "": 8])
        // Python: sorted(["b","a","Z","é","😀","ﬀ","aa",""]), by code point.
        #expect(o.canonicalString == #"{"":8,"Z":3,"a":2,"aa":7,"b":1,"é":4,"ﬀ":6,"😀":5}"#)
        #expect(JSON.object(["k": .array([1, .null, true, "x"])]).canonicalString == #"{"k":[1,null,true,"x"]}"#)
    }

    @Test("numbers: integers at the edges, integral and fractional decimals")
    func numbers() {
        #expect(JSON.int(0).canonicalString == "0")
        #expect(JSON.int(-7).canonicalString == "-7")
        #expect(JSON.int(Int64.min).canonicalString == "-9223372036854775808")
        #expect(JSON.int(Int64.max).canonicalString == "9223372036854775807")
        #expect(JSON.double(3).canonicalString == "3.0")
        #expect(JSON.double(-0.0).canonicalString == "-0.0")
        #expect(JSON.double(0.5).canonicalString == "0.5")
        #expect(JSON.double(.infinity).canonicalString == "null")
        #expect(JSON.array([]).canonicalString == "[]")
        #expect(JSON.object([:]).canonicalString == "{}")
    }

    @Test("what it writes parses back to the same value")
    func roundTrip() throws {
        let v: JSON = ["a": ["b": [1, 2.5, "c\"d"], "e": .null], "f": false, "g": "\u{7F}\u{80}"]
        #expect(try JSON.parse(v.canonicalData) == v)
        #expect(v.canonicalData == Data(v.canonicalString.utf8))
    }
}

@Suite("JSON accessors")
struct JSONAccessorTests {
    @Test("stringElements: an array's strings in order, the rest left out, as compactMap(\\.stringValue) gives them")
    func stringElements() throws {
        let values: [JSON] = [["a", "b", "c"], [], ["a", 1, .null, "d", ["x"], true, "e"], "abc", 5, .null, ["k": "v"],
                              .array((0..<40).map { .string("code\($0)") })]
        for v in values {
            #expect(v.stringElements == v.arrayValue?.compactMap(\.stringValue), "\(v.canonicalString)")
        }
        #expect(JSON.array(["a", 1, "b"]).stringElements == ["a", "b"])
        #expect(JSON.string("a").stringElements == nil)
    }
}
