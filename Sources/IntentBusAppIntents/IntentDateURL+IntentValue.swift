import Foundation
import IntentBusCore
import IntentBusMetadata
import IntentBusPlugin

// `Date` and `URL` as parameter values, in the text forms IntentBusMetadata's
// `IntentDateText` and `IntentURLText` define (the host checks a request's values by the
// same rules).
extension Date: IntentValue {
    public static var intentValueType: IntentValueType { .date }
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> Date {
        try immediateIntentValue(from: json, parameter: parameter)!
    }
    public static func immediateIntentValue(from json: JSON, parameter: String) throws -> Date? {
        if let s = json.stringValue, let parsed = IntentDateText.parse(s) { return parsed.date }
        throw wrongType(json, parameter: parameter, expected: IntentDateText.expectedForm)
    }
    public var intentJSON: JSON { .string(IntentDateText.format(self)) }
}

extension URL: IntentValue {
    public static var intentValueType: IntentValueType { .url }
    public static func intentValue(from json: JSON, parameter: String, context: PluginContext?) async throws -> URL {
        try immediateIntentValue(from: json, parameter: parameter)!
    }
    public static func immediateIntentValue(from json: JSON, parameter: String) throws -> URL? {
        if let s = json.stringValue, let parsed = IntentURLText.parse(s) { return parsed.url }
        throw wrongType(json, parameter: parameter, expected: IntentURLText.expectedForm)
    }
    public var intentJSON: JSON { .string(absoluteString) }
}
