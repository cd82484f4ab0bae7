/// ThumbKit's version, written into manifests so that outputs are rebuilt when it changes.
package enum ThumbKitVersion {
    /// Semantic version of the library.
    package static let string = "0.1.0"
}
