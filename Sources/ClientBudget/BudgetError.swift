/// A charge that would take a uid (or everyone) past a limit: which limit,
/// and its maximum. lprojd answers it as `LimitExceeded(limit, maximum)`.
package struct BudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which of the budget's limits.
    package enum Limit: Sendable, Hashable, CustomStringConvertible {
        /// A uid's limit on one resource.
        case perUID(Resource)
        /// Everyone's limit on one resource.
        case total(Resource)
        /// A uid's limit on all its resources together.
        case memoryPerUID
        /// Everyone's limit on all resources together.
        case memory

        /// Its name in the interface's `Limit` (`inputPerUID`, `memoryTotal`).
        package var description: String {
            switch self {
            case .perUID(let resource): "\(resource)PerUID"
            case .total(let resource): "\(resource)Total"
            case .memoryPerUID: "memoryPerUID"
            case .memory: "memoryTotal"
            }
        }
    }

    package let limit: Limit
    /// Its maximum, in bytes.
    package let maximum: Int

    package init(_ limit: Limit, maximum: Int) {
        self.limit = limit
        self.maximum = maximum
    }

    package var description: String { "\(limit) (at most \(maximum) bytes)" }
}
