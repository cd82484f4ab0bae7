/// The `Contents.json` of an app icon set, laid out byte for byte as Xcode writes it: two-space
/// indentation, `" : "` between key and value, keys in alphabetical order, `info` last.
enum AssetCatalogIcons {
    /// One image slot of an app icon set.
    struct Slot {
        var appearance: String? = nil
        var filename: String? = nil
        var idiom: String
        var platform: String? = nil
        var scale: String? = nil
        var size: String
    }

    /// The `Contents.json` listing `slots` in order.
    static func contents(_ slots: [Slot]) -> [UInt8] {
        let entries = slots.map { slot -> String in
            var lines: [String] = []
            if let appearance = slot.appearance {
                lines.append("      \"appearances\" : [\n        {\n          \"appearance\" : \"luminosity\",\n"
                             + "          \"value\" : \(JSONWriter.literal(appearance))\n        }\n      ]")
            }
            if let filename = slot.filename { lines.append("      \"filename\" : \(JSONWriter.literal(filename))") }
            lines.append("      \"idiom\" : \(JSONWriter.literal(slot.idiom))")
            if let platform = slot.platform { lines.append("      \"platform\" : \(JSONWriter.literal(platform))") }
            if let scale = slot.scale { lines.append("      \"scale\" : \(JSONWriter.literal(scale))") }
            lines.append("      \"size\" : \(JSONWriter.literal(slot.size))")
            return "    {\n" + lines.joined(separator: ",\n") + "\n    }"
        }
        let text = "{\n  \"images\" : [\n" + entries.joined(separator: ",\n") + "\n  ],\n"
            + "  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n"
        return Array(text.utf8)
    }
}
