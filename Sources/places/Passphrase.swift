import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where passphrases come from: a file (headless devices) or a prompt without echo.
enum Passphrase {
    /// Whether standard input is a terminal we may prompt on.
    static var canPrompt: Bool { isatty(STDIN_FILENO) == 1 }

    /// The first line of `path`, without its line ending.
    static func read(file path: String) throws -> String {
        let data: Data
        do {
            // FileHandle also reads pipes such as /dev/stdin ("-" means standard input).
            guard let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path) else {
                throw CocoaError(.fileReadNoPermission)
            }
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw ValidationError("cannot read the passphrase file \(path): \(error.localizedDescription)")
        }
        let text = String(decoding: data, as: UTF8.self)
        var line =
            text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if line.hasSuffix("\r") { line.removeLast() }
        guard !line.isEmpty else {
            throw ValidationError("the passphrase file \(path) has an empty first line")
        }
        return line
    }

    /// Prompts on the terminal with echo off; nil at end of input.
    static func prompt(_ message: String) -> String? {
        writeStandardError(message)
        var saved = termios()
        let haveTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if haveTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if haveTerminal { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            writeStandardError("\n")
        }
        return readLine(strippingNewline: true)
    }

    /// Asks for a new passphrase twice and checks both match and it is not empty.
    static func promptNew() throws -> String {
        guard let first = prompt("New passphrase: "), !first.isEmpty else {
            throw ValidationError("the passphrase is empty; use --no-passphrase for an unsealed key")
        }
        guard let second = prompt("Repeat passphrase: "), second == first else {
            throw ValidationError("the passphrases do not match")
        }
        return first
    }
}
