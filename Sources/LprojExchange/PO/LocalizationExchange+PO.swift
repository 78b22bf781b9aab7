import LprojFormatStrings
internal import LprojLocales
internal import LprojTables

/// What `lprojctl po export` writes, and what it could not.
package struct POExport: Sendable {
    package var document: PODocument
    package var problems: [String]
}

/// One PO message's units: a single unit, or the units of one plural by category.
struct POGroup {
    let table: ExchangeTable
    /// The table's name (`Localizable`) and the key in it, as the code names them.
    let tableName: String
    let key: String
    let context: String
    var single: ExchangeUnit?
    var forms: [PluralCategory: ExchangeUnit] = [:]
}

extension LocalizationExchange {
    /// The standard `Plural-Forms` of a language (``GettextPluralTable``): by
    /// its language subtag, as gettext's table is.
    package static func standardPluralForms(for language: String) -> String? {
        guard let identifier = try? LocaleIdentifier(language) else { return nil }
        return GettextPluralTable.forms[identifier.tag] ?? GettextPluralTable.forms[identifier.language]
    }

    /// The PO messages of the bundle, as gettext translators get them: the
    /// key in `msgctxt` (after `TABLE:` when the table is not
    /// `Localizable`; catalog variations as Xcode names them, `KEY|==|device.iphone`),
    /// the development language's text in `msgid`, comments as `#.`; a
    /// plural is one message whose forms are the gettext forms of the
    /// language's `Plural-Forms`, each holding the CLDR category that
    /// ``PluralMapping`` found for it.
    func poGroups() -> (groups: [POGroup], problems: [String]) {
        var groups: [POGroup] = []
        var indexByContext: [String: Int] = [:]
        var problems: [String] = []
        for table in tables() {
            problems += table.problems
            let name = String(table.original.split(separator: "/").last!.split(separator: ".").dropLast().joined(separator: "."))
            let prefix = name == "Localizable" ? "" : name + ":"
            for unit in table.units {
                guard !unit.source.isEmpty else {
                    problems.append("\(table.original): \"\(unit.id)\" has an empty source, which PO keeps for its header; it is left out")
                    continue
                }
                let context = prefix + Self.poContext(unit)
                if let index = indexByContext[context] {
                    if groups[index].table.original != table.original {
                        // `.strings` and `.stringsdict` of one table: lookups take the `.stringsdict` entry.
                        if table.kind == .stringsdict && groups[index].table.kind == .strings {
                            problems.append(
                                "\(groups[index].table.original): \"\(context)\" is also a .stringsdict entry, which lookups use; the .strings value is left out"
                            )
                            groups[index] = POGroup(table: table, tableName: name, key: Self.key(unit), context: context)
                        } else {
                            problems.append(
                                "\(table.original): \"\(context)\" is also a message of \(groups[index].table.original); it is left out")
                            continue
                        }
                    }
                } else {
                    indexByContext[context] = groups.count
                    groups.append(POGroup(table: table, tableName: name, key: Self.key(unit), context: context))
                }
                let index = indexByContext[context]!
                if let category = unit.category { groups[index].forms[category] = unit } else { groups[index].single = unit }
            }
        }
        return (groups, problems)
    }

    /// The key of a unit's table entry, which the code names.
    static func key(_ unit: ExchangeUnit) -> String {
        switch unit.address {
        case .strings(let key), .stringsdictFormat(let key), .stringsdictForm(let key, _, _, _), .catalog(let key, _): key
        }
    }

    /// A unit's key in `msgctxt`: the forms of a plural share one.
    static func poContext(_ unit: ExchangeUnit) -> String {
        switch unit.address {
        case .strings(let key), .stringsdictFormat(let key):
            return key
        case .stringsdictForm(let key, let variable, _, _):
            return key + "|==|" + variable
        case .catalog(let key, let path):
            guard var suffix = path.idSuffix else { return key }
            if let category = path.category { suffix = String(suffix.dropLast(category.rawValue.count + 1)) }
            return key + "|==|" + suffix
        }
    }

