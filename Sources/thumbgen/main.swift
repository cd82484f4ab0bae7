import Glibc
import ThumbgenCLI

exit(ThumbgenMain.run(Array(CommandLine.arguments.dropFirst())))
