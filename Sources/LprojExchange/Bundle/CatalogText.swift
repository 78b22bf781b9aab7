internal import Foundation
internal import LprojTables

/// How catalog texts and states are written in XLIFF, and read back.
enum CatalogText {
    /// `%#@NAME@` written `%N$#@NAME@` when the substitution NAME has an
    /// `argNum` N, as Xcode exports it; `%%` and positioned references
    /// are left alone.
    static func exportReferences(_ text: String, substitutions: [String: StringCatalog.Substitution]) -> String {
        guard !substitutions.isEmpty, text.contains("%#@") else { return text }
        return rewritingSpecifiers(text) { scalars in
            guard scalars.starts(with: "#@".unicodeScalars), let close = scalars.dropFirst(2).firstIndex(of: "@") else { return nil }
            let name = String(String.UnicodeScalarView(scalars[scalars.index(scalars.startIndex, offsetBy: 2)..<close]))
            guard let argument = substitutions[name]?.argNum else { return nil }
            scalars = scalars[scalars.index(after: close)...]
            return "%\(argument)$#@\(name)@"
        }
    }

    /// A substitution's form with `%arg` written as the argument it stands
    /// for (`%1$lld`), as Xcode exports it.
    static func exportForm(_ text: String, argument: StringCatalog.Substitution) -> String {
        guard text.contains("%arg") else { return text }
        let replacement = argument.argNum.map { "%\($0)$\(argument.formatSpecifier)" } ?? "%\(argument.formatSpecifier)"
        return replacingArg(in: text, with: replacement)
    }

    /// `%arg` replaced, except after `%%`.
    static func replacingArg(in text: String, with replacement: String) -> String {
        rewritingSpecifiers(text) { scalars in
            guard scalars.starts(with: "arg".unicodeScalars) else { return nil }
            scalars = scalars.dropFirst(3)
            return replacement
        }
    }

    /// The text with each `%` that does not start `%%` offered to
    /// `rewrite`, given what follows it: it returns the replacement of the
    /// `%` and what it consumed (advancing past that), or nil to keep both.
    static func rewritingSpecifiers(
        _ text: String, _ rewrite: (inout Substring.UnicodeScalarView) -> String?
    ) -> String {
        var result = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            guard scalar == "%" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            if scalars.first == "%" {
                result += "%%"
                scalars = scalars.dropFirst()
            } else if let replacement = rewrite(&scalars) {
                result += replacement
            } else {
                result += "%"
            }
        }
        return result
    }

    /// A translated text as the catalog keeps it: `%N$#@NAME@` back to
    /// `%#@NAME@` where NAME's `argNum` is N (as Xcode's import writes it),
    /// and in a substitution's form `%N$spec` back to `%arg`.
    static func catalogForm(_ text: String, substitutions: [String: StringCatalog.Substitution], of substitution: String?) -> String {
        var result = text
        if let substitution, let argument = substitutions[substitution], let number = argument.argNum {
            result = result.replacingAll("%\(number)$\(argument.formatSpecifier)", with: "%arg")
        }
        for (name, argument) in substitutions {
            guard let number = argument.argNum else { continue }
            result = result.replacingAll("%\(number)$#@\(name)@", with: "%#@\(name)@")
        }
        return result
    }

    /// A catalog state as XLIFF writes it: Xcode 27 writes `needs_review`
    /// as `needs-review-l10n` and `machine_translated` as `translated` with
    /// `state-qualifier="leveraged-mt"`.
    static func xliffState(_ state: StringCatalog.State) -> (String, String?) {
        switch state {
        case .new: ("new", nil)
        case .needsReview, .stale: ("needs-review-l10n", nil)
        case .machineTranslated: ("translated", "leveraged-mt")
        default: ("translated", nil)
        }
    }

    /// The catalog state a finished XLIFF target stands for.
    static func catalogState(qualifier: String?) -> StringCatalog.State {
        qualifier == "leveraged-mt" ? .machineTranslated : .translated
    }
}

extension String {
    /// Every occurrence of a text replaced, scanning left to right.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension CatalogText {
    /// Whether two texts are the same but for how references are numbered
    /// (`%1$#@files@` and `%#@files@`), which the catalog and XLIFF write
    /// differently.
    static func sameText(_ a: String, _ b: String) -> Bool {
        a == b || unnumberedReferences(a) == unnumberedReferences(b)
    }

    static func unnumberedReferences(_ text: String) -> String {
        guard text.contains("$#@") else { return text }
        var result = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            result.unicodeScalars.append(scalar)
            guard scalar == "%" else { continue }
            let digits = scalars.prefix { ("0"..."9").contains($0) }
            let rest = scalars.dropFirst(digits.count)
            if !digits.isEmpty, rest.starts(with: "$#@".unicodeScalars) { scalars = rest.dropFirst() }
        }
        return result
    }
}
