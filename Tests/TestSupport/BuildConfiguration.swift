/// How the tests were built.
package enum BuildConfiguration {
    /// True in release builds (`make test`), where pixel-heavy work takes seconds rather than minutes.
    package static let isRelease: Bool = {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }()
}
