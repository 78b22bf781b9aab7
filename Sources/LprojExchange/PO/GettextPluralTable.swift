/// The standard `Plural-Forms` header of each language, as GNU gettext's
/// `msginit` writes it into a new translation: its built-in table
/// (`plural-table.c` of gettext-tools 0.21, Debian 12's `gettext`), which
/// is what translation teams start from. `Tests/LprojExchangeTests`
/// checks every entry against `msginit` itself. A language it lacks has no
/// standard header here, and its plurals are not exported to PO without one.
enum GettextPluralTable {
    static let forms: [String: String] = [
        "be": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
        "bg": "nplurals=2; plural=(n != 1);",
        "cs": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
        "da": "nplurals=2; plural=(n != 1);",
        "de": "nplurals=2; plural=(n != 1);",
        "el": "nplurals=2; plural=(n != 1);",
        "en": "nplurals=2; plural=(n != 1);",
        "eo": "nplurals=2; plural=(n != 1);",
        "es": "nplurals=2; plural=(n != 1);",
        "et": "nplurals=2; plural=(n != 1);",
        "fi": "nplurals=2; plural=(n != 1);",
        "fo": "nplurals=2; plural=(n != 1);",
        "fr": "nplurals=2; plural=(n > 1);",
        "ga": "nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;",
        "he": "nplurals=2; plural=(n != 1);",
        "hr": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
        "hu": "nplurals=2; plural=(n != 1);",
        "it": "nplurals=2; plural=(n != 1);",
        "ja": "nplurals=1; plural=0;",
        "ko": "nplurals=1; plural=0;",
        "lt": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);",
        "lv": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);",
        "nb": "nplurals=2; plural=(n != 1);",
        "nl": "nplurals=2; plural=(n != 1);",
        "nn": "nplurals=2; plural=(n != 1);",
        "no": "nplurals=2; plural=(n != 1);",
        "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
        "pt": "nplurals=2; plural=(n != 1);",
        "ro": "nplurals=3; plural=n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2;",
        "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
        "sk": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
        "sl": "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);",
        "sr": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
        "sv": "nplurals=2; plural=(n != 1);",
        "tr": "nplurals=2; plural=(n != 1);",
        "uk": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
        "vi": "nplurals=1; plural=0;",
    ]
}
