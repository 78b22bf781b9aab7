import Foundation
import Testing
import VarlinkProtocol

@testable import VarlinkCodegen

/// The C and Python generators' rules, each on a small interface made to
/// hit it (the committed clients are checked whole by
/// `GeneratedInterfaceTests`): names in each language's spelling, enum
/// nicks as GLib spells them, an array of structs set with its length, the
/// interface's errors as codes and classes, a streaming method as a signal
/// and an iterator, Python's keywords escaped.
@Suite struct ClientGeneratorTests {
    static let source = """
        # A test interface.
        interface org.example.Test

        type Item (name: string, count: int)

        # Reads a table.
        method GetTable(developmentLocale: string, class: ?string, items: ?[]Item, limit: ?int) -> (items: []Item, reason: (saved, notFound))

        method Watch(from: ?string) -> (item: Item)

        error NotFound(name: string)
        """

    static func c() throws -> CGenerator.Files {
        try CGenerator(idl: try VarlinkIDL(parsing: source), prefix: "Test", streaming: ["Watch"], sourceName: "test.varlink")
            .generate()
    }

    static func python() throws -> String {
        try PythonGenerator(idl: try VarlinkIDL(parsing: source), streaming: ["Watch"], sourceName: "test.varlink").generate()
    }

    @Test(arguments: [
        ("developmentLocale", "development_locale"), ("connectionsPerUID", "connections_per_uid"), ("GetTable", "get_table"),
        ("time12", "time12"), ("UID", "uid"), ("spellOut", "spell_out"),
    ])
    func namesAreSnakeCase(name: String, snake: String) {
        #expect(CModel.snake(name) == snake)
    }

    @Test func everyMethodIsAsyncFinishAndSyncWithACancellable() throws {
        let header = try Self.c().callsHeader
        #expect(
            header.contains(
                "void test_connection_get_table_async(TestConnection *self, TestGetTableParameters *parameters, GCancellable *cancellable,")
        )
        #expect(
            header.contains(
                "TestGetTableReply *test_connection_get_table_finish(TestConnection *self, GAsyncResult *result, GError **error);"))
        #expect(
            header.contains(
                "TestGetTableReply *test_connection_get_table_sync(TestConnection *self, TestGetTableParameters *parameters, GCancellable *cancellable,"
            ))
    }

    @Test func requiredFieldsAreTheConstructorsAndOptionalOnesHaveSetters() throws {
        let header = try Self.c().interfaceHeader
        #expect(header.contains("TestGetTableParameters *test_get_table_parameters_new(const char * development_locale);"))
        #expect(header.contains("void test_get_table_parameters_set_limit(TestGetTableParameters *self, gint64 value);"))
    }

    /// GJS 1.74 cannot pass a GPtrArray of boxed values: an array of
    /// structs is set as a C array and its length.
    @Test func anArrayOfStructsIsSetWithItsLength() throws {
        let header = try Self.c().interfaceHeader
        #expect(header.contains("void test_get_table_parameters_set_items(TestGetTableParameters *self, TestItem **value, gsize length);"))
        #expect(header.contains("GPtrArray * test_get_table_reply_get_items(TestGetTableReply *self);"))
    }

    @Test func enumNicksAreGLibsAndTheWireKeepsItsNames() throws {
        let source = try Self.c().interfaceSource
        #expect(source.contains(#"{TEST_GET_TABLE_REPLY_REASON_NOT_FOUND, "TEST_GET_TABLE_REPLY_REASON_NOT_FOUND", "not-found"}"#))
        #expect(source.contains(#"case TEST_GET_TABLE_REPLY_REASON_NOT_FOUND: return "notFound";"#))
    }

    @Test func theInterfacesErrorsAreCodesByName() throws {
        let files = try Self.c()
        #expect(files.interfaceHeader.contains("TEST_ERROR_NOT_FOUND,"))
        #expect(files.interfaceSource.contains(#"{"org.example.Test.NotFound", TEST_ERROR_NOT_FOUND}"#))
        // The library's own errors keep their codes before and after the interface's.
        let codes = files.interfaceHeader.split(separator: "\n").filter { $0.hasPrefix("  TEST_ERROR_") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(
            codes == [
                "TEST_ERROR_UNAVAILABLE,", "TEST_ERROR_DISCONNECTED,", "TEST_ERROR_MALFORMED_REPLY,", "TEST_ERROR_PROTOCOL,",
                "TEST_ERROR_NOT_FOUND,", "TEST_ERROR_TIMEOUT,",
            ])
    }

    @Test func aStreamingMethodsRepliesComeAsASignal() throws {
        let calls = try Self.c().callsSource
        #expect(calls.contains("TestConnection::watch-reply:"))
    }

    @Test func pythonSpellsNamesItsWayAndEscapesKeywords() throws {
        let python = try Self.python()
        #expect(python.contains("    def get_table("))
        #expect(python.contains("        class_: str | None = None,"))
        #expect(python.contains(#""class": class_,"#))
        #expect(python.contains(#"    def watch(self, *, from_: str | None = None) -> Iterator[dict[str, Any]]:"#))
        #expect(python.contains(#"return self._stream("Watch", {"from": from_})"#))
        #expect(python.contains("class NotFound(DaemonError):"))
    }
}
