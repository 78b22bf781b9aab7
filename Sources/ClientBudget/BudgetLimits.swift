/// How much each uid, and all uids together, may make lprojd hold.
///
/// Every resource has a limit per uid and a limit over all uids (the
/// second guards against a user who can act as many uids, through a
/// range of subordinate uids). On top of those, each uid's resources
/// together may not exceed ``memoryPerUID``, and everyone's together
/// ``memory``.
package struct BudgetLimits: Sendable, Equatable {
    /// Bytes each uid may hold of each resource.
    package var perUID: [Resource: Int]
    /// Bytes all uids together may hold of each resource.
    package var total: [Resource: Int]
    /// Bytes one uid may hold in all.
    package var memoryPerUID: Int
    /// Bytes all uids may hold in all.
    package var memory: Int

    /// Limits with the given values; a resource left out is limited only by
    /// the totals.
    package init(perUID: [Resource: Int] = [:], total: [Resource: Int] = [:], memoryPerUID: Int = .max, memory: Int = .max) {
        self.perUID = perUID
        self.total = total
        self.memoryPerUID = memoryPerUID
        self.memory = memory
    }

    /// lprojd's defaults: about 40 MiB per uid at most, whatever the number
    /// of its connections, and 1 GiB over all uids.
    package static let defaults = BudgetLimits(
        perUID: [
            .connections: 256 * BudgetLimits.connectionCost,
            .input: 16 << 20,
            .output: 16 << 20,
            .addedStrings: 4 << 20,
            .savedState: 1 << 20,
            .caches: 256 << 10,
        ],
        total: [
            .connections: 4096 * BudgetLimits.connectionCost,
            .input: 256 << 20,
            .output: 256 << 20,
            .addedStrings: 128 << 20,
            .savedState: 64 << 20,
            .caches: 16 << 20,
        ],
        memoryPerUID: 40 << 20,
        memory: 1 << 30)

    /// What one open connection is charged: its NIO channel, pipeline,
    /// handlers and read buffer, as measured with `make soak` (RSS growth
    /// over 4,096 idle connections, rounded up).
    package static let connectionCost = 16 << 10
}
