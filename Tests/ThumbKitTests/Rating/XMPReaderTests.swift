import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// `xmp:Rating` by namespace in the forms writers use, XML's lexical corners, malformed packets
/// (a problem, no rating), and hostile ones (bounded work).
@Suite struct XMPReaderTests {
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xap = XMPReader.namespace

    static func packet(_ body: String) -> String {
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\#(rdf)">\#(body)</rdf:RDF></x:xmpmeta>"#
    }

    static func read(_ text: String) throws(XMPProblem) -> Rating? { try XMPReader.rating(in: Array(text.utf8)) }

    static func problem(_ text: String) -> XMPProblem? {
        do throws(XMPProblem) { _ = try read(text); return nil } catch { return error }
    }

    @Test func attributeAndElementForms() throws {
        #expect(try Self.read(Self.packet(#"<rdf:Description rdf:about="" xmlns:xmp="\#(Self.xap)" xmp:Rating="4"/>"#)) == .stars(4))
        #expect(try Self.read(Self.packet(#"<rdf:Description xmlns:xmp="\#(Self.xap)"><xmp:Rating>3</xmp:Rating></rdf:Description>"#)) == .stars(3))
        // Any prefix; the default namespace for an element.
        #expect(try Self.read(Self.packet(#"<rdf:Description xmlns:q="\#(Self.xap)" q:Rating='2.5'/>"#)) == .stars(2.5))
        #expect(try Self.read(Self.packet(#"<rdf:Description><Rating xmlns="\#(Self.xap)"> 5 </Rating></rdf:Description>"#)) == .stars(5))
        // An unprefixed attribute is in no namespace, whatever the default one is.
        #expect(try Self.read(Self.packet(#"<rdf:Description xmlns="\#(Self.xap)" Rating="2"/>"#)) == nil)
        // The usual prefix bound elsewhere is not XMP's rating.
        #expect(try Self.read(Self.packet(#"<rdf:Description xmlns:xmp="http://example.com/" xmp:Rating="2"/>"#)) == nil)
        // A prefix rebound inside an element applies there only.
        let scoped = Self.packet(#"<rdf:Description xmlns:a="http://example.com/"><a:Rating xmlns:a="\#(Self.xap)">1</a:Rating></rdf:Description>"#)
        #expect(try Self.read(scoped) == .stars(1))
        #expect(try Self.read(Self.packet("<rdf:Description/>")) == nil)
        #expect(try Self.read("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>") == nil)
    }

    @Test func firstRatingCounts() throws {
        let two = Self.packet(#"<rdf:Description xmlns:xmp="\#(Self.xap)" xmp:Rating="1"/><rdf:Description xmlns:xmp="\#(Self.xap)" xmp:Rating="5"/>"#)
        #expect(try Self.read(two) == .stars(1))
    }

    @Test func lexicalCorners() throws {
        let body = #"<rdf:Description xmlns:xmp="\#(Self.xap)"><!-- <xmp:Rating>1</xmp:Rating> --><?pi stuff?><xmp:Rating><![CDATA[4]]>&#46;5</xmp:Rating></rdf:Description>"#
        let wrapped = "\u{FEFF}<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n" + Self.packet(body) + "\n      \n<?xpacket end=\"w\"?>"
        #expect(try XMPReader.rating(in: Array(wrapped.utf8) + [0, 0, 0]) == .stars(4.5))
        #expect(try Self.read(Self.packet(#"<rdf:Description xmlns:xmp="\#(Self.xap)" xmp:Rating="&#x2D;1"/>"#)) == .rejected)
        #expect(try Self.read(Self.packet(#"<rdf:Description xmlns:xmp="\#(Self.xap)" title="a &lt;&amp;&gt; &quot;b&apos;" xmp:Rating="0"/>"#)) == .stars(0))
    }

    @Test func valuesThatAreNotRatings() {
        func attribute(_ value: String) -> String { Self.packet(#"<rdf:Description xmlns:xmp="\#(Self.xap)" xmp:Rating="\#(value)"/>"#) }
        #expect(Self.problem(attribute("four")) == .notANumber("four"))
        #expect(Self.problem(attribute("")) == .notANumber(""))
        #expect(Self.problem(attribute("1e0")) == .notANumber("1e0"))
        #expect(Self.problem(attribute("nan")) == .notANumber("nan"))
        #expect(Self.problem(attribute("7")) == .outOfRange("7"))
        #expect(Self.problem(attribute("-2")) == .outOfRange("-2"))
        let structured = Self.packet(#"<rdf:Description xmlns:xmp="\#(Self.xap)"><xmp:Rating><rdf:Alt><rdf:li>3</rdf:li></rdf:Alt></xmp:Rating></rdf:Description>"#)
        #expect(Self.problem(structured).map { if case .notANumber = $0 { true } else { false } } == true)
        #expect(XMPProblem.notANumber("four").description == "xmp:Rating 'four' is not a number")
    }

    @Test func malformedPacketsAreProblems() {
        let good = Self.packet(#"<rdf:Description xmlns:xmp="\#(Self.xap)" xmp:Rating="4"/>"#)
        #expect(Self.problem(String(good.dropLast("</x:xmpmeta>".count))) == .malformed("unclosed element 'x:xmpmeta'"))
        #expect(Self.problem(good.replacingOccurrences(of: "</rdf:RDF>", with: "")) == .malformed("end tag 'x:xmpmeta' does not match 'rdf:RDF'"))
        #expect(Self.problem(good.replacingOccurrences(of: "xmlns:xmp", with: "xmlns:other")) == .malformed("unbound prefix in 'xmp:Rating'"))
        #expect(Self.problem("<!DOCTYPE x [<!ENTITY a \"b\">]>" + good) == .malformed("a DOCTYPE or declaration, which XMP does not allow"))
        #expect(Self.problem(good.replacingOccurrences(of: "\"4\"", with: "\"&bogus;\"")) == .malformed("unknown entity '&bogus;'"))
        #expect(Self.problem(good + "<second/>") == .malformed("content after the root element"))
        #expect(Self.problem("text" + good) == .malformed("text before the root element"))
        #expect(Self.problem("") == .malformed("no root element"))
        #expect(Self.problem("<?xpacket begin=\"\"?>") == .malformed("no root element"))
        #expect(Self.problem("<a b=c/>") == .malformed("value of 'b' is not quoted"))
        #expect(Self.problem("<a><!-- never closed</a>") == .malformed("unclosed comment"))
        #expect(XMPProblem.malformed("unclosed element 'rdf:RDF'").description == "malformed XMP (unclosed element 'rdf:RDF')")
    }

    /// Every truncation of a real packet is either fine (what is left is whole) or a problem,
    /// never a trap.
    @Test func everyTruncationIsHandled() throws {
        let text = Array(try String(contentsOfFile: Fixtures.path("ratings/sidecar-both.jpg.xmp"), encoding: .utf8).utf8)
        var problems = 0
        for length in 0..<text.count {
            do throws(XMPProblem) { _ = try XMPReader.rating(in: Array(text.prefix(length))) } catch { problems += 1 }
        }
        #expect(problems >= text.count - 100)
    }

    /// Hostile packets within the size limit take time linear in their size; a larger one is not
    /// read at all.
    @Test func hostilePacketsAreBounded() {
        let started = ContinuousClock.now
        let deep = String(repeating: "<a>", count: 300_000)
        #expect(Self.problem(deep) == .malformed("elements nested deeper than \(XMPReader.maximumDepth)"))
        let hugeAttribute = #"<a xmlns:xmp="\#(Self.xap)" xmp:Rating=""# + String(repeating: "9", count: 1_000_000) + #""/>"#
        #expect(Self.problem(hugeAttribute) == .outOfRange(String(repeating: "9", count: XMPReader.quotedLength) + "…"))
        let declarations = (0..<20_000).map { " xmlns:p\($0)=\"u\($0)\"" }.joined()
        let attributes = (0..<20_000).map { " p\($0):Rating=\"1\"" }.joined()
        #expect(Self.problem("<a\(declarations)\(attributes)/>") == nil)
        let nestedScopes = String(repeating: #"<a xmlns:p="u">"#, count: XMPReader.maximumDepth) + String(repeating: "</a>", count: XMPReader.maximumDepth)
        #expect(Self.problem(nestedScopes) == nil)
        let manyComments = "<a>" + String(repeating: "<!---->", count: 100_000) + "</a>"
        #expect(Self.problem(manyComments) == nil)
        let unclosedComments = "<a>" + String(repeating: "<!--", count: 200_000)
        #expect(Self.problem(unclosedComments) == .malformed("unclosed comment"))
        let ampersands = "<a>" + String(repeating: "&", count: 500_000) + "</a>"
        #expect(Self.problem(ampersands) == .malformed("'&' not followed by a reference"))
        #expect(Self.problem(String(repeating: " ", count: XMPReader.maximumBytes + 1)) == .tooLarge(bytes: XMPReader.maximumBytes + 1))
        // Debug builds on a busy machine: generous, but far below what quadratic work would take.
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
