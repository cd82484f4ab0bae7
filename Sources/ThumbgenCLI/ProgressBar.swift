/// Formats one line of progress for a terminal, e.g.
/// `[#########-----------]  45/100  45%  12.3 img/s  ETA 0:04`.
///
/// A pure function of its inputs so the CLI can redraw it (with `\r`) as often as it likes and
/// tests can pin the layout. The line never exceeds `width` characters: the bar shrinks first,
/// then the rate and ETA are dropped, then the bar itself.
enum ProgressBar {
    /// The line for `done` of `total` after `elapsedSeconds`, at most `width` characters.
    static func line(done: Int, total: Int, elapsedSeconds: Double, width: Int) -> String {
        let total = max(total, 0)
        let done = min(max(done, 0), total)
        let percent = total == 0 ? 100 : done * 100 / total
        let counts = "\(pad(done, to: String(total).count))/\(total) \(pad(percent, to: 3))%"
        var details = ""
        if elapsedSeconds > 0 && done > 0 {
            let rate = Double(done) / elapsedSeconds
            details = "  \(oneDecimal(rate)) img/s  ETA \(clock(Double(total - done) / rate))"
        }
        // Shrink from the least useful part: rate and ETA go before the counts.
        for text in [counts + details, counts] {
            let room = width - text.count - 3  // "[", "]" and one space
            if room >= 10 {
                let filled = total == 0 ? room : room * done / total
                return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: room - filled) + "] " + text
            }
            if text.count <= width && text == counts { return text }
        }
        return String(counts.prefix(max(width, 0)))
    }

    private static func pad(_ value: Int, to width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `m:ss`, or `h:mm:ss` from an hour up.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }
}
