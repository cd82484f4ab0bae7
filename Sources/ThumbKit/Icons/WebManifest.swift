/// site.webmanifest: a new one, or thumbgen's icons merged into the one already there.
///
/// Merging keeps every member of the existing manifest but `icons`, which becomes thumbgen's list,
/// so a rerun over its own output gives the same bytes. The file is written as thumbgen writes JSON
/// (keys sorted, two-space indentation).
enum WebManifest {
    /// The largest site.webmanifest read to merge into (a manifest is a few kilobytes).
    static let maximumBytes: UInt64 = 1 << 20

    /// Why an existing manifest cannot take the icons.
    struct MergeError: Error {
        let reason: String
    }

    /// The manifest's bytes: `existing` (a JSON object) with `icons` replaced, or, without one, a
    /// manifest naming the app, its colours and the icons.
    static func bytes(icons: [WebManifestIcon], existing: [UInt8]?, set: IconSet) throws(MergeError) -> [UInt8] {
        let list = JSONValue.array(icons.map { icon in
            .object(["src": .string(icon.src), "sizes": .string("\(icon.size)x\(icon.size)"),
                     "type": .string("image/png"), "purpose": .string(icon.purpose)])
        })
        guard let existing else {
            var members: [String: JSONValue] = [
                "name": .string(set.name), "short_name": .string(set.name), "icons": list, "display": .string("standalone"),
            ]
            if let background = set.iconBackground {
                members["background_color"] = .string("#" + background.description)
                members["theme_color"] = .string("#" + background.description)
            }
            return JSONWriter.bytes(.object(members))
        }
        let document: JSONValue
        do { document = try JSONParser.parse(existing) } catch {
            throw MergeError(reason: "cannot merge the icons into it: \(error.message)")
        }
        guard case .object(var members) = document else {
            throw MergeError(reason: "cannot merge the icons into it: it is not a JSON object")
        }
        members["icons"] = list
        return JSONWriter.bytes(.object(members))
    }
}
