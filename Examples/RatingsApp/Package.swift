// swift-tools-version:6.1
import PackageDescription

// An app's library target whose thumbnails, star badges and app icons are generated at build time
// by thumbgen's build tool plugin from Sources/RatingsApp/thumbgen.json, and loaded from
// Bundle.module.
let package = Package(
    name: "RatingsApp",
    products: [
        .library(name: "RatingsApp", targets: ["RatingsApp"]),
    ],
    dependencies: [
        // thumbgen itself, by path. The name makes `package: "thumbgen"` work whatever the
        // checkout's folder is called (a path dependency is otherwise known by its folder's name).
        .package(name: "thumbgen", path: "../.."),
    ],
    targets: [
        .target(
            name: "RatingsApp",
            // The plugin reads these itself; they are not resources of their own.
            exclude: ["Icon", "Photos", "thumbgen.json"],
            plugins: [.plugin(name: "ThumbgenPlugin", package: "thumbgen")]
        ),
        .testTarget(name: "RatingsAppTests", dependencies: ["RatingsApp"]),
    ]
)