    /// The PO file of the target language, or (`template`) the POT of the
    /// development language's texts.
    /// `references` gives each message the `#:` places where the code uses its key.
    package func poDocument(
        template: Bool, project: String, generator: String, pluralForms: String? = nil, references: SourceReferences = SourceReferences()
    ) -> POExport {
        let (groups, groupProblems) = poGroups()
        var problems = groupProblems
        let formsText = template ? "nplurals=2; plural=(n != 1);" : pluralForms ?? Self.standardPluralForms(for: language)
        let rule = formsText.flatMap(GettextPluralRule.init)
        let mapping = rule.map { PluralMapping(language: template ? "en" : language, rule: $0) }
        if let mapping, !template {
            problems += mapping.disagreements.map { "\(language): \($0)" }
        }
        if rule == nil, groups.contains(where: { !$0.forms.isEmpty }) {
            problems.append(
                "\(language): gettext's table has no standard Plural-Forms for it; give --plural-forms 'nplurals=…; plural=…;' to export its plurals (left out)"
            )
        }
        var header: [(name: String, value: String)] = [
            ("Project-Id-Version", project), ("Language", template ? "" : language), ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=UTF-8"), ("Content-Transfer-Encoding", "8bit"),
        ]
        if let formsText { header.append(("Plural-Forms", formsText)) }
        header.append(("X-Generator", generator))
        var messages: [POMessage] = []
        for group in groups {
            let note = (group.single ?? group.forms.values.first)?.note
            var message = POMessage(
                extractedComments: note.map { [$0] } ?? [], references: references.places(table: group.tableName, key: group.key),
                context: group.context, id: "", strings: [])
            if let unit = group.single {
                message.id = unit.source
                message.strings = [template ? "" : unit.target ?? ""]
                let flag = Self.formatFlag([unit.source])
                var fuzzy = !template && unit.target != nil && Self.isUnfinished(unit.state)
                if !template, let target = unit.target,
                    let problem = Self.gettextProblem(source: unit.source, target: target, formatted: flag != nil)
                {
                    problems.append("\(group.table.original): \"\(group.context)\": \(problem); exported as fuzzy")
                    fuzzy = true
                }
                if fuzzy { message.flags.append("fuzzy") }
                if let flag { message.flags.append(flag) }
            } else {
                guard let rule, let mapping else { continue }
                let one = group.forms[.one] ?? group.forms[.other] ?? group.forms.values.first!
                let other = group.forms[.other] ?? one
                message.id = one.source
                message.idPlural = other.source
                message.strings = (0..<rule.count).map { index in
                    guard !template, let category = mapping.categoryOfIndex[index] else { return "" }
                    return group.forms[category]?.target ?? ""
                }
                for (category, unit) in group.forms.sorted(by: { $0.key < $1.key }) where unit.target != nil && !template {
                    if mapping.index(of: category) == nil {
                        problems.append(
                            "\(group.table.original): \"\(group.context)\": the '\(category)' form has no gettext form in \(language); it is left out"
                        )
                    }
                }
                var fuzzy = !template && group.forms.values.contains { $0.target != nil && Self.isUnfinished($0.state) }
                if !template, message.strings.contains(where: \.isEmpty), message.strings.contains(where: { !$0.isEmpty }) {
                    // gettext takes a plural whole or not at all.
                    problems.append("\(group.table.original): \"\(group.context)\": only some forms are translated; exported as fuzzy")
                    fuzzy = true
                }
                for text in message.strings where !text.isEmpty {
                    if let problem = Self.gettextProblem(source: one.source, target: text, formatted: false) {
                        problems.append("\(group.table.original): \"\(group.context)\": \(problem); exported as fuzzy")
                        fuzzy = true
                    }
                }
                if fuzzy { message.flags.append("fuzzy") }
                // gettext checks every form against msgid_plural: flagged only when all agree.
                let signature = ArgumentSignature(FormatString(other.source))
                let texts = [one.source, other.source] + message.strings.filter { !$0.isEmpty }
                if let flag = Self.formatFlag(texts), texts.allSatisfy({ ArgumentSignature(FormatString($0)) == signature }) {
                    message.flags.append(flag)
                }
            }
            messages.append(message)
        }
        return POExport(document: PODocument(header: header, messages: messages), problems: problems)
    }

    /// What gettext's `msgfmt --check` would refuse in a translation: a
    /// line break at the start or end that the source has not (or the
    /// reverse), or, in a formatted message, arguments that differ.
    static func gettextProblem(source: String, target: String, formatted: Bool) -> String? {
        if source.hasPrefix("\n") != target.hasPrefix("\n") || source.hasSuffix("\n") != target.hasSuffix("\n") {
            return "the translation starts or ends with a line break where the source does not, or the reverse, which gettext refuses"
        }
        if formatted, let problem = FormatCheck.problem(source: source, target: target, isForm: false) { return problem }
        return nil
    }

