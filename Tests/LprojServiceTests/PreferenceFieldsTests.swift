import LprojFormatting
import LprojInterface
import Testing

/// The interface's `Preferences` and the formatter's fields are one list:
/// adding a field to the IDL without teaching `FormattingPreferences` what it
/// means (or the reverse) fails here, not on a client's call.
struct PreferenceFieldsTests {
    @Test func everyFieldOfTheInterfaceIsAFormattingPreference() {
        #expect(FormattingPreferences.Field.allCases.map(\.rawValue) == Localization.Preferences.fieldNames)
    }
}
