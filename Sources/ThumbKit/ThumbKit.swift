/// ThumbKit's version, written into manifests so that outputs are rebuilt when it changes.
public enum ThumbKitVersion {
    /// Semantic version of the library.
    public static let string = "0.1.0"
}
