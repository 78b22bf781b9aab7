import Foundation

/// Finds localizable strings in Python source, with Python's own parser:
/// `python3` runs a small script (``script``) that reads every file with
/// `ast` and reports the calls of interest, their arguments as literals or
/// not, with their positions; which argument is which is decided here.
///
/// Extracted, when the key is a string literal (adjacent literals joined,
/// as Python joins them): the Python localizer's (`clients/python`)
/// `localizer.localized("key", table=, default=)`, `.lookup(…)` (also
/// `gi.repository.Lprojd`'s, with the same arguments),
/// `.lookup_with_placeholders(…)` and `AsyncLocalizer`'s
/// `await localizer.formatted("key", arguments, table=, default=)`, called
/// on any object but a module the file imports (`codecs.lookup("utf-8")` is
/// no key); and the app's own routines (``Routine``), called bare or on
/// anything (`_("key")`, `i18n.tr("key", "Menu")`).
///
/// A key that is not a literal is not extracted: an f-string with a
/// warning (the key is looked up as written), another expression (a
/// variable) quietly for the localizer's methods, whose names other objects
/// have too, and with a warning for a routine. Python has no comment for
/// translators in these calls: a routine's comment position (or a
/// `comment=` keyword) gives one; the localizer's calls have none.
public struct PythonExtractor: Sendable {
    /// The localizer's methods: (key, table, default), and `formatted`'s
    /// (key, arguments, table, default).
    static let methods: [String: ArgumentForm] = [
        "localized": ArgumentForm(key: 0, table: 1, value: 2, comment: nil),
        "lookup": ArgumentForm(key: 0, table: 1, value: 2, comment: nil),
        "lookup_with_placeholders": ArgumentForm(key: 0, table: 1, value: 2, comment: nil),
        "formatted": ArgumentForm(key: 0, table: 2, value: 3, comment: nil),
    ]

    let routines: [String: ArgumentForm]
    /// The interpreter: a path, or a name looked for on `PATH`.
    let python: String

    public init(routines: [Routine] = [], python: String = "python3") {
        self.routines = Routine.forms(routines)
        self.python = python
    }

