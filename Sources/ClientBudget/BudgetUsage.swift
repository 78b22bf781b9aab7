/// Bytes held, per resource.
package struct BudgetUsage: Sendable, Hashable {
    private var bytes = [Int](repeating: 0, count: Resource.allCases.count)

    /// Nothing held.
    package init() {}

    /// The bytes held of one resource.
    package subscript(resource: Resource) -> Int {
        get { bytes[resource.rawValue] }
        set { bytes[resource.rawValue] = newValue }
    }

    /// The bytes held of every resource together.
    package var total: Int { bytes.reduce(0, +) }

    /// Whether nothing is held.
    package var isEmpty: Bool { bytes.allSatisfy { $0 == 0 } }
}
