/// ThumbKit's version, written into manifests so that outputs are rebuilt when it changes.
public enum ThumbKitVersion {
    public static let string = "0.1.0"
}
