/// The CSV form of a ratings file: one `path,rating` record a line (RFC 4180: fields may be
/// quoted with `"`, a quote inside written `""`, and a quoted field may hold commas and line
/// breaks). A first line `path,rating` (any case) is a header; blank lines are skipped; CRLF and
/// LF both end lines.
enum RatingsCSV {
    /// One record: the path as written, its rating, and the line it starts on.
    struct Entry {
        var path: String
        var rating: Rating
        var line: Int
    }

    static func entries(in text: [UInt8], file: String) throws(RatingsFileError) -> [Entry] {
        var entries: [Entry] = []
        var records = Records(bytes: text)
        while let record = try records.next(file: file) {
            if record.fields == [""] { continue }
            if entries.isEmpty && record.line == 1 && record.fields.map({ $0.lowercased() }) == ["path", "rating"] { continue }
            guard record.fields.count == 2 else {
                throw RatingsFileError(file: file, line: record.line,
                                       reason: .syntax("expected 2 fields (path,rating), found \(record.fields.count)"))
            }
            guard !record.fields[0].isEmpty else { throw RatingsFileError(file: file, line: record.line, reason: .emptyPath) }
            let rating: Rating
            do throws(XMPProblem) {
                rating = try XMPReader.rating(fromText: record.fields[1])
            } catch {
                throw RatingsFileError(file: file, line: record.line, reason: .badRating(record.fields[1]))
            }
            entries.append(Entry(path: record.fields[0], rating: rating, line: record.line))
        }
        return entries
    }

    /// Splits the bytes into records, counting lines; linear in the bytes.
    private struct Records {
        let bytes: [UInt8]
        var position = 0
        var line = 1

        mutating func next(file: String) throws(RatingsFileError) -> (fields: [String], line: Int)? {
            guard position < bytes.count else { return nil }
            let start = line
            var fields: [String] = []
            var field: [UInt8] = []
            while true {
                if position < bytes.count && bytes[position] == UInt8(ascii: "\"") && field.isEmpty {
                    position += 1
                    // A quoted field runs to the next lone quote.
                    while true {
                        guard position < bytes.count else {
                            throw RatingsFileError(file: file, line: start, reason: .syntax("unclosed quoted field"))
                        }
                        let byte = bytes[position]
                        position += 1
                        if byte == UInt8(ascii: "\"") {
                            if position < bytes.count && bytes[position] == UInt8(ascii: "\"") {
                                field.append(byte)
                                position += 1
                                continue
                            }
                            break
                        }
                        if byte == 0x0A { line += 1 }
                        field.append(byte)
                    }
                    guard position == bytes.count || [UInt8(ascii: ","), 0x0A, 0x0D].contains(bytes[position]) else {
                        throw RatingsFileError(file: file, line: line, reason: .syntax("text after a quoted field"))
                    }
                }
                guard position < bytes.count else {
                    fields.append(String(decoding: field, as: UTF8.self))
                    return (fields, start)
                }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: ","):
                    fields.append(String(decoding: field, as: UTF8.self))
                    field = []
                case 0x0A, 0x0D:
                    if byte == 0x0D && position < bytes.count && bytes[position] == 0x0A { position += 1 }
                    line += 1
                    fields.append(String(decoding: field, as: UTF8.self))
                    return (fields, start)
                case UInt8(ascii: "\""):
                    throw RatingsFileError(file: file, line: line, reason: .syntax("quote inside an unquoted field"))
                default:
                    field.append(byte)
                }
            }
        }
    }
}
