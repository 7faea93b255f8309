import ArgumentParser
import FileSystem
import Foundation
import SystemPackage

extension ParsableCommand {
    /// Every tool's entry point: parses the command line and runs the command. A usage error found while parsing
    /// (a missing argument, an unknown option, a value `validate()` refuses) is one line on stderr like every other
    /// failure, `<tool>: error: … (see '<tool> --help')`, with exit 64 (conventions §3.3); `--help` and
    /// `--version` print as ArgumentParser prints them; a failure of `run()` has already been reported by the
    /// ``ToolRunner`` and only sets the exit code. Temporaries are removed when a signal stops the run
    /// (``FileSystem/removeTemporariesOnSignals()``).
    public static func mainAsTool() -> Never {
        let tool = configuration.commandName ?? CommandLine.arguments.first.map { FilePath($0).lastComponent?.string ?? $0 } ?? "tool"
        // A run stopped by SIGINT, SIGTERM or SIGHUP removes its temporaries and ends by that signal.
        FileSystem.removeTemporariesOnSignals()
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            guard exitCode(for: error) != .success else { self.exit(withError: error) }
            let message = self.message(for: error).split(whereSeparator: \.isNewline).joined(separator: "; ")
            Diagnostics.writeLine("\(tool): error: \(message) (see '\(tool) --help')")
            Foundation.exit(exitCode(for: error).rawValue)
        }
    }
}
