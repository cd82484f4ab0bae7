import Testing
import ThumbKit

/// Reading badge specs (`Assets/stars/badge-spec.json`, `thumbgen stars --spec`): types, errors and
/// the round trip through `StarBadgeSpec.json`.
@Suite struct StarBadgeSpecJSONTests {
    static func message(_ json: String) -> String {
        do { _ = try StarBadgeSpec(json: Array(json.utf8)) } catch { return error.message }
        return ""
    }

    @Test(arguments: [
        ("", "badge spec: not valid JSON"),
        ("{\"slots\": 3", "badge spec: not valid JSON"),
        ("{\"slots\": 3,}", "badge spec: not valid JSON"),
        ("{\"slots\": 03}", "badge spec: not valid JSON"),
        ("{\"outlineWidth\": 1.}", "badge spec: not valid JSON"),
        ("{\"outlineWidth\": 1e400}", "badge spec: not valid JSON"),
        ("{\"slots\": 3} x", "badge spec: not valid JSON"),
        ("[]", "badge spec: top level is not an object"),
        ("3", "badge spec: top level is not an object"),
        ("{\"slotz\": 3}", "badge spec: unknown key 'slotz'"),
        ("{\"slotz\": 3, \"aaa\": 1, \"size\": 2}", "badge spec: unknown key 'aaa'"),
        ("{\"size\": \"16\"}", "badge spec: 'size' has the wrong type"),
        ("{\"size\": 16.5}", "badge spec: 'size' has the wrong type"),
        ("{\"size\": 1e1}", "badge spec: 'size' has the wrong type"),
        ("{\"slots\": true}", "badge spec: 'slots' has the wrong type"),
        ("{\"spacing\": [1]}", "badge spec: 'spacing' has the wrong type"),
        ("{\"size\": \"x\", \"slots\": \"y\"}", "badge spec: 'slots' has the wrong type"),
        ("{\"fill\": 3}", "badge spec: 'fill' has the wrong type"),
        ("{\"empty\": false}", "badge spec: 'empty' has the wrong type"),
        ("{\"fillMode\": 1}", "badge spec: 'fillMode' has the wrong type"),
        ("{\"outlineWidth\": \"1\"}", "badge spec: 'outlineWidth' has the wrong type"),
        ("{\"ratings\": 1}", "badge spec: 'ratings' has the wrong type"),
        ("{\"ratings\": [1, \"2\"]}", "badge spec: 'ratings' has the wrong type"),
        ("{\"ratings\": [1, null]}", "badge spec: 'ratings' has the wrong type"),
        ("{\"scales\": [1, 2.5]}", "badge spec: 'scales' has the wrong type"),
        ("{\"name\": {}}", "badge spec: 'name' has the wrong type"),
        // Every type is checked before any value.
        ("{\"fill\": \"zz\", \"name\": 3}", "badge spec: 'name' has the wrong type"),
        ("{\"fill\": \"zz\"}", "fill: 'zz' is not a colour (expected RRGGBB or RRGGBBAA)"),
        ("{\"scales\": [1, 4]}", "scales: '4' is not a scale (expected 1, 2 or 3)"),
        ("{\"fillMode\": \"most\"}", "fillMode: 'most' is not a fill mode (expected full, half or precise)"),
    ])
    func errorsSayWhatIsWrong(_ json: String, _ expected: String) {
        #expect(Self.message(json) == expected)
    }

    @Test func numbersMayHaveFractionsWhereTheSpecAllowsThem() throws {
        let spec = try StarBadgeSpec(json: Array(#"{"outlineWidth": 1.25, "ratings": [1, 2.5, 5e-1, -0.25E1], "size": 20}"#.utf8))
        #expect(spec.outlineWidth == 1.25 && spec.ratings == [1, 2.5, 0.5, -2.5] && spec.size == 20)
        #expect(try StarBadgeSpec(json: Array(#"{"outlineWidth": 2}"#.utf8)).outlineWidth == 2)
    }

    @Test func nullKeepsTheDefaultAndAByteOrderMarkIsSkipped() throws {
        let spec = try StarBadgeSpec(json: Array(#" {"outline": null, "ratings": null, "slots": null} "#.utf8))
        #expect(spec == StarBadgeSpec())
        #expect(try StarBadgeSpec(json: [0xEF, 0xBB, 0xBF] + Array(#"{"size": 20}"#.utf8)).size == 20)
    }

    @Test func everySpecRoundTrips() throws {
        // `json` writes the ratings that will be made, so the default's nil comes back as 1…5.
        #expect(try StarBadgeSpec(json: Array(StarBadgeSpec().json.utf8)).json == StarBadgeSpec().json)
        var spec = StarBadgeSpec()
        spec.slots = 7
        spec.size = 33
        spec.spacing = 0
        spec.fill = Color(red: 0, green: 0x80, blue: 0xff, alpha: 0x7f)
        spec.outlineWidth = 0.1 + 0.2
        spec.fillMode = .precise
        spec.ratings = [0, 0.1, 1.0 / 3, 2.5, 1e-7, 6.999999999999999]
        spec.scales = [3, 1]
        spec.nameFormat = try BadgeNameFormat("r%r \"q\" %%")
        let again = try StarBadgeSpec(json: Array(spec.json.utf8))
        #expect(again == spec)
        #expect(again.json == spec.json)
    }
}
