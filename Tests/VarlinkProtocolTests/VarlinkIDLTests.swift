import Testing
@testable import VarlinkProtocol

@Suite struct VarlinkIDLTests {
    @Test func parsesDeclarationsWithTheirDocumentation() throws {
        let idl = try VarlinkIDL(
            parsing: """
                # An example.
                # Two lines.
                interface org.example.Test

                # A point.
                type Point (x: float, y: float)

                # Unattached: a blank line follows.

                type Shape (
                  # Its kind.
                  kind: (circle, square),
                  points: []Point,
                  tags: [string]string,
                  flags: [string](),
                  extra: ?object,
                  nested: ?(depth: int, name: ?string)
                )

                method Draw(shape: Shape, scale: ?float) -> (id: int, ok: bool)
                method Clear() -> ()
                error NotDrawable (reason: string)
                error Busy ()
                """)
        #expect(idl.name == "org.example.Test")
        #expect(idl.documentation == ["An example.", "Two lines."])
        #expect(idl.types.map(\.name) == ["Point", "Shape"])
        #expect(idl.types[0].documentation == ["A point."])
        #expect(idl.types[1].documentation == [])
        guard case .structure(let fields) = idl.types[1].type else {
            Issue.record("Shape is not a struct")
            return
        }
        #expect(fields.map(\.name) == ["kind", "points", "tags", "flags", "extra", "nested"])
        #expect(fields[0].documentation == ["Its kind."])
        #expect(fields[0].type == .enumeration(["circle", "square"]))
        #expect(fields[1].type == .array(.named("Point")))
        #expect(fields[2].type == .map(.string))
        #expect(fields[3].type == .set)
        #expect(fields[4].type == .optional(.object))
        #expect(
            fields[5].type
                == .optional(
                    .structure([
                        .init(name: "depth", type: .int, documentation: []),
                        .init(name: "name", type: .optional(.string), documentation: []),
                    ])))
        #expect(idl.methods.map(\.name) == ["Draw", "Clear"])
        #expect(idl.methods[0].input.map(\.type) == [.named("Shape"), .optional(.float)])
        #expect(idl.methods[0].output.map(\.name) == ["id", "ok"])
        #expect(idl.methods[1].input.isEmpty && idl.methods[1].output.isEmpty)
        #expect(idl.errors.map(\.name) == ["NotDrawable", "Busy"])
    }

    @Test(arguments: [
        ("type A (x: int)", 1, "expected 'interface' first"),
        ("interface a.b\ntype a (x: int)", 2, "'a' must start with a capital letter"),
        ("interface a.b\n\nmethod M(x: int) (y: int)", 3, "expected '->' after M's input"),
        ("interface a.b\ntype A (x: ??int)", 2, "'??' is not a type"),
        ("interface a.b\ntype A (x: [int]string)", 2, "a map is keyed by string"),
        ("interface a.b\ntype A (x: int, b)", 2, "expected ':' after 'b'"),
        ("interface a.b\nfunc A ()", 2, "unknown keyword 'func'"),
        ("interface a.b\ntype A (x: integer)", 2, "unknown type 'integer'"),
    ])
    func rejectsWhatIsNotADefinition(text: String, line: Int, message: String) {
        #expect(throws: VarlinkIDL.ParseError(line: line, message: message)) { try VarlinkIDL(parsing: text) }
    }

    @Test func parsesTheServiceInterface() throws {
        let idl = try VarlinkIDL(parsing: VarlinkDispatcher.serviceDescription)
        #expect(idl.name == "org.varlink.service")
        #expect(idl.methods.map(\.name) == ["GetInfo", "GetInterfaceDescription"])
        #expect(idl.errors.count == 6)
    }
}
