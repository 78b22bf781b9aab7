/// Something in the configuration lprojd works around, and the file it is
/// about: a drop-in refused, or not used because another file defines its
/// bundle.
package struct ConfigurationWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file the warning is about.
    package let file: String
    /// What lprojd does about it, for a person.
    package let message: String

    /// A warning about a file.
    package init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    /// `file: message`.
    package var description: String { "\(file): \(message)" }
}
