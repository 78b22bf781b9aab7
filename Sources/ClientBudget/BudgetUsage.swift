/// Bytes held, per resource.
public struct BudgetUsage: Sendable, Hashable {
    private var bytes = [Int](repeating: 0, count: Resource.allCases.count)

    /// Nothing held.
    public init() {}

    /// The bytes held of one resource.
    public subscript(resource: Resource) -> Int {
        get { bytes[resource.rawValue] }
        set { bytes[resource.rawValue] = newValue }
    }

    /// The bytes held of every resource together.
    public var total: Int { bytes.reduce(0, +) }

    /// Whether nothing is held.
    public var isEmpty: Bool { bytes.allSatisfy { $0 == 0 } }
}
