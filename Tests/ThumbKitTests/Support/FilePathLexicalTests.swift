import Testing
@testable import ThumbKit

/// Paths worked out as text: normalizing, and one path as seen from a directory.
struct FilePathLexicalTests {
    @Test(arguments: [
        ("a/./b//c/", "a/b/c"), ("/a/../../b", "/b"), ("../a/../../b", "../../b"), (".", ""), ("/", "/"),
        ("a/b/../..", ""), ("//x/.//y/..", "/x"), ("a/../..", ".."), ("./../x", "../x"), ("...", "..."),
    ])
    func normalizedDropsDotsRepeatsAndPairs(path: String, expected: String) {
        #expect(FilePath(path).normalized == FilePath(expected))
    }

    @Test(arguments: [
        // (path, directory, working directory, expected)
        ("photos/a.jpg", "thumbs", "/work", "../photos/a.jpg"),
        ("/work/photos/a.jpg", "thumbs", "/work", "../photos/a.jpg"),
        ("photos/a.jpg", "/elsewhere/out", "/work", "../../work/photos/a.jpg"),
        ("thumbs/x/y.png", "thumbs", "/work", "x/y.png"),
        ("thumbs", "thumbs/", "/work", ""),
        ("a/../b/c.png", "./b", "/", "c.png"),
        ("../up.png", ".", "/work/dir", "../up.png"),
        ("/a/b", "/", "/ignored", "a/b"),
        ("/", "/a/b", "/ignored", "../.."),
        ("abc/d", "ab", "/w", "../abc/d"),
    ])
    func relativePathIsSeenFromTheDirectory(path: String, directory: String, workingDirectory: String, expected: String) {
        let paths = RelativePaths(from: FilePath(directory), workingDirectory: FilePath(workingDirectory))
        #expect(paths.path(of: FilePath(path)) == FilePath(expected))
    }

    @Test func relativeFromUsesTheProcessWorkingDirectory() {
        let here = FilePath.workingDirectory
        #expect(FilePath("x/y").relative(from: here) == FilePath("x/y"))
        #expect(here.appending(FilePath("x/y")).relative(from: FilePath(".")) == FilePath("x/y"))
        #expect(FilePath("x/y").absolute == here.appending(FilePath("x/y")).normalized)
    }
}
