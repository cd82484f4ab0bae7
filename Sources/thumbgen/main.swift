import Glibc
import ThumbgenCLI

// The arguments as bytes: `CommandLine.arguments` repairs a name that is not UTF-8, and the
// repaired name opens nothing.
let arguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
    guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
}
exit(ThumbgenMain.run(rawArguments: arguments))
