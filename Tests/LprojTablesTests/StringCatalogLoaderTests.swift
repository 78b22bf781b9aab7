import Foundation
import LprojTablesOracle
import Testing
@testable import LprojTables

/// The one-pass loader gives exactly what the parser and the compiler give,
/// taking the fast way for catalogs as Xcode writes them and the slow way
/// whenever the parser would have something to say.
@Suite struct StringCatalogLoaderTests {
    static func compare(_ bytes: [UInt8], compiler: StringCatalogCompiler = StringCatalogCompiler(), _ label: String) throws {
        let loaded = try StringCatalogLoader(compiler: compiler).load(bytes)
        let file = try StringCatalogParser().parse(bytes)
        let expected = compiler.compile(file.catalog)
        #expect(loaded.sourceLanguage == file.catalog.sourceLanguage, "\(label)")
        #expect(loaded.compilation.tables.map(\.language) == expected.tables.map(\.language), "\(label)")
        for (table, wanted) in zip(loaded.compilation.tables, expected.tables) {
            #expect(table.strings.dictionary == wanted.strings.dictionary, "\(label) \(table.language)")
            #expect(table.plurals == wanted.plurals, "\(label) \(table.language)")
        }
        #expect(Set(loaded.compilation.diagnostics) == Set(expected.diagnostics), "\(label)")
        #expect(loaded.readingDiagnostics.map(\.description).sorted() == file.diagnostics.map(\.description).sorted(), "\(label)")
    }

    static let catalogs: [URL] = [
        Corpus.root.appendingPathComponent("IceCubesApp/IceCubesApp/Resources/Localization/Localizable.xcstrings"),
        Fixtures.root.appendingPathComponent("WhistleYoo/Localizable.xcstrings"),
    ]

    @Test(arguments: catalogs)
    func realCatalogsLoadTheFastWayToTheSameTables(_ url: URL) throws {
        let bytes = Array(try Data(contentsOf: url))
        #expect(bytes.withUnsafeBufferPointer { StringCatalogLoader().fastLoad($0) } != nil, "the fast way is taken")
        try Self.compare(bytes, url.lastPathComponent)
        try Self.compare(bytes, compiler: StringCatalogCompiler(includesAllStates: true), "\(url.lastPathComponent), all states")
    }

    /// Catalogs with something for the parser to report, or whose meaning
    /// depends on what the fast way does not read: each must come out as
    /// the slow way makes it.
    @Test(arguments: [
        #"{"strings": {"a": {}}, "sourceLanguage": "en"}"#,
        #"{"sourceLanguage": "en", "version": "9.9", "strings": {}}"#,
        #"{"sourceLanguage": "en", "strings": {"a": {"comment": 3}}}"#,
        #"{"sourceLanguage": "en", "strings": {"a": {"localizations": {"de": {"stringUnit": {"state": "translated"}}}}}}"#,
        #"{"sourceLanguage": "en", "strings": {"a": {"localizations": {"de": {"stringUnit": {"state": "new", "value": "A"}}}}, "a": {}}}"#,
        #"{"sourceLanguage": "en", "strings": {"a": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "1"}}, "de": {"stringUnit": {"state": "translated", "value": "2"}}}}}}"#,
        #"{"sourceLanguage": "en", "strings": {"a": {"shouldTranslate": false, "localizations": {"de": {"stringUnit": {"state": "translated", "value": "A"}}, "en": {"stringUnit": {"state": "new", "value": "Source"}}}}}}"#,
        #"{"sourceLanguage": "en", "strings": {"n": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "%#@n@"}, "substitutions": {"n": {"formatSpecifier": "lld", "variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%arg fichier"}}, "other": {"stringUnit": {"state": "translated", "value": "%arg fichiers"}}}}}}}}}}}"#,
        #"{"sourceLanguage": "en", "strings": {"d": {"localizations": {"de": {"variations": {"device": {"mac": {"stringUnit": {"state": "translated", "value": "Mac"}}, "iphone": {"stringUnit": {"state": "translated", "value": "iPhone"}}}}}}}}}"#,
        #"{"sourceLanguage": "en", "strings": {"p": {"localizations": {"de": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%lld Datei"}}, "other": {"stringUnit": {"state": "translated", "value": "%lld Dateien"}}}}}}}}}"#,
        #"{"sourceLanguage": "en", "strings": {"x": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Ref %#@missing@"}}}}}}"#,
        #"{"sourceLanguage": "en", "strings": {"u": {"localizations": {"de": {"stringUnit": {"value": "V", "state": "needs_review", "extra": 1}}}}}}"#,
        #"{"sourceLanguage": "en", "strings": {"e": {"localizations": {"en": {}}}, "f": {"localizations": {"de": {"stringUnit": {"state": "new", "value": "Neu"}}}}}}"#,
    ])
    func everyOtherCatalogComesOutAsTheSlowWayMakesIt(_ text: String) throws {
        try Self.compare(Array(text.utf8), text)
        try Self.compare(Array(text.utf8), compiler: StringCatalogCompiler(includesAllStates: true), text)
    }
}
