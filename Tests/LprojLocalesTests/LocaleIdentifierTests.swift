import Testing
@testable import LprojLocales

@Suite struct LocaleIdentifierTests {
    @Test(arguments: [
        ("en_GB", "en-GB"), ("en-GB", "en-GB"), ("en-gb", "en-GB"), ("EN_gb", "en-GB"),
        ("zh_Hant_TW", "zh-Hant-TW"), ("zh-hant", "zh-Hant"), ("iw", "he"), ("in", "id"), ("mo", "ro"),
        ("es_419", "es-419"), ("pt_BR", "pt-BR"), ("sr_Latn", "sr-Latn"),
    ])
    func spellingsNormalize(_ input: String, _ expected: String) throws {
        #expect(try LocaleIdentifier(input).tag == expected)
    }

    @Test(arguments: [
        ("English", "en"), ("French", "fr"), ("German", "de"), ("Japanese", "ja"),
        ("Spanish", "es"), ("Italian", "it"), ("Dutch", "nl"),
    ])
    func legacyLprojNames(_ name: String, _ expected: String) throws {
        #expect(try LprojName(folderName: "\(name).lproj") == .locale(LocaleIdentifier(expected)))
    }

    @Test func baseIsNotALocale() throws {
        #expect(try LprojName(folderName: "Base.lproj") == .base)
        #expect(try LprojName(folderName: "Base") == .base)
    }

    @Test(arguments: [
        "", "../etc", "en/../x", "en..", "und", "e", "en-", "-en", "en--GB", "a b", "日本", "en_GB@calendar=x",
        String(repeating: "a", count: 100),
    ])
    func malformedIdentifiersAreRejected(_ input: String) {
        #expect(throws: LocaleError.self) { try LocaleIdentifier(input) }
    }

    @Test func componentsAreSplit() throws {
        let locale = try LocaleIdentifier("zh-Hant-TW")
        #expect(locale.language == "zh")
        #expect(locale.script == "Hant")
        #expect(locale.region == "TW")
        let private_ = try LocaleIdentifier("x-pirate")
        #expect(private_.tag == "und-x-pirate")
        #expect(private_.extensions == ["x", "pirate"])
    }

    @Test func equivalentSpellingsShareAMatchKey() throws {
        #expect(try LocaleIdentifier("zh_TW").matchKey == LocaleIdentifier("zh-Hant-TW").matchKey)
        #expect(try LocaleIdentifier("zh").matchKey == LocaleIdentifier("zh-Hans").matchKey)
        #expect(try LocaleIdentifier("en").matchKey != LocaleIdentifier("en-US").matchKey)
        #expect(try LocaleIdentifier("sr").matchKey != LocaleIdentifier("sr-Latn").matchKey)
    }

    @Test func languageOnlyKeepsAnUnusualScript() throws {
        #expect(try LocaleIdentifier("zh-TW").languageOnly.tag == "zh-Hant")
        #expect(try LocaleIdentifier("zh-Hant-HK").languageOnly.tag == "zh-Hant")
        #expect(try LocaleIdentifier("zh-CN").languageOnly.tag == "zh")
        #expect(try LocaleIdentifier("sr-Latn-RS").languageOnly.tag == "sr-Latn")
        #expect(try LocaleIdentifier("en-GB").languageOnly.tag == "en")
    }

    @Test func knownLocalesFollowICU() throws {
        #expect(KnownLocales.isKnown(try LocaleIdentifier("en-JP")))  // English in Japan: data through en
        #expect(KnownLocales.isKnown(try LocaleIdentifier("zh-Hant-TW")))
        #expect(KnownLocales.isKnown(try LocaleIdentifier("es-419")))
        #expect(!KnownLocales.isKnown(try LocaleIdentifier("tlh")))  // Klingon: no ICU data
        #expect(!KnownLocales.isKnown(try LocaleIdentifier("x-pirate")))
        #expect(!KnownLocales.isKnown(try LocaleIdentifier("en-XY")))  // no such region
        #expect(KnownLocales.available.count > 500)
    }
}

@Suite struct FallbackChainTests {
    func chain(_ tag: String) throws -> [String] {
        FallbackChain(try LocaleIdentifier(tag)).keys.map(\.tag)
    }

