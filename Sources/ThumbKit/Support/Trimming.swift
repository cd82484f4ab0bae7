extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: the blanks a command-line list such
    /// as `--ratings "1, 2.5"` can hold around its items.
    func trimmingSpacesAndTabs() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
