import Foundation
import IntentBus
import IntentBusCLI

/// `intentbus completion bash|zsh` prints a completion script generated from the command
/// declarations; the hidden `intentbus __complete KIND` lists the names a running host
/// knows, for those scripts.
enum CompletionCommand {
    static let spec = CommandSpec(
        name: "completion", summary: "print a shell completion script (bash or zsh)",
        discussion: """
        Prints a completion script for the shell, generated from the same declarations as
        the parser and these help texts. Intent and plugin names are completed from the
        running host when one answers.
          bash:  intentbus completion bash > ~/.local/share/bash-completion/completions/intentbus
          zsh:   intentbus completion zsh > ~/.zfunc/_intentbus   (with fpath+=(~/.zfunc) before compinit)
        """,
        subcommands: CompletionScript.Shell.allCases.map(\.rawValue),
        options: [])

    static func run(_ args: Arguments) throws -> Int32 {
        guard let name = args.positionals.first, let shell = CompletionScript.Shell(rawValue: name) else {
            throw UsageError("completion needs a shell: bash or zsh")
        }
        print(CompletionScript.script(for: shell, tool: Commands.tool), terminator: "")
        return ExitCode.success
    }

    static let helperSpec = CommandSpec(
        name: "__complete", summary: "names for the completion scripts", subcommands: ["intents", "plugins"],
        options: CommonOptions.host, hidden: true)

    /// One name a line; nothing (and exit 0) when no host answers, so completion stays quiet.
    static func runHelper(_ args: Arguments) throws -> Int32 {
        guard let kind = args.positionals.first,
              let endpoint = try? resolveEndpoint(args),
              let client = try? IntentClient(endpoint: endpoint) else { return ExitCode.success }
        client.hostSlack = .zero
        guard let body = try? client.control("ib.plugins", wait: .milliseconds(500)) else { return ExitCode.success }
        let plugins = body["plugins"]?.arrayValue ?? []
        let names: [String] = kind == "plugins"
            ? plugins.compactMap { $0["id"]?.stringValue }
            : plugins.flatMap { ($0["intents"]?.arrayValue ?? []).compactMap(\.stringValue) }
        for name in Set(names).sorted() { print(name) }
        return ExitCode.success
    }
}
