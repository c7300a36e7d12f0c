import Foundation
import IntentBusCore

/// The wire forms of `date` and `url` parameters (docs/protocol.md §9.1), shared by the
/// host's checks and the Swift SDK so both accept exactly the same text.
///
/// A date is one of two ISO 8601 forms:
/// - date only, `2026-12-01`: kept as written; the SDK reads it as midnight UTC;
/// - date and time with a required offset, `2026-12-01T09:30+01:00`,
///   `2026-12-01T09:30:00+01:00` or `…Z`: normalised to UTC with seconds,
///   `2026-12-01T08:30:00Z`.
///
/// Nothing else (no week dates, no fractions of a second, no local time without an
/// offset): an offset-less time would mean a different instant on every machine.
public enum IntentDateText {
    /// How the host describes the accepted forms in its errors.
    public static let expectedForm = "an ISO 8601 date (2026-12-01) or date and time with offset (2026-12-01T09:30:00+01:00)"

    /// The normalised text and the instant, or nil when `text` is not an accepted form.
    public static func parse(_ text: String) -> (normalised: String, date: Date)? {
        let c = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= c.count else { return nil }
            var n = 0
            for b in c[from..<from + count] {
                guard b >= 48 && b <= 57 else { return nil }
                n = n * 10 + Int(b - 48)
            }
            return n
        }
        guard c.count >= 10, let year = number(0, 4), c[4] == 45, let month = number(5, 2), c[7] == 45,
              let day = number(8, 2), year >= 1, (1...12).contains(month),
              (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        let days = daysFromCivil(year, month, day)
        if c.count == 10 {
            return (text, Date(timeIntervalSince1970: Double(days) * 86_400))
        }
        // "T" HH ":" MM [":" SS] ("Z" | ("+"|"-") HH ":" MM)
        guard c[10] == 84, let hour = number(11, 2), c.count > 13, c[13] == 58, let minute = number(14, 2),
              hour < 24, minute < 60 else { return nil }
        var i = 16
        var second = 0
        if i < c.count, c[i] == 58 {
            guard let s = number(i + 1, 2), s < 60 else { return nil }
            second = s
            i += 3
        }
        var offset = 0
        if i + 1 == c.count, c[i] == 90 {
            offset = 0
        } else if i + 6 == c.count, c[i] == 43 || c[i] == 45, let oh = number(i + 1, 2), c[i + 3] == 58,
                  let om = number(i + 4, 2), oh < 24, om < 60 {
            offset = (oh * 60 + om) * 60 * (c[i] == 45 ? -1 : 1)
        } else {
            return nil
        }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        let date = Date(timeIntervalSince1970: Double(seconds))
        return (format(date, dateOnly: false), date)
    }

    /// The wire text of a `Date`: date only when it is midnight UTC, else UTC date and
    /// time with seconds (fractions dropped).
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        return format(date, dateOnly: seconds % 86_400 == 0)
    }

    private static func format(_ date: Date, dateOnly: Bool) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (y, m, d) = civilFromDays(days)
        let ymd = String(format: "%04d-%02d-%02d", y, m, d)
        if dateOnly { return ymd }
        let rest = seconds - days * 86_400
        return ymd + String(format: "T%02d:%02d:%02dZ", rest / 3600, rest % 3600 / 60, rest % 60)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil: proleptic Gregorian, no calendar object needed,
    // so the result is the same whatever the machine's time zone or locale.
    private static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// The wire form of a `url` parameter: an absolute URL, scheme required
/// (`https://example.com/a`, `mailto:a@b.c`), kept as written (surrounding spaces trimmed).
public enum IntentURLText {
    /// How the host describes the accepted form in its errors.
    public static let expectedForm = "an absolute URL with a scheme (https://example.com/page)"

    /// The normalised text and the `URL`, or nil for a relative or malformed URL.
    public static func parse(_ text: String) -> (normalised: String, url: URL)? {
        let s = text.trimmingCharacters(in: .whitespaces)
        guard let components = URLComponents(string: s), let scheme = components.scheme, !scheme.isEmpty,
              s.count > scheme.count + 1, let url = components.url else { return nil }
        return (s, url)
    }
}
