internal import LprojFormatStrings

/// Whether a translation keeps its source's format arguments: the same
/// positions with compatible kinds. A plural form may leave arguments out
/// ("One file" for `%d files`); no text may add one or change its kind.
enum FormatCheck {
    static func problem(source: String, target: String, isForm: Bool) -> String? {
        let expected = ArgumentSignature(FormatString(source))
        let given = ArgumentSignature(FormatString(target))
        for position in given.uses.keys.sorted() {
            let use = given.kind(at: position)!
            guard let wanted = expected.kind(at: position) else {
                return "the translation has argument \(position) (\(use.specifier)), which the source does not have"
            }
            guard use.kind.isCompatible(with: wanted.kind) else {
                return
                    "argument \(position) is \(use.specifier) (\(use.kind)) in the translation but \(wanted.specifier) (\(wanted.kind)) in the source"
            }
        }
        if !isForm {
            for position in expected.uses.keys.sorted() where given.uses[position] == nil {
                return "the translation leaves out argument \(position) (\(expected.kind(at: position)!.specifier))"
            }
        }
        return nil
    }
}