    /// `c-format` or `objc-format` where gettext's own check of the format
    /// would be right: every conversion one it knows (no `%#@…@` plural
    /// references), `%@` making it Objective-C's.
    static func formatFlag(_ texts: [String]) -> String? {
        var sawConversion = false, sawObject = false
        for text in texts {
            for segment in FormatString(text).segments {
                switch segment {
                case .specifier(let specifier):
                    sawConversion = true
                    if specifier.conversion == .object { sawObject = true }
                    if specifier.conversion == .count || specifier.length == .quad { return nil }
                case .variable, .malformedVariable, .incomplete:
                    return nil
                case .unknown(let text, _):
                    if text != "%%" { return nil }
                case .literal:
                    break
                }
            }
        }
        guard sawConversion else { return nil }
        return sawObject ? "objc-format" : "c-format"
    }

    /// Checks a translated PO file against the bundle and works out the
    /// files it changes, exactly as an XLIFF import does (it becomes one).
    package func importing(_ po: PODocument, from displayPath: String) -> ImportPlan {
        var plan = ImportPlan()
        func report(_ severity: ImportFinding.Severity, _ location: SourceLocation?, _ message: String) {
            plan.findings.append(ImportFinding(severity: severity, file: displayPath, location: location, message: message))
        }
        guard let given = po.field("Language"), !given.isEmpty else {
            report(.error, SourceLocation(line: 1, column: 1), "the header has no Language")
            return plan
        }
        guard (try? LocaleIdentifier(given)) == (try? LocaleIdentifier(language)) else {
            report(.error, SourceLocation(line: 1, column: 1), "the file is in \(given), not \(language)")
            return plan
        }
        let rule = po.field("Plural-Forms").flatMap(GettextPluralRule.init)
        let mapping = rule.map { PluralMapping(language: language, rule: $0) }
        let groups = Dictionary(poGroups().groups.map { ($0.context, $0) }, uniquingKeysWith: { first, _ in first })
        var files: [String: XLIFFDocument.File] = [:]
        for message in po.messages {
            guard let context = message.context, let group = groups[context] else {
                report(.error, message.location, "the bundle has no message \(message.context.map { "\"\($0)\"" } ?? "without msgctxt")")
                continue
            }
            var units: [XLIFFDocument.Unit] = []
            let state = message.flags.contains("fuzzy") ? "needs-review-translation" : "translated"
            if let unit = group.single {
                guard message.idPlural == nil else {
                    report(.error, message.location, "\"\(context)\" is not a plural, but the message has msgid_plural")
                    continue
                }
                guard message.id == unit.source else {
                    plan.sourceChanged += 1
                    report(
                        .warning, message.location,
                        "\"\(context)\": the source changed since the export (it is now \"\(unit.source)\"); not imported")
                    continue
                }
                if !message.strings[0].isEmpty {
                    units.append(
                        .init(id: unit.id, source: unit.source, target: message.strings[0], state: state, location: message.location))
                }
            } else {
                guard message.idPlural != nil, let rule, let mapping else {
                    report(
                        .error, message.location,
                        rule == nil
                            ? "\"\(context)\" is a plural, and the header has no Plural-Forms that gettext reads"
                            : "\"\(context)\" is a plural; the message has no msgid_plural")
                    continue
                }
                let one = group.forms[.one] ?? group.forms[.other] ?? group.forms.values.first!
                let other = group.forms[.other] ?? one
                guard message.id == one.source, message.idPlural == other.source else {
                    plan.sourceChanged += 1
                    report(.warning, message.location, "\"\(context)\": the source changed since the export; not imported")
                    continue
                }
                guard message.strings.count == rule.count else {
                    report(.error, message.location, "\"\(context)\" has \(message.strings.count) forms; Plural-Forms says \(rule.count)")
                    continue
                }
                for (index, text) in message.strings.enumerated() where !text.isEmpty {
                    guard let category = mapping.categoryOfIndex[index], let unit = group.forms[category] else {
                        report(.error, message.location, "\"\(context)\": msgstr[\(index)] has no CLDR category of \(language) to go to")
                        continue
                    }
                    units.append(.init(id: unit.id, source: unit.source, target: text, state: state, location: message.location))
                }
            }
            let original = group.table.original
            if files[original] == nil {
                files[original] = XLIFFDocument.File(
                    original: original, sourceLanguage: group.table.sourceLanguage, targetLanguage: language, tool: nil, units: [])
            }
            files[original]!.units += units
        }
        guard !plan.hasErrors else { return plan }
        let document = XLIFFDocument(files: files.keys.sorted().map { files[$0]! })
        var result = importing(document, from: displayPath)
        result.findings = plan.findings + result.findings
        result.sourceChanged += plan.sourceChanged
        return result
    }
}
