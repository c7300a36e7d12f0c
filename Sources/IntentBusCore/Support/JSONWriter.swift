/// Writes a `JSON` value's canonical text as UTF-8 bytes (`JSON.canonicalData` and
/// `canonicalString`): sorted keys, no insignificant whitespace, "/" not escaped,
/// non-ASCII left as UTF-8, as Python's
/// `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` writes it.
///
/// Into a byte array rather than a `String`: appending to a `String` piece by piece, and
/// sorting keys by their Unicode scalars, cost about 100 instructions per byte written,
/// the largest part of a new-style request's cost in the host (callgrind,
/// docs/performance.md, "`perform()` and legacy phases").
///
/// Package-visible for the writers that know their object's keys in advance (the legacy
/// flow's final REPLY, LegacyFlow+Finish.swift): they write the keys in canonical order
/// themselves (`key`) and each value with `write`, with no dictionary to build or sort.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 128) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends ASCII punctuation as it is: `{`, `}`, `,`.
    package mutating func raw(_ byte: UInt8) { bytes.append(byte) }

    /// JSON text written in the source, copied as it is in one piece: punctuation and keys
    /// that need no escape (`{"code":`, `,"dialog":`), for a writer that writes its object's
    /// members in canonical order itself, as `key` does one key.
    package mutating func text(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A value's canonical text (its `canonicalBytes`, as a reader that checked them has
    /// them), copied as it is: what `write` would write for that value.
    package mutating func canonical(_ text: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: text)
    }

    /// An object member's key, written in the source, and its colon; the caller writes the
    /// keys in canonical order (by their UTF-8 bytes, as `write` sorts them) and the commas
    /// between members. The key must need no escape (printable ASCII but `"` and `\`): it
    /// is copied as it is.
    package mutating func key(_ key: StaticString) {
        assert(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount).allSatisfy {
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        })
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func write(_ value: JSON) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .int(let i): writeInteger(i)
        case .double(let d):
            if d.isFinite, d == d.rounded(), abs(d) < 1e16 {
                // Integral decimals print like Python's repr: "3.0", and "-0.0" keeps its sign.
                if d == 0 && d.sign == .minus { append("-0") } else { writeInteger(Int64(d)) }
                append(".0")
            } else if d.isFinite {
                append("\(d)")
            } else {
                append("null")
            }
        case .string(let s): writeString(s)
        case .array(let a):
            bytes.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(v)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let o):
            bytes.append(UInt8(ascii: "{"))
            if o.count == 1, let (key, v) = o.first {
                writeMember(key, v)
            } else {
                // By code point, as Python sorts, which is the order of the UTF-8 bytes
                // (Swift's own String order compares normalized forms, which differs for
                // keys that are not in NFC).
                for (i, member) in o.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
                    if i > 0 { bytes.append(UInt8(ascii: ",")) }
                    writeMember(member.key, member.value)
                }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func writeMember(_ key: String, _ value: JSON) {
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        write(value)
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func writeInteger(_ i: Int64) {
        if i >= 0 && i < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(i))
        } else {
            append(String(i))  // at most 20 bytes: a small string, no allocation
        }
    }

    /// A string in quotes. Only `"`, `\` and the control characters are escaped; they are
    /// all ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII, so the runs between
    /// them are copied in bulk as they are (`JSONByteScan`).
    package mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s  // native Strings give their UTF-8 in place: no copy
        s.withUTF8 { utf8 in
            var start = 0, nonASCII = false
            while true {
                let end = JSONByteScan.plainRunEnd(utf8, from: start, nonASCII: &nonASCII)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<end]))
                guard end < utf8.count else { break }
                writeEscape(utf8[end])
                start = end + 1
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case UInt8(ascii: "\n"): append("\\n")
        case UInt8(ascii: "\r"): append("\\r")
        case UInt8(ascii: "\t"): append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            append("\\u00")
            let hex: StaticString = "0123456789abcdef"
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0xF)])
        }
    }
}