    @Test func traditionalChineseNeverReachesSimplified() throws {
        let chain = try chain("zh-TW")
        #expect(chain == ["zh-Hant-TW", "zh-Hant"])
        #expect(!chain.contains { $0.contains("Hans") })
        #expect(try self.chain("zh-Hant-MO") == ["zh-Hant-MO", "zh-Hant-HK", "zh-Hant"])
    }

    @Test func serbianLatinNeverReachesCyrillic() throws {
        #expect(try chain("sr-Latn") == ["sr-Latn"])
        #expect(try chain("sr-Latn-RS") == ["sr-Latn-RS", "sr-Latn"])
        #expect(try chain("sr") == ["sr-Cyrl"])
    }

    @Test func regionalParentsFollowCLDR() throws {
        #expect(try chain("en-AU") == ["en-Latn-AU", "en-Latn-001", "en-Latn"])
        #expect(try chain("es-MX") == ["es-Latn-MX", "es-Latn-419", "es-Latn"])
        #expect(try chain("pt-AO") == ["pt-Latn-AO", "pt-Latn-PT", "pt-Latn"])
        #expect(try chain("de-CH") == ["de-Latn-CH", "de-Latn"])
        #expect(try chain("en") == ["en-Latn"])
    }

    @Test func variantsAndExtensionsComeOffFirst() throws {
        #expect(try chain("de-DE-1996") == ["de-Latn-DE-1996", "de-Latn-DE", "de-Latn"])
        #expect(try chain("th-u-ca-buddhist") == ["th-Thai-u-ca-buddhist", "th-Thai"])
    }

    @Test func unknownLanguagesHaveOnlyThemselves() throws {
        #expect(try chain("tlh") == ["tlh"])
    }
}

@Suite struct NegotiationTests {
    func locales(_ tags: [String]) throws -> [LocaleIdentifier] { try tags.map { try LocaleIdentifier($0) } }

    func pick(_ available: [String], _ preferred: [String], _ specificity: LocaleNegotiation.Specificity = .any) throws -> String? {
        LocaleNegotiation.negotiate(available: try locales(available), preferred: try locales(preferred), specificity: specificity)?.locale
            .tag
    }

    // The cases of ZCRLocalizedObject's own tests, with preferred languages [en-GB, fr, en, de].
    @Test func deviceLanguageCases() throws {
        let preferred = ["en-GB", "fr", "en", "de"]
        #expect(try pick(["en-GB", "en", "fr"], preferred) == "en-GB")
        #expect(try pick(["en", "fr"], preferred) == "en")
        #expect(try pick(["fr", "de"], preferred) == "fr")
    }

    @Test func exactOnlyAcceptsTheLocaleItself() throws {
        #expect(try pick(["en-gb", "en", "fr"], ["en-GB"], .exact) == "en-GB")
        #expect(try pick(["en", "fr"], ["en-GB"], .exact) == nil)
        #expect(try pick(["en-GB", "fr"], ["en"], .exact) == nil)
        #expect(try pick(["zh-Hant-TW"], ["zh-TW"], .exact) == "zh-Hant-TW")
    }

    @Test func languageStaysWithinTheLanguage() throws {
        #expect(try pick(["en-gb", "en", "fr"], ["en-GB"], .language) == "en-GB")
        #expect(try pick(["en", "fr"], ["en-GB"], .language) == "en")
        #expect(try pick(["fr"], ["en-GB"], .language) == nil)
        // The preference order decides between regional variants.
        #expect(try pick(["en-AU", "en-US", "fr"], ["en-GB", "en-AU"], .language) == "en-AU")
        // The CLDR chain comes first: en-AU's parent is en-001.
        #expect(try pick(["en-US", "en-001"], ["en-AU"], .language) == "en-001")
    }

    @Test func anyWalksThePreferredLanguages() throws {
        let preferred = ["fr", "en-GB", "en-AU", "en", "de"]
        #expect(try pick(["en-GB", "en"], preferred) == "en-GB")
        #expect(try pick(["de", "en"], ["fr", "en-GB"]) == "en")
        #expect(try pick(["ja"], preferred) == nil)
    }

    @Test func scriptsAreDifferentLanguages() throws {
        #expect(try pick(["zh-Hans"], ["zh-TW"]) == nil)
        #expect(try pick(["zh-Hans", "zh-Hant"], ["zh-TW"]) == "zh-Hant")
        #expect(try pick(["ha"], ["haw"]) == nil)
    }
}
