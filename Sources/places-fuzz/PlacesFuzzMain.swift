import Foundation
import PlacesFuzz

// One binary for every fuzz target (docs/fuzzing.md).
//
// Built with `--sanitize=fuzzer -Xswiftc -DFUZZING` (scripts/fuzz.sh) it is a libFuzzer
// binary: libFuzzer's `main` calls `LLVMFuzzerTestOneInput`, and the environment variable
// PLACES_FUZZ_TARGET names the target. Built normally it replays saved inputs:
//
//     places-fuzz TARGET [FILE|DIR ...]   every file given (default: the target's corpus and
//                                         crashers), printing each name before running it
//     places-fuzz all                     every target's corpus and crashers
//     places-fuzz seed                    rewrites the seed corpora (and the base-ops fixture)

#if FUZZING
    nonisolated(unsafe) private var selectedTarget: FuzzTarget?

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        if selectedTarget == nil {
            let name = ProcessInfo.processInfo.environment["PLACES_FUZZ_TARGET"] ?? ""
            guard let target = FuzzTarget(rawValue: name) else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
                fatalError("set PLACES_FUZZ_TARGET to one of: \(names)")
            }
            selectedTarget = target
        }
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        selectedTarget?.run(input)
        return 0
    }
#else
    @main
    struct PlacesFuzzMain {
        static func main() throws {
            var arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                print("usage: places-fuzz (\(names)|all) [FILE|DIR ...] | places-fuzz seed")
                exit(2)
            }
            arguments.removeFirst()
            if name == "seed" {
                try FuzzSeeds.writeAll()
                return
            }
            let targets: [FuzzTarget]
            if name == "all" {
                targets = FuzzTarget.allCases
            } else if let target = FuzzTarget(rawValue: name) {
                targets = [target]
            } else {
                print("unknown target \(name)")
                exit(2)
            }
            for target in targets {
                var files: [URL] = []
                if arguments.isEmpty {
                    files =
                        FuzzTarget.files(in: target.corpusDirectory) + FuzzTarget.files(in: target.crashersDirectory)
                } else {
                    for argument in arguments {
                        let url = URL(fileURLWithPath: argument)
                        var isDirectory: ObjCBool = false
                        _ = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
                        files += isDirectory.boolValue ? FuzzTarget.files(in: url) : [url]
                    }
                }
                for file in files {
                    FileHandle.standardError.write(Data("\(target.rawValue): \(file.path)\n".utf8))
                    target.run([UInt8](try Data(contentsOf: file)))
                }
                print("\(target.rawValue): \(files.count) inputs replayed, no crash")
            }
        }
    }
#endif
