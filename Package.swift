// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "thumbgen",
    products: [
        .library(name: "ThumbKit", targets: ["ThumbKit"]),
        .executable(name: "thumbgen", targets: ["thumbgen"]),
    ],
    targets: [
        // What the C codec modules share: limits reported as data, message copying.
        .target(name: "CCodecSupport"),
        // libpng and zlib as the system provides them (pkg-config libpng).
        .systemLibrary(
            name: "CPNGSystem",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "zlib1g-dev"])]
        ),
        // The only code that calls libpng: every call that can png_error runs behind setjmp here,
        // so Swift never sees a longjmp.
        .target(
            name: "CLibPNG",
            dependencies: ["CPNGSystem", "CCodecSupport"],
            linkerSettings: [.linkedLibrary("z")]
        ),
        // libjpeg(-turbo) as the system provides it (pkg-config libjpeg).
        .systemLibrary(
            name: "CJPEGSystem",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"])]
        ),
        // The only code that calls libjpeg: error_exit longjmps back inside C, never into Swift.
        .target(
            name: "CLibJPEG",
            dependencies: ["CJPEGSystem", "CCodecSupport"]
        ),
        // libwebp and its container parser as the system provides them (pkg-config libwebpdemux).
        .systemLibrary(
            name: "CWebPSystem",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        // The only code that calls libwebp (status codes, no longjmp).
        .target(
            name: "CLibWebP",
            dependencies: ["CWebPSystem", "CCodecSupport"]
        ),
        // Little CMS 2 as the system provides it (pkg-config lcms2).
        .systemLibrary(
            name: "CLCMSSystem",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        // The only code that calls lcms2: per-call contexts, errors captured as messages.
        .target(
            name: "CLibLCMS",
            dependencies: ["CLCMSSystem", "CCodecSupport"]
        ),
        // Hot loops that need CPU features Swift cannot request per function (SHA extensions, AVX2),
        // chosen at run time, each with a portable path giving bit-identical results.
        .target(name: "CThumbKernels"),
        // syncfs(2), which Swift's Glibc module leaves out.
        .target(name: "CFileSync"),
        .target(
            name: "ThumbKit",
            dependencies: ["CLibPNG", "CLibJPEG", "CLibWebP", "CLibLCMS", "CThumbKernels", "CFileSync"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Argument parsing, commands and printing; a library so the tests can drive it.
        .target(
            name: "ThumbgenCLI",
            dependencies: ["ThumbKit"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "thumbgen",
            dependencies: ["ThumbgenCLI"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(name: "CFuzzDriver"),
        // libFuzzer target over decode → thumbnail → encode (`make fuzz`); replays files otherwise.
        .executableTarget(
            name: "thumbgen-fuzz",
            dependencies: ["ThumbKit", "CFuzzDriver"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // libpng with its default settings, as the floor `make bench` measures against.
        .target(
            name: "CBareDecode",
            dependencies: ["CPNGSystem"],
            linkerSettings: [.linkedLibrary("z")]
        ),
        // Times decoding against resampling (`swift run -c release thumbgen-bench IMAGE.png`).
        .executableTarget(
            name: "thumbgen-bench",
            dependencies: ["ThumbKit", "CBareDecode"],
            path: "Sources/thumbgen-bench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ThumbKitTests",
            // CLibJPEG's encoder makes the JPEG fixtures; lcms2 itself is the colour reference; the
            // command line is run in-process to compare its files with the library's bytes.
            dependencies: ["ThumbKit", "ThumbgenCLI", "CLibJPEG", "CLibLCMS", "CLCMSSystem"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ThumbgenCLITests",
            dependencies: ["ThumbgenCLI", "ThumbKit"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
