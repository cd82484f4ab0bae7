import Testing
@testable import ThumbKit

/// The decoder table is the one place a format is added: every recognised format has exactly one
/// decoder, so `ImageDecoders.type(for:)` never falls through.
@Suite struct ImageDecodersTests {
    @Test(arguments: ImageFormat.allCases)
    func everyFormatHasOneDecoder(_ format: ImageFormat) {
        #expect(ImageDecoders.all.filter { $0.format == format }.count == 1)
        #expect(ImageDecoders.type(for: format).format == format)
        #expect(ImageDecoders.type(for: format).reductions.first == 1)
    }
}
