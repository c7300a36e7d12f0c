import Foundation
import IntentBusCore
import IntentBusPlugin

/// What `perform()` returns (App Intents' `IntentResult`), composed of the protocols of
/// its parts: `some IntentResult & ProvidesDialog & ReturnsValue<ProjectEntity>`. Build
/// one with a `.result(…)` overload; the parts travel in the REPLY body (docs/results.md).
public protocol IntentResult: Sendable {
    /// IntentBus's own: the parts on the wire, which the SDK's one result type carries (nil
    /// for any other type). A requirement, not a cast, so that reading them costs a witness
    /// call per `perform()` rather than a conformance lookup and a box (docs/performance.md).
    var _intentBusParts: _IntentResultParts? { get }
}

extension IntentResult {
    public var _intentBusParts: _IntentResultParts? { nil }
}

/// A result's parts, opaque outside the SDK (see `IntentResult._intentBusParts`).
public struct _IntentResultParts: Sendable {
    let parts: IntentResultParts
}

/// A result with a dialog (`.result(dialog:)`): the body's `dialog`, in the client's locale.
public protocol ProvidesDialog: IntentResult {}

/// A result with a value (`.result(value:)`): the body's `value`; an entity is
/// `{"id", "title", "subtitle", "type"}`, a list an array.
public protocol ReturnsValue<Value>: IntentResult {
    associatedtype Value: Sendable
}

/// A result that opens another intent (`.result(opensIntent:)`): the host runs it next in
/// the same conversation (the body's `opens_intent`, docs/protocol.md §4.9).
public protocol OpensIntent: IntentResult {}

/// A result shown as a snippet (`.result(view:)`). The snippet is the host's checked
/// `view` (rows, each with follow-up intents); a SwiftUI view has no counterpart here.
public protocol ShowsSnippetView: IntentResult {}

/// Something shown as an interactive snippet: `SnippetView` itself, or a type of the
/// plugin's that builds one (the counterpart of a snippet's SwiftUI `View`).
public protocol SnippetContent: Sendable {
    /// The rows to show.
    var snippetView: SnippetView { get }
}

extension SnippetView: SnippetContent {
    public var snippetView: SnippetView { self }
}

/// The one concrete result type; its generic parameters say which parts it has (`Never`
/// for none), so that the protocols above hold exactly for the parts it carries.
public struct IntentResultContainer<Value: Sendable, ToOpen: Sendable, Content: Sendable, Dialog: Sendable>: IntentResult {
    let parts: IntentResultParts
}

extension IntentResultContainer: ProvidesDialog where Dialog == IntentDialog {}
extension IntentResultContainer: ReturnsValue where Value: IntentValue {}
extension IntentResultContainer: OpensIntent where ToOpen: AppIntent {}
extension IntentResultContainer: ShowsSnippetView where Content: SnippetContent {}

/// A result's parts, as they go on the wire.
struct IntentResultParts: Sendable {
    var value: JSON?
    var opens: OpenedIntent?
    var dialog: IntentDialog?
    var view: SnippetView?
    /// Free-form data the host passes on unread (IntentBus's `snippet`; no Apple counterpart).
    var snippet: JSON?
}

extension IntentResultParts {
    /// The REPLY body's canonical text: `dialog` (with `supporting_dialog` and
    /// `dialog_image` when set), `value` (absent when nil or null), `snippet`,
    /// `opens_intent`, `view`, and `continue_in_app: true` when `continueInApp` (absent
    /// parts left out), as `JSON.canonicalBytes` would write that object: the members in the
    /// byte order of their keys, one by one, with no dictionary built and sorted for them
    /// (PluginSDKHotPathTests compares the bytes with such an object's).
    func canonicalBody(continueInApp: Bool) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        var first = true
        func member(_ key: StaticString, _ value: JSON) {
            w.raw(UInt8(ascii: first ? "{" : ","))
            first = false
            w.key(key)
            w.write(value)
        }
        if continueInApp { member("continue_in_app", true) }
        if let dialog { member("dialog", .string(dialog.text)) }
        if let image = dialog?.systemImageName { member("dialog_image", .string(image)) }
        if let opens { member("opens_intent", opens.json) }
        if let snippet { member("snippet", snippet) }
        if let supporting = dialog?.supporting { member("supporting_dialog", .string(supporting.resolved())) }
        if let value, !value.isNull { member("value", value) }
        if let view { member("view", view.json) }
        if first { w.raw(UInt8(ascii: "{")) }
        w.raw(UInt8(ascii: "}"))
        return w.bytes
    }
}

extension IntentResultContainer {
    public var _intentBusParts: _IntentResultParts? { _IntentResultParts(parts: parts) }
}

// Every `.result(…)` overload of App Intents: any of value, opensIntent, dialog and view,
// in that order. Each also takes IntentBus's `snippet:` (free-form data for clients).
extension IntentResult {
    /// A result with no parts.
    public static func result(snippet: JSON? = nil) -> Self where Self == IntentResultContainer<Never, Never, Never, Never> {
        IntentResultContainer(parts: IntentResultParts(snippet: snippet))
    }

