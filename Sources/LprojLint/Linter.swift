internal import Foundation
internal import LprojEngine
internal import LprojFormat
public import LprojLocales
internal import LprojTables

/// Checks table files for what breaks apps and what translators get wrong.
///
/// Beyond syntax errors, duplicate keys and malformed stringsdict entries
/// (the parsers' diagnostics), it compares every translation with the
/// development language's value for the same key: an argument the
/// translation uses as another type (`%d … %@` turned into `%@ … %d`), one
/// the development language does not pass, or one it drops. It also
/// reports plural categories a language needs that an entry lacks, unused
/// plural variables, and `%1#@name@` written without `$`.
public struct Linter: Sendable {
    /// The development locale to compare translations with; when `nil`,
    /// `en.lproj`, else `Base.lproj`, of each bundle.
    public var developmentLocale: LocaleIdentifier?

    /// Creates a linter.
    public init(developmentLocale: LocaleIdentifier? = nil) {
        self.developmentLocale = developmentLocale
    }

    /// Lints files and directories (recursively).
    public func lint(paths: [String]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let files = TableFileSet()
        for path in collect(paths, findings: &findings) {
            findings += lint(file: path, files: files)
        }
        return findings.sorted()
    }

    private func collect(_ paths: [String], findings: inout [LintFinding]) -> [String] {
        var result: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                findings.append(LintFinding(file: path, diagnostic: Diagnostic(severity: .error, location: nil, code: "missing", message: "no such file or directory")))
                continue
            }
            if isDirectory.boolValue {
                let enumerator = FileManager.default.enumerator(atPath: path)
                var found: [String] = []
                while let relative = enumerator?.nextObject() as? String {
                    if TableFileKind(fileName: (relative as NSString).lastPathComponent) != nil {
                        found.append((path as NSString).appendingPathComponent(relative))
                    }
                }
                result += found.sorted()
            } else if TableFileKind(fileName: (path as NSString).lastPathComponent) != nil {
                result.append(path)
            } else {
                findings.append(LintFinding(file: path, diagnostic: Diagnostic(severity: .warning, location: nil, code: "not-a-table", message: "not a .strings or .stringsdict file; skipped")))
            }
        }
        return result
    }

    private func lint(file path: String, files: TableFileSet) -> [LintFinding] {
        guard let parsed = files.read(path) else {
            return [LintFinding(file: path, diagnostic: Diagnostic(severity: .error, location: nil, code: "unreadable", message: "cannot be read"))]
        }
        if let failure = parsed.failure {
            return [LintFinding(file: path, diagnostic: failure.diagnostic)]
        }
        var diagnostics = parsed.strings?.diagnostics ?? parsed.stringsdict?.diagnostics ?? []
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let locale = folderLocale(folder.lastPathComponent, diagnostics: &diagnostics)
        if let stringsdict = parsed.stringsdict {
            diagnostics += PluralChecks.check(stringsdict, locale: locale)
        }
        diagnostics += FormatChecks.tolerated(parsed)
        if let developmentFile = developmentCounterpart(of: path, folder: folder), developmentFile != folder {
            diagnostics += ArgumentChecks.compare(parsed, development: developmentFile, files: files)
        }
        return diagnostics.map { LintFinding(file: path, diagnostic: $0) }
    }

    /// The locale a folder stands for, or `nil` (Base, or not an .lproj).
    private func folderLocale(_ folderName: String, diagnostics: inout [Diagnostic]) -> LocaleIdentifier? {
        guard folderName.hasSuffix(".lproj") else { return nil }
        do {
            if case .locale(let locale) = try LprojName(folderName: folderName) {
                if !KnownLocales.isKnown(locale) {
                    diagnostics.append(Diagnostic(severity: .warning, location: nil, code: "unknown-locale",
                        message: "'\(locale.tag)' is not a locale ICU knows; lprojd loads this folder only if the bundle maps it to a standard locale"))
                    return nil
                }
                return locale
            }
        } catch {
            diagnostics.append(Diagnostic(severity: .error, location: nil, code: "unknown-locale", message: "\(folderName): \(error)"))
        }
        return nil
    }

    /// The development locale's folder next to a file's folder.
    private func developmentCounterpart(of path: String, folder translationFolder: URL) -> URL? {
        guard translationFolder.lastPathComponent.hasSuffix(".lproj") else { return nil }
        let root = translationFolder.deletingLastPathComponent()
        let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.hasSuffix(".lproj") }.sorted()
        func folder(for key: LocaleKey) -> URL? {
            siblings.first { (try? LprojName(folderName: $0)).flatMap { name -> LocaleKey? in if case .locale(let locale) = name { locale.matchKey } else { nil } } == key }
                .map { root.appendingPathComponent($0) }
        }
        if let developmentLocale { return folder(for: developmentLocale.matchKey) }
        if let english = try? LocaleIdentifier("en"), let found = folder(for: english.matchKey) { return found }
        return siblings.contains("Base.lproj") ? root.appendingPathComponent("Base.lproj") : nil
    }
}
