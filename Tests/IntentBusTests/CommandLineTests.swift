import Foundation
import Testing
import IntentBusCLI

/// The declarative command-line parser (Sources/IntentBusCLI), driven without a process.
@Suite("Command-line parser")
struct CommandLineTests {
    static let send = CommandSpec(
        name: "send", summary: "send a request",
        positionals: [PositionalSpec("INTENT", completion: .dynamic("intents")), PositionalSpec("key=value", variadic: true)],
        options: [
            .value("timeout", "S", "seconds to wait", check: { Double($0).map { $0 > 0 } == true ? nil : "takes seconds > 0" }),
            .value("choice", "POLICY", "when several claim it", choices: ["ask", "fail", "default"]),
            .repeated("answer", "name=value", "answer a prompt\nwithout asking"),
            .flag("json", "print JSON"),
            .value("config", "FILE", "the manifest", completion: .file),
        ])
    static let choices = CommandSpec(
        name: "choices", summary: "remembered choices", subcommands: ["list", "set", "reset"],
        positionals: [PositionalSpec("INTENT"), PositionalSpec("PLUGIN")], options: [.flag("all", "everything")])
    static let tool = ToolSpec(name: "tool", summary: "A tool.", commands: [send, choices])

    @Test("flags, values (both spellings), repeated values, positionals and --")
    func parsesWhatIsDeclared() throws {
        let a = try ParsedArguments(["Echo", "n=1", "--timeout", "2", "--json", "--answer", "a=1", "--answer=b=2",
                                     "--choice=fail", "--", "--not-an-option"], spec: Self.send)
        #expect(a.positionals == ["Echo", "n=1", "--not-an-option"])
        #expect(a.value("timeout") == "2")
        #expect(a.flag("json"))
        #expect(!a.flag("help"))
        #expect(a.values("answer") == ["a=1", "b=2"])
        #expect(a.value("choice") == "fail")
        #expect(a.value("config") == nil)
        // A negative number is an argument, not an option.
        #expect(try ParsedArguments(["Echo", "-3"], spec: Self.send).positionals == ["Echo", "-3"])
    }

    @Test("--help and -h win over anything else before --")
    func help() throws {
        #expect(try ParsedArguments(["--bogus", "-h"], spec: Self.send).flag("help"))
        #expect(try ParsedArguments(["--help"], spec: Self.choices).flag("help"))
        let after = try ParsedArguments(["X", "--", "--help"], spec: Self.send)
        #expect(!after.flag("help"))
        #expect(after.positionals == ["X", "--help"])
    }

    @Test("a mistyped option, choice, subcommand or command gets 'did you mean'")
    func didYouMean() {
        #expect(throws: UsageError("unknown option --tiemout for send; did you mean --timeout?")) {
            try ParsedArguments(["X", "--tiemout", "3"], spec: Self.send)
        }
        #expect(throws: UsageError("--choice is ask, fail or default, got \"fial\"; did you mean fail?")) {
            try ParsedArguments(["X", "--choice", "fial"], spec: Self.send)
        }
        #expect(throws: UsageError("unknown choices action \"lsit\"; did you mean list? (list, set or reset)")) {
            try ParsedArguments(["lsit"], spec: Self.choices)
        }
        #expect(throws: UsageError("unknown command \"sned\"; did you mean \"send\"?")) { try Self.tool.command("sned") }
        #expect(throws: UsageError("unknown command \"zzz\" (commands: send, choices)")) { try Self.tool.command("zzz") }
        #expect(throws: UsageError("unknown option -x (options start with --)")) {
            try ParsedArguments(["-x"], spec: Self.send)
        }
    }

    @Test("values are checked where they enter: missing, unexpected, out of range, too many arguments")
    func errors() {
        #expect(throws: UsageError("--timeout needs a value (S)")) { try ParsedArguments(["X", "--timeout"], spec: Self.send) }
        #expect(throws: UsageError("--json takes no value")) { try ParsedArguments(["--json=1"], spec: Self.send) }
        #expect(throws: UsageError("--timeout: takes seconds > 0")) { try ParsedArguments(["--timeout", "-1"], spec: Self.send) }
        #expect(throws: UsageError("unexpected argument \"extra\"")) {
            try ParsedArguments(["set", "I", "P", "extra"], spec: Self.choices)
        }
    }

    @Test("suggestions: one edit for short words, two for long ones, swaps count once, unique prefixes")
    func suggestions() {
        #expect(Suggestion.distance(Array("sned"), Array("send")) == 1)
        #expect(Suggestion.distance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.closest(to: "plugns", among: ["plugins", "send"]) == "plugins")
        #expect(Suggestion.closest(to: "exp", among: ["explain", "send"]) == "explain")
        #expect(Suggestion.closest(to: "xyz", among: ["send", "host"]) == nil)
        #expect(Suggestion.closest(to: "hots", among: ["host", "send"]) == "host")
    }

    @Test("usage text comes from the declaration: every option with its help, choices, --help")
    func usageText() {
        let text = Self.tool.usage(of: Self.send)
        #expect(text.hasPrefix("usage: tool send INTENT [key=value …] [options]\n"))
        #expect(text.contains("  --timeout S"))
        #expect(text.contains("when several claim it (ask, fail or default)"))
        #expect(text.contains("  --answer name=value …  answer a prompt\n                         without asking"))
        #expect(text.contains("  -h, --help"))
        #expect(Self.tool.usage.contains("  send      send a request"))
    }

    @Test("completion scripts list every command, option, choice and dynamic name source")
    func completionScripts() {
        let bash = CompletionScript.script(for: .bash, tool: Self.tool)
        #expect(bash.contains("complete -F _tool tool"))
        #expect(bash.contains("send) valued=\"--timeout --choice --answer --config\"; options=\"--timeout --choice --answer --json --config --help\";;"))
        #expect(bash.contains("\"send --choice\") COMPREPLY=($(_tool_words \"ask fail default\" \"$cur\")); return;;"))
        #expect(bash.contains("\"send --config\") COMPREPLY=($(compgen -f -- \"$cur\")); return;;"))
        #expect(bash.contains("__complete intents"))
        #expect(bash.contains("\"choices 0\") COMPREPLY=($(_tool_words \"list set reset\" \"$cur\"));;"))
        let zsh = CompletionScript.script(for: .zsh, tool: Self.tool)
        #expect(zsh.hasPrefix("#compdef tool\n"))
        #expect(zsh.contains("'--choice=[when several claim it]:POLICY:(ask fail default)'"))
        #expect(zsh.contains("'*--answer=[answer a prompt]:name=value: '"))
        #expect(zsh.contains("'1:action:(list set reset)'"))
        #expect(zsh.contains("'1:intent:{_tool_dynamic intents}'"))
    }
}
