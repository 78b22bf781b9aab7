import Foundation
import LprojExchange
import LprojTables
import Testing

/// Export then import, through the XLIFF's bytes, changes nothing on every
/// bundle of the shared corpus, in every language it has.
@Suite struct CorpusRoundTripTests {
    static var corpus: URL {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }

    /// Every directory of the corpus with `.lproj` folders or a String Catalog.
    static func bundles() throws -> [URL] {
        var result: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: corpus.path)!
        while let path = enumerator.nextObject() as? String {
            if path.hasSuffix(".lproj") {
                result.insert((path as NSString).deletingLastPathComponent)
                enumerator.skipDescendants()
            } else if path.hasSuffix(".xcstrings") {
                result.insert((path as NSString).deletingLastPathComponent)
            }
        }
        return result.sorted().map { corpus.appendingPathComponent($0) }
    }

    /// A bundle directory's tables, as `lprojctl` reads them.
    static func read(_ directory: URL) throws -> ExchangeBundle {
        var files: [String: [UInt8]] = [:]
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".lproj") {
            for file in try manager.contentsOfDirectory(atPath: directory.appendingPathComponent(name).path)
            where file.hasSuffix(".strings") || file.hasSuffix(".stringsdict") {
                files["\(name)/\(file)"] = [UInt8](try Data(contentsOf: directory.appendingPathComponent("\(name)/\(file)")))
            }
        }
        for name in try manager.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".xcstrings") {
            files[name] = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
        }
        let folders = Set(files.keys.compactMap { $0.split(separator: "/").first.map(String.init) })
        return ExchangeBundle(
            files: files, developmentFolder: folders.contains("en.lproj") || !folders.contains("Base.lproj") ? "en" : "Base")
    }

    /// The languages of a bundle besides its development language.
    static func languages(_ bundle: ExchangeBundle) throws -> [String] {
        var languages: Set<String> = []
        for path in bundle.files.keys {
            if let folder = path.split(separator: "/").first, folder.hasSuffix(".lproj"), path.contains("/") {
                languages.insert(String(folder.dropLast(6)))
            } else if path.hasSuffix(".xcstrings") {
                let catalog = try StringCatalogParser().parse(bundle.files[path]!).catalog
                languages.formUnion(catalog.languages.filter { $0 != catalog.sourceLanguage })
            }
        }
        languages.remove(bundle.developmentFolder)
        languages.remove("Base")
        return languages.sorted()
    }

    @Test func exportThenImportChangesNothing() throws {
        let tool = XLIFFDocument.Tool(id: "org.lprojd.lprojctl", name: "lprojctl", version: "test")
        var exchanges = 0, units = 0, translated = 0
        for directory in try Self.bundles() {
            let bundle = try Self.read(directory)
            for language in try Self.languages(bundle) {
                let exchange: LocalizationExchange
                do {
                    exchange = try LocalizationExchange(bundle: bundle, language: language)
                } catch {
                    // A folder that is no language (vlc-ios's `Settings.bundle` has none such): say which.
                    Issue.record("\(directory.lastPathComponent) \(language): \(error)")
                    continue
                }
                let (document, _) = exchange.xliffDocument(tool: tool)
                let bytes = XLIFFWriter.write(document)
                let read = try XLIFFReader.read(bytes)
                let same = read.withoutLocations == document
                #expect(same, "\(directory.path) \(language): the XLIFF does not read back as written")
                if !same {
                    let written = document.files.flatMap(\.units), back = read.withoutLocations.files.flatMap(\.units)
                    for (index, unit) in written.enumerated() where index < back.count && back[index] != unit {
                        Issue.record("first difference: \(unit) read back as \(back[index])")
                        break
                    }
                }
                let plan = exchange.importing(read, from: "\(language).xliff")
                #expect(plan.findings.isEmpty, "\(directory.path) \(language): \(plan.findings.prefix(3))")
                #expect(plan.writes.isEmpty, "\(directory.path) \(language): \(plan.writes.map(\.path))")
                exchanges += 1
                units += document.files.reduce(0) { $0 + $1.units.count }
                translated += document.files.reduce(0) { $0 + $1.units.filter { $0.target != nil }.count }
            }
        }
        print("corpus round trip: \(exchanges) bundle languages, \(units) units, \(translated) translated")
        #expect(exchanges > 400)
    }
}
