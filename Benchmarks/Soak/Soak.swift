import Foundation

/// The soak itself: written later in this file's history.
enum Soak {
    static func run(seconds: Double, only: Set<String>?) throws {
        throw SoakFailure("not yet")
    }
}
