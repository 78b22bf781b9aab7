import Foundation
import LprojEngine
import LprojFiles
import LprojLocales

/// A bundle directory written for one test and removed afterwards.
final class TemporaryBundle {
    let directory: URL

    init(_ files: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lprojd-test-\(UUID().uuidString)", isDirectory: true)
        for (path, contents) in files { try write(path, contents) }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func write(_ path: String, _ contents: String) throws {
        try write(path, bytes: Array(contents.utf8))
    }

    func write(_ path: String, bytes: [UInt8]) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func configuration(development: String = "en", custom: [String: String] = [:]) throws -> BundleConfiguration {
        var mapped: [String: LocaleIdentifier] = [:]
        for (key, value) in custom { mapped[try LocaleIdentifier(key).tag] = try LocaleIdentifier(value) }
        return BundleConfiguration(
            name: "test", directory: directory.path, developmentLocale: try LocaleIdentifier(development), customLocales: mapped)
    }

    func load(development: String = "en", custom: [String: String] = [:], previous: LoadedBundle? = nil) throws -> LoadedBundle {
        BundleLoader().load(try configuration(development: development, custom: custom), previous: previous)
    }

    static func stringsdict(_ entries: [(key: String, format: String, variable: String, forms: [String: String])]) -> String {
        var body = ""
        for entry in entries {
            body += "<key>\(entry.key)</key><dict><key>NSStringLocalizedFormatKey</key><string>\(entry.format)</string>"
            body +=
                "<key>\(entry.variable)</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string>"
            for (category, text) in entry.forms.sorted(by: { $0.key < $1.key }) { body += "<key>\(category)</key><string>\(text)</string>" }
            body += "</dict></dict>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\n\(body)</dict></plist>\n"
    }
}
