/// Takes required members out of a JSON object, naming the first one that is missing or has the
/// wrong type, so a damaged file is reported by what is wrong in it.
struct JSONMembers {
    /// What is wrong, as a message fragment (`'width' is missing`).
    struct Problem: Error, Equatable {
        let reason: String

        init(reason: String) { self.reason = reason }
    }

    private let members: [String: JSONValue]

    init(_ value: JSONValue) throws(Problem) {
        guard case .object(let members) = value else { throw Problem(reason: "not an object") }
        self.members = members
    }

    func string(_ key: String) throws(Problem) -> String {
        guard let text = try member(key).stringValue else { throw Problem(reason: "'\(key)' is not a string") }
        return text
    }

    /// A number written as a whole number: `1.5` and `1e3` are refused, since every integer a
    /// writer of ours puts down is spelled without a fraction or exponent.
    func integer(_ key: String) throws(Problem) -> Int64 {
        let value = try member(key)
        if let integer = value.integerValue { return integer }
        if case .number(let number) = value { throw Problem(reason: "'\(key)' must be an integer, not \(number)") }
        throw Problem(reason: "'\(key)' is not an integer")
    }

    /// A member that may be absent (nil), of any type.
    func optional(_ key: String) -> JSONValue? { members[key] }

    /// A string member that may be absent (nil).
    func optionalString(_ key: String) throws(Problem) -> String? {
        guard members[key] != nil else { return nil }
        return try string(key)
    }

    private func member(_ key: String) throws(Problem) -> JSONValue {
        guard let value = members[key] else { throw Problem(reason: "'\(key)' is missing") }
        return value
    }
}
