import Testing
@testable import ThumbgenCLI

@Suite struct ProgressBarTests {
    @Test func progressLine() {
        #expect(ProgressBar.line(done: 45, total: 100, elapsedSeconds: 9, width: 60)
            == "[##########--------------]  45/100  45%  5.0 img/s  ETA 0:11")
        #expect(ProgressBar.line(done: 0, total: 8, elapsedSeconds: 0, width: 30) == "[-------------------] 0/8   0%")
        // Too narrow for rate and ETA beside a bar: they go first.
        #expect(ProgressBar.line(done: 4, total: 8, elapsedSeconds: 1, width: 30) == "[#########----------] 4/8  50%")
        #expect(ProgressBar.line(done: 8, total: 8, elapsedSeconds: 2, width: 20) == "8/8 100%")
        #expect(ProgressBar.clock(3725) == "1:02:05" && ProgressBar.clock(59.2) == "1:00")
    }

    @Test(arguments: [0, 1, 5, 12, 20, 40, 80, 200])
    func progressLineFitsItsWidth(_ width: Int) {
        for (done, total) in [(0, 0), (0, 1), (3, 7), (999, 1000), (123_456, 123_456)] {
            #expect(ProgressBar.line(done: done, total: total, elapsedSeconds: 3.3, width: width).count <= width)
        }
    }
}
