/// A charge that would take a uid (or everyone) past a limit: which limit,
/// and its maximum. lprojd answers it as `LimitExceeded(limit, maximum)`.
public struct BudgetRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The limit's wire name (`inputPerUID`, `memoryPerUID`, `output`, ...).
    public let limit: String
    /// Its maximum, in bytes.
    public let maximum: Int

    public init(limit: String, maximum: Int) {
        self.limit = limit
        self.maximum = maximum
    }

    public var description: String { "\(limit) (at most \(maximum) bytes)" }
}