    /// Why Python sources could not be read at all.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public func extract(_ files: [(path: String, text: String)]) throws(Failure) -> ExtractionResult {
        guard !files.isEmpty else { return ExtractionResult() }
        let names = Set(Self.methods.keys).union(routines.keys).sorted()
        let report = try run(Request(names: names, files: files.map { Request.File(path: $0.path, text: $0.text) }))
        var result = ExtractionResult()
        for file in report.files {
            if let error = file.error {
                result.warnings.append(
                    ExtractionWarning(
                        location: Location(file: file.path, line: error.line, column: error.column),
                        message: "not read: \(error.message); its keys are not extracted"))
            }
            for call in file.calls ?? [] { take(call, in: file.path, into: &result) }
        }
        result.strings.sort { $0.location < $1.location }
        result.warnings.sort { $0.location < $1.location }
        return result
    }

    func take(_ call: Report.Call, in file: String, into result: inout ExtractionResult) {
        let routine = routines[call.name]
        let isMethod = routine == nil && call.receiver == "object"
        guard let form = routine ?? (isMethod ? Self.methods[call.name] : nil) else { return }
        let items =
            call.arguments.map { (label: String?.none, item: $0) } + call.keywords.map { (label: $0.name, item: $0) }
        func at(_ argument: Report.Argument) -> Location { Location(file: file, line: argument.line, column: argument.column) }
        guard let key = form.argument(.key, in: items, positionsCountLabeled: false) else {
            if routine != nil {
                result.warnings.append(
                    ExtractionWarning(
                        location: Location(file: file, line: call.line, column: call.column),
                        message: "\(call.name): no argument \(form.key + 1) (the key), so nothing can be extracted"))
            }
            return
        }
        guard key.kind == "string", let text = key.value else {
            if key.kind == "formatted" {
                result.warnings.append(
                    ExtractionWarning(
                        location: at(key),
                        message: "\(call.name): an f-string key cannot be extracted (the key is looked up as written)"))
            } else if routine != nil {
                result.warnings.append(
                    ExtractionWarning(
                        location: at(key),
                        message: "\(call.name): the key is not a string literal, so it cannot be extracted; add it to the table by hand"))
            }
            return
        }
        guard !text.isEmpty else { return }
        func literal(_ role: ArgumentForm.Role) -> String? {
            guard let argument = form.argument(role, in: items, positionsCountLabeled: false), argument.kind == "string" else { return nil }
            return argument.value
        }
        result.strings.append(
            ExtractedString(
                key: text, table: literal(.table).flatMap { $0.isEmpty ? nil : $0 } ?? "Localizable", defaultValue: literal(.value),
                comment: literal(.comment).flatMap { $0.isEmpty ? nil : $0 }, location: at(key)))
    }

    /// What the script is given: the names of the calls to report, and the files.
    struct Request: Encodable {
        struct File: Encodable {
            let path: String
            let text: String
        }

        let names: [String]
        let files: [File]
    }

    /// What the script answers, per file: the calls of those names, or why
    /// the file could not be parsed.
    struct Report: Decodable {
        struct Argument: Decodable {
            /// `string`, `formatted` (an f-string), `none`, or `other`.
            let kind: String
            let value: String?
            /// A keyword argument's name.
            let name: String?
            let line: Int
            let column: Int
        }

        struct Call: Decodable {
            let name: String
            /// `none` (a bare name), `module` (a module the file imports),
            /// or `object`.
            let receiver: String
            let line: Int
            let column: Int
            let arguments: [Argument]
            let keywords: [Argument]
        }

        struct Problem: Decodable {
            let line: Int
            let column: Int
            let message: String
        }

        struct File: Decodable {
            let path: String
            let calls: [Call]?
            let error: Problem?
        }

        let files: [File]
    }

    /// Runs the script on a request (written to a file, so that nothing
    /// waits on a pipe), and decodes its answer.
    func run(_ request: Request) throws(Failure) -> Report {
        guard let interpreter = Self.executable(python) else {
            throw Failure(description: "\(python) was not found on PATH; it reads the Python sources (\(request.files.count) files)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lproj-extract-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("request.json")
        let process = Process()
        let output = Pipe(), errors = Pipe()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try JSONEncoder().encode(request).write(to: input)
            process.executableURL = URL(fileURLWithPath: interpreter)
            // -I: isolated from the environment's PYTHONPATH and the user's site.
            process.arguments = ["-I", "-c", Self.script, input.path]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = errors
            try process.run()
        } catch {
            throw Failure(description: "\(interpreter) could not be run to read the Python sources: \(error)")
        }
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let report = try? JSONDecoder().decode(Report.self, from: answer) else {
            let said = String(decoding: complaint, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(
                description: "\(interpreter) could not read the Python sources (exit status \(process.terminationStatus))"
                    + (said.isEmpty ? "" : ": \(said)"))
        }
        return report
    }

    /// A path as given, or the first executable of that name on `PATH`.
    static func executable(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The script: Python 3.8 or later, the standard library only. Columns
    /// are 1-based and count UTF-8 bytes, as the other extractors count them.
    static let script = #"""
        import ast, json, sys

        if sys.version_info < (3, 8):
            sys.exit("Python 3.8 or later is needed, this is " + sys.version.split()[0])

        def argument(node, name=None):
            found = {"kind": "other", "line": node.lineno, "column": node.col_offset + 1}
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                try:
                    node.value.encode("utf-8")
                    found.update(kind="string", value=node.value)
                except UnicodeEncodeError:
                    pass
            elif isinstance(node, ast.Constant) and node.value is None:
                found["kind"] = "none"
            elif isinstance(node, ast.JoinedStr):
                found["kind"] = "formatted"
            if name is not None:
                found["name"] = name
            return found

        def calls(tree, names):
            modules = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    modules.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
            found = []
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                if isinstance(node.func, ast.Name):
                    name, receiver = node.func.id, "none"
                elif isinstance(node.func, ast.Attribute):
                    name = node.func.attr
                    value = node.func.value
                    receiver = "module" if isinstance(value, ast.Name) and value.id in modules else "object"
                else:
                    continue
                if name not in names:
                    continue
                found.append({
                    "name": name, "receiver": receiver, "line": node.lineno, "column": node.col_offset + 1,
                    "arguments": [argument(item) for item in node.args],
                    "keywords": [argument(item.value, item.arg) for item in node.keywords if item.arg is not None],
                })
            found.sort(key=lambda call: (call["line"], call["column"]))
            return found

        def main():
            with open(sys.argv[1], encoding="utf-8") as stream:
                request = json.load(stream)
            names = set(request["names"])
            files = []
            for source in request["files"]:
                try:
                    tree = ast.parse(source["text"], source["path"])
                    files.append({"path": source["path"], "calls": calls(tree, names)})
                except SyntaxError as error:
                    column = 1
                    if error.text and error.offset:
                        column = len(error.text[:error.offset - 1].encode("utf-8", "replace")) + 1
                    files.append({"path": source["path"], "error": {
                        "line": error.lineno or 1, "column": column, "message": error.msg}})
                except (ValueError, RecursionError, MemoryError) as error:
                    files.append({"path": source["path"], "error": {"line": 1, "column": 1, "message": str(error)}})
            json.dump({"files": files}, sys.stdout)

        main()
        """#
}
