package import LprojEngine
internal import LprojFormatStrings
package import LprojLocales
internal import LprojTables

/// Checks table files and String Catalogs for what breaks apps and what
/// translators get wrong.
///
/// Beyond syntax errors, duplicate keys and malformed stringsdict entries
/// (the parsers' diagnostics), it compares every translation with the
/// development language's value for the same key: an argument the
/// translation uses as another type (`%d … %@` turned into `%@ … %d`), one
/// the development language does not pass, or one it drops. It also
/// reports plural categories a language needs that an entry lacks, unused
/// plural variables, and `%1#@name@` written without `$`.
package struct Linter: Sendable {
    /// The development locale to compare translations with; when `nil`,
    /// `en.lproj`, else `Base.lproj`, of each bundle.
    package var developmentLocale: LocaleIdentifier?
    /// Where the files are read from.
    package let files: any FileTree
    /// Files larger than this are reported, not read.
    package var maximumFileSize = 256 << 20

    /// Creates a linter that reads from `files` (`LprojFiles.DiskFileTree` for the disk).
    package init(files: any FileTree, developmentLocale: LocaleIdentifier? = nil) {
        self.files = files
        self.developmentLocale = developmentLocale
    }

    /// Lints files and directories (recursively).
    package func lint(paths: [String]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let files = TableFileSet(files: files, maximumFileSize: maximumFileSize)
        for path in collect(paths, findings: &findings) {
            findings += lint(file: path, files: files)
        }
        return findings.sorted()
    }

    private func collect(_ paths: [String], findings: inout [LintFinding]) -> [String] {
        var result: [String] = []
        for path in paths {
            guard let entry = files.entry(at: path) else {
                findings.append(
                    LintFinding(
                        file: path,
                        diagnostic: Diagnostic(severity: .error, location: nil, code: "missing", message: "no such file or directory")))
                continue
            }
            if entry == .directory {
                result += tableFiles(under: path).sorted()
            } else if Self.isLinted(TreePath.lastComponent(path)) {
                result.append(path)
            } else {
                findings.append(
                    LintFinding(
                        file: path,
                        diagnostic: Diagnostic(
                            severity: .warning, location: nil, code: "not-a-table",
                            message: "not a .strings, .stringsdict or .xcstrings file; skipped")
                    ))
            }
        }
        return result
    }

    /// The table files in a directory and its subdirectories.
    private func tableFiles(under directory: String) -> [String] {
        var found: [String] = []
        var pending = [directory]
        while let next = pending.popLast() {
            for name in (try? files.names(in: next)) ?? [] {
                let path = TreePath.join(next, name)
                switch files.entry(at: path) {
                case .directory?: pending.append(path)
                case .file? where Self.isLinted(name): found.append(path)
                default: break
                }
            }
        }
        return found
    }

    private static func isLinted(_ fileName: String) -> Bool {
        TableFileKind(fileName: fileName) != nil || StringCatalogFiles.tableName(of: fileName) != nil
    }

    private func lint(catalog path: String) -> [LintFinding] {
        let diagnostics: [Diagnostic]
        do {
            let bytes = try files.read(path, maximumSize: maximumFileSize)
            diagnostics = CatalogChecks.check(try StringCatalogParser().parse(bytes), path: path, files: files)
        } catch let error as TableParseError {
            diagnostics = [error.diagnostic]
        } catch {
            diagnostics = [Diagnostic(severity: .error, location: nil, code: "unreadable", message: "cannot be read: \(error)")]
        }
        return diagnostics.map { LintFinding(file: path, diagnostic: $0) }
    }

    private func lint(file path: String, files: TableFileSet) -> [LintFinding] {
        if StringCatalogFiles.tableName(of: TreePath.lastComponent(path)) != nil { return lint(catalog: path) }
        let parsed: ParsedTableFile
        switch files.read(path) {
        case .success(let file): parsed = file
        case .failure(let error):
            return [
                LintFinding(
                    file: path,
                    diagnostic: Diagnostic(severity: .error, location: nil, code: "unreadable", message: "cannot be read: \(error)"))
            ]
        }
        if let failure = parsed.failure {
            return [LintFinding(file: path, diagnostic: failure.diagnostic)]
        }
        var diagnostics = parsed.strings?.diagnostics ?? parsed.stringsdict?.diagnostics ?? []
        let folder = TreePath.parent(path)
        let locale = folderLocale(TreePath.lastComponent(folder), diagnostics: &diagnostics)
        if let stringsdict = parsed.stringsdict {
            diagnostics += PluralChecks.check(stringsdict, locale: locale)
        }
        diagnostics += FormatChecks.tolerated(parsed)
        if let developmentFile = developmentCounterpart(of: path, folder: folder, files: files), developmentFile != folder {
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
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, location: nil, code: "unknown-locale",
                            message:
                                "'\(locale.tag)' is not a locale ICU knows; lprojd loads this folder only if the bundle maps it to a standard locale"
                        ))
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
    private func developmentCounterpart(of path: String, folder translationFolder: String, files: TableFileSet) -> String? {
        guard TreePath.lastComponent(translationFolder).hasSuffix(".lproj") else { return nil }
        let root = TreePath.parent(translationFolder)
        let siblings = files.lprojFolders(in: root)
        func folder(for key: LocaleKey) -> String? {
            siblings.first {
                (try? LprojName(folderName: $0))?.matchKey == key
            }
            .map { TreePath.join(root, $0) }
        }
        if let developmentLocale { return folder(for: developmentLocale.matchKey) }
        if let english = try? LocaleIdentifier("en"), let found = folder(for: english.matchKey) { return found }
        return siblings.contains("Base.lproj") ? TreePath.join(root, "Base.lproj") : nil
    }
}
