import Foundation
import IntentBus
import IntentBusCLI
import PluginHost

func main() -> Int32 {
    var argv = Array(CommandLine.arguments.dropFirst())
    guard let word = argv.first else {
        printError(Commands.tool.usage)
        return ExitCode.usage
    }
    argv.removeFirst()
    if ["--help", "-h", "help"].contains(word) {
        if let topic = argv.first, let command = Commands.named(topic) {
            print(Commands.tool.usage(of: command.spec), terminator: "")
        } else {
            print(Commands.tool.usage)
        }
        return ExitCode.success
    }
    var known = false
    do {
        let spec = try Commands.tool.command(word)
        known = true
        let args = try Arguments(argv, spec: spec)
        if args.flag("help") {
            print(Commands.tool.usage(of: spec), terminator: "")
            return ExitCode.success
        }
        return try Commands.named(spec.name)!.run(args)
    } catch let error as UsageError {
        printError("intentbus: \(error)")
        printError(known ? "Run `intentbus \(word) --help` for its options." : "Run `intentbus --help` for the commands.")
        return ExitCode.usage
    } catch let error as ConfigError {
        printError(error.description)
        return ExitCode.configError
    } catch let error as HostStartError {
        printError("intentbus host: \(error)")
        return ExitCode.configError
    } catch let error as HostUnreachable {
        printError("intentbus: \(error)")
        return ExitCode.hostUnreachable
    } catch let error as NoHostNamed {
        printError("intentbus: \(error)")
        return ExitCode.hostUnreachable
    } catch let error as ClientError {
        printError("intentbus: \(error)")
        switch error {
        case .noAnswer, .hostLost: return ExitCode.hostUnreachable
        default: return ExitCode.busError
        }
    } catch {
        printError("intentbus: \(error)")
        return ExitCode.busError
    }
}

exit(main())
