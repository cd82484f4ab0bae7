// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "thumbgen",
    products: [
        .library(name: "ThumbKit", targets: ["ThumbKit"]),
        // Golden-image assertions for a package's own tests (XCTest and Swift Testing).
        .library(name: "ThumbKitTesting", targets: ["ThumbKitTesting"]),
        .executable(name: "thumbgen", targets: ["thumbgen"]),
        // Thumbnails and star badges as resources of the target that uses it, from its thumbgen.json.
        .plugin(name: "ThumbgenPlugin", targets: ["ThumbgenPlugin"]),
        // `swift package thumbgen`: the same files written into the package folder, to check in.
        .plugin(name: "ThumbgenCommand", targets: ["ThumbgenCommand"]),
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
            dependencies: ["CPNGSystem", "CDeflateSystem", "CCodecSupport", "CThumbKernels"],
            linkerSettings: [.linkedLibrary("z")]
        ),
        // libdeflate as the system provides it (pkg-config libdeflate).
        .systemLibrary(
            name: "CDeflateSystem",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        // The only code that calls libdeflate, which compresses the PNGs thumbgen writes.
        .target(
            name: "CLibDeflate",
            dependencies: ["CDeflateSystem", "CCodecSupport"]
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
        // The only code that calls libwebp (status codes, no longjmp). The muxer, which adds an ICC
        // profile to an encoded file, is not in libwebpdemux's pkg-config libraries.
        .target(
            name: "CLibWebP",
            dependencies: ["CWebPSystem", "CCodecSupport"],
            linkerSettings: [.linkedLibrary("webpmux")]
        ),
        // giflib as the system provides it (Debian ships no pkg-config file for it).
        .systemLibrary(
            name: "CGIFSystem",
            providers: [.apt(["libgif-dev"])]
        ),
        // The only code that calls giflib (return codes, no longjmp).
        .target(
            name: "CLibGIF",
            dependencies: ["CGIFSystem", "CCodecSupport"],
            linkerSettings: [.linkedLibrary("gif")]
        ),
        // libtiff as the system provides it (pkg-config libtiff-4).
        .systemLibrary(
            name: "CTIFFSystem",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"])]
        ),
        // The only code that calls libtiff (return codes and a per-handle error handler).
        .target(
            name: "CLibTIFF",
            dependencies: ["CTIFFSystem", "CCodecSupport"]
        ),
        // libheif as the system provides it (pkg-config libheif), with its HEVC and AV1 decoders.
        .systemLibrary(
            name: "CHEIFSystem",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        // dav1d as the system provides it (pkg-config dav1d), for CLibHEIF's AV1 decoder plugin.
        .systemLibrary(
            name: "CDAV1DSystem",
            pkgConfig: "dav1d",
            providers: [.apt(["libdav1d-dev"])]
        ),
        // libde265 as the system provides it (pkg-config libde265), for CLibHEIF's HEVC decoder plugin.
        .systemLibrary(
            name: "CDE265System",
            pkgConfig: "libde265",
            providers: [.apt(["libde265-dev"])]
        ),
        // The only code that calls libheif (heif_error values, no longjmp, nothing printed), and
        // the decoder plugins it gives libheif: libde265 with zeroed frames and its warnings as
        // errors, dav1d with its log kept off standard error.
        .target(
            name: "CLibHEIF",
            dependencies: ["CHEIFSystem", "CDE265System", "CDAV1DSystem", "CCodecSupport"]
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
        // The sRGB transfer function's tables as constants, generated by Scripts/make-srgb-tables.py
        // so that no pixel depends on the platform's pow().
        .target(name: "CSRGBTables"),
        // syncfs(2), which Swift's Glibc module leaves out.
        .target(name: "CFileSync"),
        .target(
            name: "ThumbKit",
            dependencies: ["CLibPNG", "CLibDeflate", "CLibJPEG", "CLibWebP", "CLibGIF", "CLibTIFF", "CLibHEIF", "CLibLCMS", "CThumbKernels", "CSRGBTables", "CFileSync"],
            // The font's source and licence, for readers of the folder.
            exclude: ["Text/README.md"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // assertImage(_:matchesGolden:tolerance:): records, compares and explains golden images.
        .target(
            name: "ThumbKitTesting",
            dependencies: ["ThumbKit"],
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
        // Runs thumbgen through build commands with declared inputs and outputs (Plugins/ThumbgenPlugin).
        .plugin(
            name: "ThumbgenPlugin",
            capability: .buildTool(),
            dependencies: ["thumbgen", "thumbgen-plugin-step"]
        ),
        // What each of ThumbgenPlugin's build commands runs: reads thumbgen.json when the command
        // runs, then becomes thumbgen (SwiftPM does not rerun plugins when only a file's contents
        // change).
        .executableTarget(
            name: "thumbgen-plugin-step",
            path: "Plugins/ThumbgenStep",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The same plan as ThumbgenPlugin, run at once into the package folder (Plugins/ThumbgenCommand).
        .plugin(
            name: "ThumbgenCommand",
            capability: .command(
                intent: .custom(verb: "thumbgen",
                                description: "Write the thumbnails and star badges of each target's thumbgen.json into the package folder"),
                permissions: [.writeToPackageDirectory(reason: "thumbgen writes the generated images into the target folders")]
            ),
            dependencies: ["thumbgen", "thumbgen-plugin-step"]
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
        // What both test targets use: fixture paths and scratch folders, thumbgen run in-process
        // and as the built binary, a seeded random generator.
        .target(
            name: "TestSupport",
            dependencies: ["ThumbKit", "ThumbgenCLI"],
            path: "Tests/TestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ThumbKitTests",
            // CLibJPEG's encoder makes the JPEG fixtures; lcms2 itself is the colour reference; zlib
            // inflates the PNG encoder's image data; CLibTIFF's LZW decoder is run on strips
            // directly, and the PNG unfilter kernel on rows; the command line is run in-process to compare
            // its files with the library's bytes.
            dependencies: ["ThumbKit", "ThumbgenCLI", "TestSupport", "CLibJPEG", "CLibLCMS", "CLCMSSystem", "CPNGSystem", "CLibTIFF",
                           "CThumbKernels"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ThumbgenCLITests",
            dependencies: ["ThumbgenCLI", "ThumbKit", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
