/// The parameters each method takes, built once rather than on every call.
enum ParameterNames {
    static let lookup: [String] = ["bundle", "key", "table", "locale", "client", "defaultValue", "arguments", "placeholders"]
    static let getTable: [String] = ["bundle", "table", "locale", "client"]
    static let listBundles: [String] = []
    static let negotiate: [String] = ["available", "values", "preferredLanguages", "specificity", "defaultValue"]
    static let reload: [String] = ["bundle"]
    static let status: [String] = []
    static let addStrings: [String] = ["client", "bundle", "table", "locale", "strings"]
    static let removeAddedStrings: [String] = ["client", "bundle", "table", "locale"]
    static let subscribe: [String] = ["client", "bundle"]
    static let getSelection: [String] = ["client", "bundle", "preferredLanguages"]
    static let selectLocale: [String] = ["client", "bundle", "locale"]
    static let resetSelection: [String] = ["client", "bundle"]
    static let format: [String] = [
        "style", "bundle", "client", "locale", "number", "date", "text", "template", "pattern", "fractionDigits", "currency", "unit", "timeZone", "calendar",
    ]
    static let parseDate: [String] = ["text", "style", "pattern", "bundle", "client", "locale", "timeZone", "calendar"]
    static let getPreferences: [String] = ["client", "bundle"]
    static let setPreferences: [String] = ["client", "bundle", "preferences", "clear"]
    static let supportedLocales: [String] = ["bundle", "client", "locale"]
}
