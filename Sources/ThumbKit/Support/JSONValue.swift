/// A JSON document.
///
/// Numbers written without a fraction or exponent are `integer`, exactly, so readers that need a
/// whole number (manifests) ask for `integerValue` and refuse `1.5` or `1e3`; all others are
/// `number`. Objects are dictionaries because `JSONWriter` sorts keys anyway; key order is never
/// meaningful.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number with a fraction or exponent (`1.5`, `1e3`); always finite.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object, else nil.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    var integerValue: Int64? { if case .integer(let i) = self { return i } else { return nil } }
    /// Any number, integer or not.
    var numberValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }
    var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
}