    /// A result with value.
    public static func result<V: IntentValue>(value: V, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<V, Never, Never, Never> {
        IntentResultContainer(parts: IntentResultParts(value: value.intentJSON, snippet: snippet))
    }

    /// A result with opensIntent.
    public static func result<I: AppIntent>(opensIntent: I, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<Never, I, Never, Never> {
        IntentResultContainer(parts: IntentResultParts(opens: OpenedIntent(opensIntent), snippet: snippet))
    }

    /// A result with value, opensIntent.
    public static func result<V: IntentValue, I: AppIntent>(value: V, opensIntent: I, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<V, I, Never, Never> {
        IntentResultContainer(parts: IntentResultParts(value: value.intentJSON, opens: OpenedIntent(opensIntent), snippet: snippet))
    }

    /// A result with dialog.
    public static func result(dialog: IntentDialog, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<Never, Never, Never, IntentDialog> {
        IntentResultContainer(parts: IntentResultParts(dialog: dialog, snippet: snippet))
    }

    /// A result with value, dialog.
    public static func result<V: IntentValue>(value: V, dialog: IntentDialog, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<V, Never, Never, IntentDialog> {
        IntentResultContainer(parts: IntentResultParts(value: value.intentJSON, dialog: dialog, snippet: snippet))
    }

    /// A result with opensIntent, dialog.
    public static func result<I: AppIntent>(opensIntent: I, dialog: IntentDialog, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<Never, I, Never, IntentDialog> {
        IntentResultContainer(parts: IntentResultParts(opens: OpenedIntent(opensIntent), dialog: dialog, snippet: snippet))
    }

    /// A result with value, opensIntent, dialog.
    public static func result<V: IntentValue, I: AppIntent>(value: V, opensIntent: I, dialog: IntentDialog, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<V, I, Never, IntentDialog> {
        IntentResultContainer(parts: IntentResultParts(value: value.intentJSON, opens: OpenedIntent(opensIntent), dialog: dialog, snippet: snippet))
    }

    /// A result with view.
    public static func result<C: SnippetContent>(view: C, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<Never, Never, C, Never> {
        IntentResultContainer(parts: IntentResultParts(view: view.snippetView, snippet: snippet))
    }

    /// A result with value, view.
    public static func result<V: IntentValue, C: SnippetContent>(value: V, view: C, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<V, Never, C, Never> {
        IntentResultContainer(parts: IntentResultParts(value: value.intentJSON, view: view.snippetView, snippet: snippet))
    }

    /// A result with opensIntent, view.
    public static func result<I: AppIntent, C: SnippetContent>(opensIntent: I, view: C, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<Never, I, C, Never> {
        IntentResultContainer(parts: IntentResultParts(opens: OpenedIntent(opensIntent), view: view.snippetView, snippet: snippet))
    }

    /// A result with value, opensIntent, view.
    public static func result<V: IntentValue, I: AppIntent, C: SnippetContent>(value: V, opensIntent: I, view: C, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<V, I, C, Never> {
        IntentResultContainer(parts: IntentResultParts(value: value.intentJSON, opens: OpenedIntent(opensIntent), view: view.snippetView, snippet: snippet))
    }

    /// A result with dialog, view.
    public static func result<C: SnippetContent>(dialog: IntentDialog, view: C, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<Never, Never, C, IntentDialog> {
        IntentResultContainer(parts: IntentResultParts(dialog: dialog, view: view.snippetView, snippet: snippet))
    }

    /// A result with value, dialog, view.
    public static func result<V: IntentValue, C: SnippetContent>(value: V, dialog: IntentDialog, view: C, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<V, Never, C, IntentDialog> {
        IntentResultContainer(parts: IntentResultParts(value: value.intentJSON, dialog: dialog, view: view.snippetView, snippet: snippet))
    }

    /// A result with opensIntent, dialog, view.
    public static func result<I: AppIntent, C: SnippetContent>(opensIntent: I, dialog: IntentDialog, view: C, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<Never, I, C, IntentDialog> {
        IntentResultContainer(parts: IntentResultParts(opens: OpenedIntent(opensIntent), dialog: dialog, view: view.snippetView, snippet: snippet))
    }

    /// A result with value, opensIntent, dialog, view.
    public static func result<V: IntentValue, I: AppIntent, C: SnippetContent>(value: V, opensIntent: I, dialog: IntentDialog, view: C, snippet: JSON? = nil) -> Self where Self == IntentResultContainer<V, I, C, IntentDialog> {
        IntentResultContainer(parts: IntentResultParts(value: value.intentJSON, opens: OpenedIntent(opensIntent), dialog: dialog, view: view.snippetView, snippet: snippet))
    }
}
