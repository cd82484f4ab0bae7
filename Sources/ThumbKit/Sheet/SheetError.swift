/// Why a contact sheet (not one of its photos) could not be made.
public enum SheetError: ThumbKitError, Equatable {
    /// The options cannot make a sheet (the message names the option).
    case invalidOptions(String)
    /// A page at some scale would exceed a limit: a file format's largest side, the pixel limit
    /// or the memory budget.
    case pageTooLarge(width: Int, height: Int, scale: Int, reason: String)
    /// A page could not be encoded.
    case encode(EncodeError)

    public var message: String {
        switch self {
        case .invalidOptions(let text): return text
        case .pageTooLarge(let width, let height, let scale, let reason):
            return "a sheet page would be \(width)x\(height) at @\(scale)x, \(reason) (use --per-page or fewer --columns)"
        case .encode(let error): return error.message
        }
    }
}
