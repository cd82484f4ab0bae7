/// Xcode asset catalog files, written byte-for-byte as Xcode writes them.
///
/// Xcode's `Contents.json` format: two-space indentation, `" : "` between key and value, keys in
/// alphabetical order, `images` listing every scale slot of a universal image set (with a
/// `filename` only where a file exists), `info` with author `xcode` and version 1. Xcode ends the
/// file with a newline; so do we. The text depends only on the inputs.
package enum AssetCatalog {
    /// The catalog's top-level `Contents.json`.
    package static let rootContents = """
        {
          "info" : {
            "author" : "xcode",
            "version" : 1
          }
        }

        """

    /// The `Contents.json` of a universal image set with slots 1x, 2x and 3x; `files` maps a scale
    /// (1…3) to the file name in that slot, and slots without a file are listed empty, as Xcode
    /// does.
    package static func imageSetContents(files: [Int: String]) -> String {
        var entries: [String] = []
        for scale in StarBadge.scaleRange {
            var lines: [String] = []
            if let name = files[scale] { lines.append("      \"filename\" : \(JSONWriter.literal(name))") }
            lines.append("      \"idiom\" : \"universal\"")
            lines.append("      \"scale\" : \"\(scale)x\"")
            entries.append("    {\n" + lines.joined(separator: ",\n") + "\n    }")
        }
        return "{\n  \"images\" : [\n" + entries.joined(separator: ",\n") + "\n  ],\n"
            + "  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n"
    }
}
