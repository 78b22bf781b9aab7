/// What a client may add to a bundle at run time (`AddStrings`), per
/// client and bundle; the bytes a uid's additions hold together are its
/// budget's (`ClientBudget`).
package struct AddedStringLimits: Sendable, Equatable {
    /// Strings per client and bundle.
    package var maximumStrings = 10_000
    /// The longest added key or value, in bytes.
    package var maximumLength = 64 << 10

    /// The defaults.
    package init() {}

    package init(maximumStrings: Int, maximumLength: Int) {
        self.maximumStrings = maximumStrings
        self.maximumLength = maximumLength
    }
}
