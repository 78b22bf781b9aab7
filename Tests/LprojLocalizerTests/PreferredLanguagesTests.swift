import LprojLocalizer
import Testing

/// The user's languages, read as gettext reads them (clients/README.md has
/// the same table for the C and Python localizers).
struct PreferredLanguagesTests {
    @Test(arguments: [
        (["LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"], ["fr", "de"]),
        (["LANG": "pt_BR.UTF-8"], ["pt-BR"]),
        (["LC_ALL": "C", "LANGUAGE": "fr"], []),
        (["LC_ALL": "C.UTF-8", "LANGUAGE": "fr"], []),
        (["LANG": "POSIX"], []),
        (["LC_MESSAGES": "sr_RS@latin"], ["sr-Latn-RS"]),
        (["LC_MESSAGES": "sr_RS.UTF-8@cyrillic"], ["sr-Cyrl-RS"]),
        (["LANG": "de_DE@euro"], ["de-DE"]),
        // LC_ALL wins over LC_MESSAGES, which wins over LANG.
        (["LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "fr_FR", "LANG": "de_DE"], ["ja-JP"]),
        (["LC_ALL": "", "LC_MESSAGES": "fr_FR", "LANG": "de_DE"], ["fr-FR"]),
        // Empty entries, C entries and repeats are skipped.
        (["LANGUAGE": "::fr_CA:C:fr_CA:en", "LANG": "de_DE"], ["fr-CA", "en"]),
        // LANGUAGE alone: an unset locale does not hide it.
        (["LANGUAGE": "nl"], ["nl"]),
        ([:], []),
    ])
    func gettextOrder(environment: [String: String], expected: [String]) {
        #expect(PreferredLanguages.fromEnvironment(environment) == expected)
    }
}
