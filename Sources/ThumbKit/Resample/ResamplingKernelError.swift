/// A kernel name that `ResamplingKernel(name:)` does not know.
package struct ResamplingKernelError: ThumbKitError, Equatable {
    /// The name as given.
    package let name: String

    /// "unknown kernel 'NAME' (expected one of: …)".
    package var message: String {
        let known = ResamplingKernel.allCases.map(\.rawValue).joined(separator: ", ")
        return "unknown kernel '\(name)' (expected one of: \(known))"
    }
}
