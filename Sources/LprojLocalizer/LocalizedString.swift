public import Foundation
internal import Synchronization

/// Entry points for code ported from Apple platforms: `NSLocalizedString`
/// and `String(localized:)` read from ``Localizer/shared`` once the app has
/// set it, so that a ported file needs no change but its import.
extension Localizer {
    private static let installed = Mutex<Localizer?>(nil)

    /// The localizer the Apple-style entry points read from. Until an app
    /// sets it, they answer as Foundation does on Linux.
    public static var shared: Localizer? {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }
}

/// `NSLocalizedString`, answered by ``Localizer/shared``: `value` is the
/// default when the key is in no table (Foundation's meaning), `bundle` is
/// ignored (the localizer knows its bundle). Declared with Foundation's
/// exact signature: a ported file adds `import func
/// LprojLocalizer.NSLocalizedString` beside `import Foundation`, and its
/// calls read the localizer unchanged (a scoped import wins over a plain one).
public func NSLocalizedString(
    _ key: String, tableName: String? = nil, bundle: Bundle = Bundle.main, value: String = "", comment: String
) -> String {
    guard let localizer = Localizer.shared else {
        return Foundation.NSLocalizedString(key, tableName: tableName, bundle: bundle, value: value, comment: comment)
    }
    return localizer.localized(key, table: tableName ?? "Localizable", defaultValue: value.isEmpty ? nil : value)
}

extension String {
    /// `String(localized:)` for a key, answered by ``Localizer/shared`` (or
    /// `localizer`): the table's value in the app's language, else
    /// `defaultValue`, else the key.
    public init(
        localized key: String, defaultValue: String? = nil, table: String? = nil, localizer: Localizer? = nil, comment: StaticString? = nil
    ) {
        guard let localizer = localizer ?? Localizer.shared else {
            self = defaultValue ?? key
            return
        }
        self = localizer.localized(key, table: table ?? "Localizable", defaultValue: defaultValue)
    }

    /// `String(localized:)` with format arguments, formatted as lprojd does;
    /// the unformatted value when the arguments do not fit.
    public init(
        localized key: String, defaultValue: String? = nil, table: String? = nil, arguments: [Localizer.Argument],
        localizer: Localizer? = nil
    ) {
        guard let localizer = localizer ?? Localizer.shared else {
            self = defaultValue ?? key
            return
        }
        self =
            (try? localizer.localized(key, table: table ?? "Localizable", defaultValue: defaultValue, arguments: arguments))
            ?? localizer.localized(key, table: table ?? "Localizable", defaultValue: defaultValue)
    }
}
