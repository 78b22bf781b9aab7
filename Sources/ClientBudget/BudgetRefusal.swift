/// A charge that would take a uid (or everyone) past a limit: which limit,
/// and its maximum. lprojd answers it as `LimitExceeded(limit, maximum)`.
public struct BudgetRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which of the budget's limits.
    public enum Limit: Sendable, Hashable, CustomStringConvertible {
        /// A uid's limit on one resource.
        case perUID(Resource)
        /// Everyone's limit on one resource.
        case total(Resource)
        /// A uid's limit on all its resources together.
        case memoryPerUID
        /// Everyone's limit on all resources together.
        case memory

        /// Its name in the interface's `Limit` (`inputPerUID`, `memoryTotal`).
        public var description: String {
            switch self {
            case .perUID(let resource): "\(resource)PerUID"
            case .total(let resource): "\(resource)Total"
            case .memoryPerUID: "memoryPerUID"
            case .memory: "memoryTotal"
            }
        }
    }

    public let limit: Limit
    /// Its maximum, in bytes.
    public let maximum: Int

    public init(_ limit: Limit, maximum: Int) {
        self.limit = limit
        self.maximum = maximum
    }

    public var description: String { "\(limit) (at most \(maximum) bytes)" }
}
