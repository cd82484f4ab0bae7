// swift-tools-version:6.1
import PackageDescription

// Golden-image tests written against ThumbKit as a user's package would write them, with
// ThumbKitTesting's assertImage(_:matchesGolden:tolerance:). Scripts/golden-example-test.sh
// shows it record, pass, and fail with a diff image.
let package = Package(
    name: "GoldenTests",
    dependencies: [
        // thumbgen itself, by path (named so `package: "thumbgen"` works whatever the folder's name).
        .package(name: "thumbgen", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "GoldenTests",
            dependencies: [
                .product(name: "ThumbKit", package: "thumbgen"),
                .product(name: "ThumbKitTesting", package: "thumbgen"),
            ],
            // Read by path from the tests, not bundled.
            exclude: ["Fixtures", "Goldens"]
        ),
    ]
)
