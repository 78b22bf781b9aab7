import LprojExchange
import LprojTables

/// The tables' line and column (Swift Testing has a type of the same name).
typealias SourceLocation = LprojTables.SourceLocation

extension XLIFFDocument {
    /// The document without where each part was read, to compare with one made in memory.
    var withoutLocations: XLIFFDocument {
        var copy = self
        for file in copy.files.indices {
            copy.files[file].location = nil
            for unit in copy.files[file].units.indices {
                copy.files[file].units[unit].location = nil
                copy.files[file].units[unit].targetLocation = nil
            }
        }
        return copy
    }
}

/// The first line where two texts differ, for a readable failure.
func firstDifference(_ a: String, _ b: String) -> String {
    let left = a.split(separator: "\n", omittingEmptySubsequences: false)
    let right = b.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(left.count, right.count) {
        let x = index < left.count ? String(left[index]) : "(end)"
        let y = index < right.count ? String(right[index]) : "(end)"
        if x != y { return "line \(index + 1): \(x.debugDescription) against \(y.debugDescription)" }
    }
    return "no difference"
}

/// The first unit where two documents differ.
func firstDifference(_ a: XLIFFDocument, _ b: XLIFFDocument) -> String {
    let left = a.files.flatMap(\.units), right = b.files.flatMap(\.units)
    for index in 0..<max(left.count, right.count) {
        let x = index < left.count ? "\(left[index])" : "(end)"
        let y = index < right.count ? "\(right[index])" : "(end)"
        if x != y { return "unit \(index): \(x) against \(y)" }
    }
    return a.files.map(\.original) == b.files.map(\.original) ? "files' attributes differ" : "files differ"
}
