import Foundation
import IntentBus

// json-canonical: the Swift side of the differential JSON fuzzer
// (clients/python/tests/test_fuzz_json_differential.py, docs/reliability.md).
//
// Reads one input per line on stdin, as hex (so that any bytes, newlines included, fit on
// a line), and answers each on stdout, in order:
//   ok <hex of the canonical JSON>     the input parsed; this is what Swift writes for it
//   err <message>                      the input was refused
// It exits at the end of stdin.
func hexDecode(_ line: Substring) -> [UInt8]? {
    let digits = Array(line.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(digits.count / 2)
    var i = 0
    while i < digits.count {
        guard let high = hexValue(digits[i]), let low = hexValue(digits[i + 1]) else { return nil }
        out.append(high << 4 | low)
        i += 2
    }
    return out
}

func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    default: nil
    }
}

let hexDigits = Array("0123456789abcdef".utf8)
/// Writes one answer line at once (unbuffered), so that the fuzzer reads it without waiting.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

while let line = readLine(strippingNewline: true) {
    guard let bytes = hexDecode(line[...]) else {
        emit("err the input line is not lower-case hex")
        continue
    }
    // JSON.parse reads an empty input as {} (an empty frame); the fuzzer wants the parser's verdict.
    if bytes.isEmpty {
        emit("err empty input")
        continue
    }
    do {
        let canonical = try JSON.parse(Data(bytes)).canonicalData
        var out = [UInt8]("ok ".utf8)
        out.reserveCapacity(3 + canonical.count * 2)
        for b in canonical { out.append(hexDigits[Int(b >> 4)]); out.append(hexDigits[Int(b & 15)]) }
        emit(String(decoding: out, as: UTF8.self))
    } catch {
        emit("err \(error.description.replacingOccurrences(of: "\n", with: " "))")
    }
}
