import Foundation
import LprojExchange
import LprojTables
import Testing

/// The strict XML reader on hostile input: no DTD, no entity, bounded.
@Suite struct XMLReaderTests {
    func failure(_ text: String, _ reader: XMLReader = XMLReader()) -> XMLError? {
        do {
            _ = try reader.read(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func externalEntitiesAreNeverRead() throws {
        // XXE: the classic file-reading payload, in an XLIFF document.
        let xxe = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE xliff [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
            <xliff version="1.2"><file>&secret;</file></xliff>
            """
        let error = try #require(failure(xxe))
        #expect(error.location == SourceLocation(line: 2, column: 1))
        #expect(error.message.contains("document type declaration is not accepted"))
        // Even where a DOCTYPE is allowed (property lists), an internal subset is not.
        let plist = try #require(failure(xxe, XMLReader(doctype: .allowExternalIdentifier)))
        #expect(plist.location.line == 2)
        #expect(plist.message.contains("internal subset"))
        // A reference to an entity that was never declared is an error, not text.
        let undeclared = try #require(failure("<a>\n  x &secret; y</a>"))
        #expect(undeclared.location == SourceLocation(line: 2, column: 5))
        #expect(undeclared.message.contains("&secret; is not expanded"))
        // A parameter entity or external DTD by URL is not fetched either.
        let external = try #require(failure(#"<!DOCTYPE a SYSTEM "http://127.0.0.1:9/evil.dtd"><a/>"#))
        #expect(external.message.contains("document type declaration"))
    }

    @Test func billionLaughsIsRefusedAtOnce() throws {
        var text = #"<?xml version="1.0"?>\#n<!DOCTYPE lolz [\#n <!ENTITY lol "lol">\#n"#
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            text += " <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        text += "]>\n<lolz>&lol9;</lolz>\n"
        let clock = ContinuousClock()
        let start = clock.now
        for reader in [XMLReader(), XMLReader(doctype: .allowExternalIdentifier)] {
            let error = try #require(failure(text, reader))
            #expect(error.location.line == 2)
        }
        #expect(clock.now - start < .seconds(1))
    }

    @Test func depthIsBounded() throws {
        let depth = 100_000
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let error = try #require(failure(text))
        #expect(error.message.contains("nested more than 64 deep"))
        #expect(error.location == SourceLocation(line: 1, column: 64 * 3 + 1))
        // 64 levels are read.
        let fine = String(repeating: "<a>", count: 64) + String(repeating: "</a>", count: 64)
        #expect(failure(fine) == nil)
    }

    @Test func sizeAndCountsAreBounded() throws {
        let big = "<a>" + String(repeating: "x", count: 2000) + "</a>"
        let error = try #require(failure(big, XMLReader(limits: XMLLimits(maximumBytes: 1000))))
        #expect(error.message.contains("at most 1000 are read"))
        let many = "<a>" + String(repeating: "<b/>", count: 20) + "</a>"
        #expect(try #require(failure(many, XMLReader(limits: XMLLimits(maximumElements: 10)))).message.contains("more than 10 elements"))
        let attributes = "<a " + (0..<40).map { "x\($0)=\"1\"" }.joined(separator: " ") + "/>"
        #expect(try #require(failure(attributes)).message.contains("more than 32 attributes"))
        let name = "<" + String(repeating: "n", count: 300) + "/>"
        #expect(try #require(failure(name)).message.contains("longer than 256 bytes"))
        // The default: 64 MiB.
        #expect(XMLLimits.standard.maximumBytes == 64 << 20)
    }

    /// A document of one long line is read in linear time: locations are
    /// counted on, not from the line's start each time.
    @Test func oneLongLineIsReadInLinearTime() throws {
        let text = "<a>" + String(repeating: "<b x=\"1\">t</b>", count: 200_000) + "</a>"
        let clock = ContinuousClock()
        let start = clock.now
        let root = try XMLReader().read(Array(text.utf8))
        #expect(root.elements.count == 200_000)
        #expect(root.elements.last?.location == SourceLocation(line: 1, column: 4 + 199_999 * 14))
        #expect(clock.now - start < .seconds(20))
    }

    /// Prefixes declared by every element cost each element its own
    /// declarations, not its parent's whole scope (a 48 MB file once took
    /// 104 s of CPU); and declarations count as attributes.
    @Test func namespaceDeclarationsAreReadInLinearTime() throws {
        let prefixes = (0..<20_000).map { " xmlns:p\($0)=\"urn:\($0)\"" }.joined()
        let children = (0..<20_000).map { "<p\($0 % 100):b xmlns:q\($0)=\"urn:q\" q\($0):x=\"1\"/>" }.joined()
        let text = "<a\(prefixes)>\(children)</a>"
        let clock = ContinuousClock()
        let start = clock.now
        let root = try XMLReader(limits: XMLLimits(maximumAttributes: 40_000)).read(Array(text.utf8))
        #expect(root.elements.count == 20_000)
        #expect(root.elements[7].namespace == "urn:7" && root.elements[7].attributes.first?.namespace == "urn:q")
        #expect(clock.now - start < .seconds(20))
        // A prefix declared by an element is not in scope after it.
        #expect(try #require(failure("<a><b xmlns:p=\"u\"/><p:c/></a>")).message.contains("prefix p"))
        // Declarations count against the attributes an element may have.
        let declarations = "<a " + (0..<40).map { "xmlns:x\($0)=\"u\"" }.joined(separator: " ") + "/>"
        #expect(try #require(failure(declarations)).message.contains("more than 32 attributes"))
    }

    @Test func malformedDocumentsNameTheirPlace() throws {
        let cases: [(String, SourceLocation, String)] = [
            ("<a>\n<b></c>\n</a>", SourceLocation(line: 2, column: 4), "</c> does not close <b>"),
            ("<a x=\"1\" x=\"2\"/>", SourceLocation(line: 1, column: 10), "given twice"),
            ("<a>\u{1}</a>", SourceLocation(line: 1, column: 4), "U+0001 is not allowed"),
            ("<a>&#0;</a>", SourceLocation(line: 1, column: 4), "does not name a character"),
            ("<a>x & y</a>", SourceLocation(line: 1, column: 6), "must start a reference"),
            ("<a>\n  <b>", SourceLocation(line: 2, column: 3), "<b> is never closed"),
            ("<a/><b/>", SourceLocation(line: 1, column: 5), "a second root"),
            ("<p:a/>", SourceLocation(line: 1, column: 1), "prefix p"),
            ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", SourceLocation(line: 1, column: 1), "only UTF-8"),
            ("<a b='<'/>", SourceLocation(line: 1, column: 7), "'<' is not allowed"),
            ("<a><!-- x -- y --></a>", SourceLocation(line: 1, column: 11), "'--'"),
        ]
        for (text, location, message) in cases {
            let error = try #require(failure(text), "\(text)")
            #expect(error.location == location, "\(text)")
            #expect(error.message.contains(message), "\(text): \(error.message)")
        }
        var invalid = Array("<a>é</a>".utf8)
        invalid[3] = 0xFF
        #expect(try #require(readBytes(invalid)).message.contains("UTF-8"))
    }

    func readBytes(_ bytes: [UInt8]) -> XMLError? {
        do {
            _ = try XMLReader().read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func textIsReadAsXMLDefinesIt() throws {
        let root = try XMLReader().read(
            Array("<a v=\"x\ny\t&#10;z\">line\r\none\rtwo &#13;&lt;&amp;&#x1F642;<![CDATA[<raw>&amp;]]></a>".utf8))
        #expect(root.attribute("v") == "x y \nz")
        #expect(root.text == "line\none\ntwo \r<&🙂<raw>&amp;")
    }
}
