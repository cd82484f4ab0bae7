/// A kernel name that `ResamplingKernel(name:)` does not know.
public struct ResamplingKernelError: ThumbKitError, Equatable {
    /// The name as given.
    public let name: String

    /// "unknown kernel 'NAME' (expected one of: …)".
    public var message: String {
        let known = ResamplingKernel.allCases.map(\.rawValue).joined(separator: ", ")
        return "unknown kernel '\(name)' (expected one of: \(known))"
    }
}
