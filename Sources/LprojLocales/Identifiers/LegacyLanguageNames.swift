/// The English language names Apple once used as `.lproj` folder names
/// (`English.lproj`), and the identifiers they stand for.
///
/// These are the names in Core Foundation's `__CFBundleLanguageNamesArray`
/// and its alias table (CFLocaleIdentifier.c), which is how Apple's bundles
/// still read them.
enum LegacyLanguageNames {
    static let identifiers: [String: String] = [
        "Afrikaans": "af", "Albanian": "sq", "Amharic": "am", "Arabic": "ar", "Armenian": "hy", "Assamese": "as",
        "Aymara": "ay", "Azerbaijani": "az", "Basque": "eu", "Belarusian": "be", "Bengali": "bn", "Brazilian Portuguese": "pt-BR",
        "Breton": "br", "Bulgarian": "bg", "Burmese": "my", "Byelorussian": "be", "Catalan": "ca", "Chinese": "zh",
        "Croatian": "hr", "Czech": "cs", "Danish": "da", "Dutch": "nl", "Dzongkha": "dz", "English": "en",
        "Esperanto": "eo", "Estonian": "et", "Faroese": "fo", "Farsi": "fa", "Finnish": "fi", "Flemish": "nl-BE",
        "French": "fr", "Galician": "gl", "Georgian": "ka", "German": "de", "Greek": "el", "Greenlandic": "kl",
        "Guarani": "gn", "Gujarati": "gu", "Hebrew": "he", "Hindi": "hi", "Hungarian": "hu", "Icelandic": "is",
        "Indonesian": "id", "Inuktitut": "iu", "Irish": "ga", "Italian": "it", "Japanese": "ja", "Javanese": "jv",
        "Kannada": "kn", "Kashmiri": "ks", "Kazakh": "kk", "Khmer": "km", "Kinyarwanda": "rw", "Kirghiz": "ky",
        "Korean": "ko", "Kurdish": "ku", "Lao": "lo", "Latin": "la", "Latvian": "lv", "Lithuanian": "lt",
        "Macedonian": "mk", "Malagasy": "mg", "Malay": "ms", "Malayalam": "ml", "Maltese": "mt", "Manx": "gv",
        "Marathi": "mr", "Moldavian": "ro", "Mongolian": "mn", "Nepali": "ne", "Norwegian": "nb", "Nyanja": "ny",
        "Nynorsk": "nn", "Oriya": "or", "Oromo": "om", "Pashto": "ps", "Persian": "fa", "Polish": "pl",
        "Portuguese": "pt", "Punjabi": "pa", "Quechua": "qu", "Romanian": "ro", "Rundi": "rn", "Russian": "ru",
        "Sami": "se", "Sanskrit": "sa", "Scottish": "gd", "Serbian": "sr", "Simplified Chinese": "zh-Hans", "Sindhi": "sd",
        "Sinhalese": "si", "Slovak": "sk", "Slovenian": "sl", "Somali": "so", "Spanish": "es", "Sundanese": "su",
        "Swahili": "sw", "Swedish": "sv", "Tagalog": "fil", "Tajiki": "tg", "Tamil": "ta", "Tatar": "tt",
        "Telugu": "te", "Thai": "th", "Tibetan": "bo", "Tigrinya": "ti", "Tongan": "to", "Traditional Chinese": "zh-Hant",
        "Turkish": "tr", "Turkmen": "tk", "Uighur": "ug", "Ukrainian": "uk", "Urdu": "ur", "Uzbek": "uz",
        "Vietnamese": "vi", "Welsh": "cy", "Yiddish": "yi",
    ]
}
