import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The exit codes of `places`, documented in `docs/cli.md` and the root `--help`.
enum CLIExit {
    /// The daemon refused the request (its problem `detail` is printed).
    static let refused = ExitCode(1)
    /// The command line was wrong (ArgumentParser's usage errors, mapped from its 64).
    static let usage = ExitCode(2)
    /// No daemon answers on the control socket.
    static let noDaemon = ExitCode(3)
    /// The daemon is logged out or has no identity yet.
    static let loggedOut = ExitCode(4)

    /// Prints `error: message` to standard error and returns the exit code to throw.
    static func fail(_ message: String, _ code: ExitCode) -> ExitCode {
        printError("error: \(message)")
        return code
    }
}

/// Writes one line to standard error.
func printError(_ line: String) {
    writeStandardError(line + "\n")
}

/// Writes text to standard error, unbuffered.
func writeStandardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// Writes text to standard output, unbuffered: for streamed lines that pipes must see at once.
func writeStandardOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}
