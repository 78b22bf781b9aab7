/// Why a snapshot was refused: it is not one, is of another major
/// version, or is truncated, corrupted or hostile. Nothing of it is used.
package struct SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
