/// lprojd's version, written here and nowhere else: `lprojd --version`,
/// `lprojctl --version`, `lproj-extract --version`, Varlink's `GetInfo` and
/// `GetStatus` report it, the manual pages carry it, and `make
/// print-version` reads it from this file for packaging.
public enum LprojVersion {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
