import Testing
@testable import ThumbKit

@Suite("ResamplingKernel")
struct ResamplingKernelTests {
    @Test func namesRoundTrip() throws {
        for kernel in ResamplingKernel.allCases {
            #expect(try ResamplingKernel(name: kernel.description) == kernel)
            #expect(try ResamplingKernel(name: kernel.rawValue.uppercased()) == kernel)
        }
        #expect(try ResamplingKernel(name: "lanczos") == .lanczos3)
        #expect(try ResamplingKernel(name: "triangle") == .bilinear)
        #expect(try ResamplingKernel(name: "catmull-rom") == .catrom)
        #expect(throws: ResamplingKernelError(name: "gauss")) { try ResamplingKernel(name: "gauss") }
        #expect(ResamplingKernelError(name: "gauss").message.contains("lanczos3"))
    }

    /// Interpolating kernels are 1 at 0 and 0 at other integers; Mitchell is not interpolating.
    @Test func shapes() {
        for kernel in [ResamplingKernel.lanczos3, .lanczos2, .catrom, .bilinear] {
            #expect(kernel.weight(0) == 1)
            for n in 1...3 { #expect(abs(kernel.weight(Double(n))) < 1e-15) }
        }
        #expect(abs(ResamplingKernel.mitchell.weight(0) - 8.0 / 9) < 1e-15)
        #expect(abs(ResamplingKernel.mitchell.weight(1) - 1.0 / 18) < 1e-15)
        for kernel in ResamplingKernel.allCases {
            #expect(kernel.weight(kernel.support + 1e-9) == 0 && kernel.weight(-kernel.support - 1e-9) == 0)
            for x in stride(from: 0.1, to: 3, by: 0.37) where kernel != .box && kernel != .nearest {
                #expect(kernel.weight(x) == kernel.weight(-x))
            }
        }
    }
}
